import { createRoute } from "@tanstack/react-router";
import { authLayoutRoute } from "../layouts.tsx";
import { tokenSearch } from "@/components/auth/token-search";

/** Target of the emailed verification link: /auth/confirm-email?token=… */
export const confirmEmailRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "confirm-email",
  validateSearch: tokenSearch,
}).lazy(() => import("./confirm-email.lazy.tsx").then((module) => module.confirmEmailLazyRoute));
