// The sign-in page, loaded with its form (react-hook-form and the shared schemas) only when it is opened.
import { useEffect, useState } from "react";
import { createLazyRoute, useNavigate } from "@tanstack/react-router";
import { SignInForm } from "@/components/auth/sign-in-form";

export const signInLazyRoute = createLazyRoute("/auth/signin")({ component: SignInPage });

function SignInPage() {
  const search = signInLazyRoute.useSearch();
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
