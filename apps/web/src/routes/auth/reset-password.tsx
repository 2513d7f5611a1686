import { createRoute } from "@tanstack/react-router";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";
import { authLayoutRoute } from "../layouts.tsx";
import { tokenSearch } from "@/components/auth/token-search";

/** Target of the emailed reset link: /auth/reset-password?token=… */
export const resetPasswordRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "reset-password",
  validateSearch: tokenSearch,
  component: function ResetPasswordPage() {
    const { token } = resetPasswordRoute.useSearch();
    return <ResetPasswordForm token={token ?? null} />;
  },
});
