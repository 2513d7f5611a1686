import { createRoute } from "@tanstack/react-router";
import { MagicLinkPanel } from "@/components/auth/magic-link-panel";
import { authLayoutRoute } from "../layouts.tsx";
import { tokenSearch } from "@/components/auth/token-search";

/** Target of the emailed magic link: /auth/magic-link?token=… */
export const magicLinkRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "magic-link",
  validateSearch: tokenSearch,
  component: function MagicLinkPage() {
    const { token } = magicLinkRoute.useSearch();
    return <MagicLinkPanel token={token ?? null} />;
  },
});
