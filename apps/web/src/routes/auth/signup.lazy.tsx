import { createLazyRoute } from "@tanstack/react-router";
import { SignUpForm } from "@/components/auth/sign-up-form";

export const signUpLazyRoute = createLazyRoute("/auth/signup")({
  component: function SignUpPage() {
    const { email_confirmed, redirect, invite, token } = signUpLazyRoute.useSearch();
    return <SignUpForm emailConfirmed={email_confirmed === true} redirect={redirect} invite={invite && token ? { id: invite, token } : undefined} />;
  },
});
