import { createLazyRoute } from "@tanstack/react-router";
import { ConfirmEmailPanel } from "@/components/auth/confirm-email-panel";

export const confirmEmailLazyRoute = createLazyRoute("/auth/confirm-email")({
  component: function ConfirmEmailPage() {
    const { token } = confirmEmailLazyRoute.useSearch();
    return <ConfirmEmailPanel token={token ?? null} />;
  },
});
