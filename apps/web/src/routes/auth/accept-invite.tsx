import { createRoute } from "@tanstack/react-router";
import { authLayoutRoute } from "../layouts.tsx";

export const acceptInviteRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "accept-invite",
  component: () => <p>accept-invite</p>,
});
