import { createRouter } from "@tanstack/react-router";
import { routeTree } from "./routes/tree.tsx";
import { ErrorFallback } from "@/components/layout/error-fallback";
import { NotFoundPage } from "@/components/layout/not-found";
import { whenSessionLost } from "@/lib/trpc";

export const router = createRouter({
  routeTree,
  defaultPreload: "intent",
  // Loaders read through the query cache, which owns freshness.
  defaultPreloadStaleTime: 0,
  // Spec 2 / 8: one not-found page and one error fallback wherever in the tree it happens.
  defaultNotFoundComponent: NotFoundPage,
  defaultErrorComponent: ErrorFallback,
});

// Back to sign-in, returning afterwards to the page the person was opening (or on).
whenSessionLost(() => {
  const location = router.latestLocation;
  if (location.pathname.startsWith("/auth")) return;
  void router.navigate({ to: "/auth/signin", search: { redirect: location.href }, replace: true });
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
