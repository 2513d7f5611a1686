import { createRoute } from "@tanstack/react-router";
import { safeRedirectPath } from "@promptly/shared";
import { authLayoutRoute } from "../layouts.tsx";

export interface SignInSearch {
  /** Where to return after signing in; only a same-origin path is kept. */
  redirect?: string;
  email_confirmed?: boolean;
  signup?: string;
}

export const signInRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "signin",
  validateSearch: (search: Record<string, unknown>): SignInSearch => ({
    redirect: safeRedirectPath(search.redirect) ?? undefined,
    email_confirmed: search.email_confirmed === true || search.email_confirmed === "true" ? true : undefined,
    signup: typeof search.signup === "string" ? search.signup : undefined,
  }),
}).lazy(() => import("./signin.lazy.tsx").then((module) => module.signInLazyRoute));
