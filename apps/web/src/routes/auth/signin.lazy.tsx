// The sign-in page, loaded with its form (react-hook-form and the shared schemas) only when it is opened.
import { useEffect, useState } from "react";
import { createLazyRoute, useNavigate, useRouter } from "@tanstack/react-router";
import { SignInForm } from "@/components/auth/sign-in-form";
import { dashboardRoute } from "../app/dashboard.tsx";
import { appLayoutRoute } from "../layouts.tsx";

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
  usePrefetchDashboard();
  return <SignInForm redirect={search.redirect} emailConfirmed={emailConfirmed} signedUp={search.signup === "success"} />;
}

/** While the person types, the code of the main layout and the dashboard (where signing in leads) loads, so the click does not wait for it. */
function usePrefetchDashboard() {
  const router = useRouter();
  useEffect(() => {
    const prefetch = () => {
      for (const route of [appLayoutRoute, dashboardRoute]) void router.loadRouteChunk(route)?.catch(() => undefined);
    };
    if (typeof requestIdleCallback !== "function") {
      const timer = setTimeout(prefetch, 200);
      return () => clearTimeout(timer);
    }
    const idle = requestIdleCallback(prefetch, { timeout: 2_000 });
    return () => cancelIdleCallback(idle);
  }, [router]);
}
