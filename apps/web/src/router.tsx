import { createRouter } from "@tanstack/react-router";
import { routeTree } from "./routes/tree.tsx";
import { ErrorFallback } from "@/components/layout/error-fallback";
import { NotFoundPage } from "@/components/layout/not-found";

export const router = createRouter({
  routeTree,
  defaultPreload: "intent",
  // Loaders read through the query cache, which owns freshness.
  defaultPreloadStaleTime: 0,
  // Spec 2 / 8: one not-found page and one error fallback wherever in the tree it happens.
  defaultNotFoundComponent: NotFoundPage,
  defaultErrorComponent: ErrorFallback,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
