import { useEffect, useState } from "react";
import { createRoute, useNavigate } from "@tanstack/react-router";
import { safeRedirectPath } from "@promptly/shared";
import { SignInForm } from "@/components/auth/sign-in-form";
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
  component: SignInPage,
});

function SignInPage() {
  const search = signInRoute.useSearch();
  const navigate = useNavigate();
  // Shown once, then the URL becomes the plain sign-in route (a reload does not repeat the message).
  const [emailConfirmed] = useState(search.email_confirmed === true);
  useEffect(() => {
    if (search.email_confirmed) {
      void navigate({ to: "/auth/signin", search: { redirect: search.redirect }, replace: true });
    }
  }, [search.email_confirmed, search.redirect, navigate]);
  return <SignInForm redirect={search.redirect} emailConfirmed={emailConfirmed} signedUp={search.signup === "success"} />;
}
