import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { authLayoutRoute } from "../layouts.tsx";

export const forgotPasswordRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "forgot-password",
  component: lazyRouteComponent(() => import("@/components/auth/forgot-password-form"), "ForgotPasswordForm"),
});
