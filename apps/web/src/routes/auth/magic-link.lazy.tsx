import { createLazyRoute } from "@tanstack/react-router";
import { MagicLinkPanel } from "@/components/auth/magic-link-panel";

export const magicLinkLazyRoute = createLazyRoute("/auth/magic-link")({
  component: function MagicLinkPage() {
    const { token } = magicLinkLazyRoute.useSearch();
    return <MagicLinkPanel token={token ?? null} />;
  },
});
