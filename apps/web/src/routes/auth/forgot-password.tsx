import { createRoute } from "@tanstack/react-router";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";
import { authLayoutRoute } from "../layouts.tsx";

export const forgotPasswordRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "forgot-password",
  component: ForgotPasswordForm,
});
