import { createRoute } from "@tanstack/react-router";
import { safeRedirectPath } from "@promptly/shared";
import { authLayoutRoute } from "../layouts.tsx";

export const signUpRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "signup",
  validateSearch: (search: Record<string, unknown>): { email_confirmed?: boolean; redirect?: string; invite?: string; token?: string } => ({
    email_confirmed: search.email_confirmed === true || search.email_confirmed === "true" ? true : undefined,
    // Where to return once the account is confirmed and signed in (e.g. an invitation).
    redirect: safeRedirectPath(search.redirect) ?? undefined,
    // Signing up from an invitation: its id fills in the address and accepts it in the same step.
    invite: typeof search.invite === "string" ? search.invite : undefined,
    token: typeof search.token === "string" ? search.token : undefined,
  }),
}).lazy(() => import("./signup.lazy.tsx").then((module) => module.signUpLazyRoute));
