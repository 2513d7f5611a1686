import { createRoute } from "@tanstack/react-router";
import { authLayoutRoute } from "../layouts.tsx";
import { tokenSearch } from "@/components/auth/token-search";

/** Target of the emailed magic link: /auth/magic-link?token=… */
export const magicLinkRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "magic-link",
  validateSearch: tokenSearch,
}).lazy(() => import("./magic-link.lazy.tsx").then((module) => module.magicLinkLazyRoute));
