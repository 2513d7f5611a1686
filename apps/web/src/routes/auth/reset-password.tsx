import { createRoute } from "@tanstack/react-router";
import { authLayoutRoute } from "../layouts.tsx";

export const resetPasswordRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "reset-password",
  component: () => <p>reset-password</p>,
});
