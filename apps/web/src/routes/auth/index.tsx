import { createRoute, redirect } from "@tanstack/react-router";
import { authLayoutRoute } from "../layouts.tsx";

/** /auth has no page of its own. */
export const authIndexRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/auth/signin" });
  },
});
