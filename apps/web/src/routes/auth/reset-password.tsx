import { createRoute } from "@tanstack/react-router";
import { authLayoutRoute } from "../layouts.tsx";
import { tokenSearch } from "@/components/auth/token-search";

/** Target of the emailed reset link: /auth/reset-password?token=… */
export const resetPasswordRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "reset-password",
  validateSearch: tokenSearch,
}).lazy(() => import("./reset-password.lazy.tsx").then((module) => module.resetPasswordLazyRoute));
