import { createRoute } from "@tanstack/react-router";
import { authLayoutRoute } from "../layouts.tsx";

export const forgotPasswordRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "forgot-password",
  component: () => <p>forgot-password</p>,
});
