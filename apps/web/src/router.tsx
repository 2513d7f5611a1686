import { createRouter } from "@tanstack/react-router";
import { routeTree } from "./routes/tree.tsx";

export const router = createRouter({
  routeTree,
  defaultPreload: "intent",
  // Loaders read through the query cache, which owns freshness.
  defaultPreloadStaleTime: 0,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
