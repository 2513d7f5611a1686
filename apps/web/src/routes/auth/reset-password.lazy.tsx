import { createLazyRoute } from "@tanstack/react-router";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";

export const resetPasswordLazyRoute = createLazyRoute("/auth/reset-password")({
  component: function ResetPasswordPage() {
    const { token } = resetPasswordLazyRoute.useSearch();
    return <ResetPasswordForm token={token ?? null} />;
  },
});
