import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { authLayoutRoute } from "../layouts.tsx";

const AcceptInvitePage = lazyRouteComponent(() => import("@/components/teams/accept-invite-page"), "AcceptInvitePage");

/** /auth/accept-invite?id=…: reachable signed in or not (the auth area's redirect skips it). */
export const acceptInviteRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "accept-invite",
  validateSearch: (search: Record<string, unknown>): { id?: string } => (typeof search.id === "string" ? { id: search.id } : {}),
  component: function AcceptInviteRoute() {
    const { id } = acceptInviteRoute.useSearch();
    return <AcceptInvitePage id={id} />;
  },
});
