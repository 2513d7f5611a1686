// The second sign-in step: a session that passed the password or magic link waits here for
// a code from the authenticator app, or a one-time recovery code. It can call nothing else meanwhile.
import { createRoute } from "@tanstack/react-router";
import { safeRedirectPath } from "@promptly/shared";
import { authLayoutRoute } from "../layouts.tsx";

export const twoFactorRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "two-factor",
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => ({
    redirect: safeRedirectPath(search.redirect) ?? undefined,
  }),
}).lazy(() => import("./two-factor.lazy.tsx").then((module) => module.twoFactorLazyRoute));
