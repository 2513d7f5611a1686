import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { api } from "@/lib/trpc";
import { authLayoutRoute } from "../layouts.tsx";

const AcceptInvitePage = lazyRouteComponent(() => import("@/components/teams/accept-invite-page"), "AcceptInvitePage");

/** /auth/accept-invite?id=…&token=…: reachable signed in or not (the auth area's redirect skips it). */
export const acceptInviteRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "accept-invite",
  validateSearch: (search: Record<string, unknown>): { id?: string; token?: string } => ({
    ...(typeof search.id === "string" ? { id: search.id } : {}),
    // The emailed link's proof of the address, for signing up in one step (see auth.signUpWithInvite).
    ...(typeof search.token === "string" ? { token: search.token } : {}),
  }),
  loaderDeps: ({ search }) => ({ id: search.id }),
  // An unknown or expired invitation is the page's to show, not the application's error screen.
  loader: ({ deps: { id } }) => (id ? api.invites.get.ensureData({ id }, { retry: false }).catch(() => undefined) : undefined),
  component: function AcceptInviteRoute() {
    const { id, token } = acceptInviteRoute.useSearch();
    return <AcceptInvitePage id={id} token={token} />;
  },
});
