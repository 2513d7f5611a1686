import { createRoute } from "@tanstack/react-router";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { authLayoutRoute } from "../layouts.tsx";

export const signUpRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "signup",
  validateSearch: (search: Record<string, unknown>): { email_confirmed?: boolean } => ({
    email_confirmed: search.email_confirmed === true || search.email_confirmed === "true" ? true : undefined,
  }),
  component: function SignUpPage() {
    const { email_confirmed } = signUpRoute.useSearch();
    return <SignUpForm emailConfirmed={email_confirmed === true} />;
  },
});
