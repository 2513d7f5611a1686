import { createRoute } from "@tanstack/react-router";
import { safeRedirectPath } from "@promptly/shared";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { authLayoutRoute } from "../layouts.tsx";

export const signUpRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "signup",
  validateSearch: (search: Record<string, unknown>): { email_confirmed?: boolean; redirect?: string } => ({
    email_confirmed: search.email_confirmed === true || search.email_confirmed === "true" ? true : undefined,
    // Where to return once the account is confirmed and signed in (e.g. an invitation).
    redirect: safeRedirectPath(search.redirect) ?? undefined,
  }),
  component: function SignUpPage() {
    const { email_confirmed, redirect } = signUpRoute.useSearch();
    return <SignUpForm emailConfirmed={email_confirmed === true} redirect={redirect} />;
  },
});
