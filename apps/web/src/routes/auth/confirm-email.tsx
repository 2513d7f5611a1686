import { createRoute } from "@tanstack/react-router";
import { ConfirmEmailPanel } from "@/components/auth/confirm-email-panel";
import { authLayoutRoute } from "../layouts.tsx";
import { tokenSearch } from "@/components/auth/token-search";

/** Target of the emailed verification link: /auth/confirm-email?token=… */
export const confirmEmailRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "confirm-email",
  validateSearch: tokenSearch,
  component: function ConfirmEmailPage() {
    const { token } = confirmEmailRoute.useSearch();
    return <ConfirmEmailPanel token={token ?? null} />;
  },
});
