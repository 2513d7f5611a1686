import { createRouter } from "@tanstack/react-router";
import { routeTree } from "./routes/tree.tsx";
import { ErrorFallback } from "@/components/layout/error-fallback";
import { NotFoundPage } from "@/components/layout/not-found";
import { readNotificationsOnOpen } from "@/components/notifications/read-on-open";
import { api, queryClient, whenSessionLost } from "@/lib/trpc";
import { clearWorkspaceSelection } from "@/lib/workspace";

export const router = createRouter({
  routeTree,
  defaultPreload: "intent",
  // Loaders read through the query cache, which owns freshness.
  defaultPreloadStaleTime: 0,
  // A skeleton goes as soon as the data is there (the router's default keeps it at least 500 ms);
  // quick navigations show only the progress bar.
  defaultPendingMinMs: 0,
  // One not-found page and one error fallback wherever in the tree it happens.
  defaultNotFoundComponent: NotFoundPage,
  defaultErrorComponent: ErrorFallback,
});

// Back to sign-in, returning afterwards to the page the person was opening (or on). What the ended
// session had loaded, and its saved organization and team, go as on sign-out: the next person at this
// browser may be someone else.
whenSessionLost(() => {
  const location = router.latestLocation;
  clearWorkspaceSelection();
  void (async () => {
    if (!location.pathname.startsWith("/auth")) {
      await router.navigate({ to: "/auth/signin", search: { redirect: location.href }, replace: true });
    }
    queryClient.clear();
    api.auth.me.setData(undefined, null);
  })();
});

readNotificationsOnOpen(router);

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
  interface StaticDataRouteOption {
    /** The page shows a failed organization list itself, so the header does not toast it as well. */
    showsOrganizationsFailure?: boolean;
  }
}
