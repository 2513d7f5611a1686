// After a successful sign-in (password, magic link or the second factor): refresh the auth state, greet
// ('Welcome!' the first time, as the server tells, then 'Welcome back!'), and go on to where the person
// was heading, or to the second factor first.
import { useRouter } from "@tanstack/react-router";
import { toast } from "sonner";
import type { RouterOutputs } from "@promptly/api";
import { safeRedirectPath } from "@promptly/shared";
import { api } from "@/lib/trpc";
import { loadWorkspace } from "@/lib/workspace";

type SignInResult = RouterOutputs["auth"]["signIn"] | RouterOutputs["auth"]["verifyTwoFactor"];

export function useFinishSignIn() {
  const router = useRouter();
  return async function finishSignIn(result: SignInResult, requestedRedirect?: string | null) {
    const redirectTo = "redirectTo" in result ? result.redirectTo : null;
    const target = safeRedirectPath(redirectTo) ?? safeRedirectPath(requestedRedirect) ?? "/";
    if (result.status === "two_factor_required") {
      await router.navigate({ href: `/auth/two-factor?redirect=${encodeURIComponent(target)}`, replace: true });
      return;
    }
    // The guards read auth.me from the cache: it must hold the signed-in person before we navigate.
    // It is marked stale without a refetch of its own, then read once with the workspace (the
    // organizations, then their teams) in the same request; the page's loader finds them there or
    // on their way.
    await api.auth.me.invalidate(undefined, { refetchType: "none" });
    const me = api.auth.me.fetch();
    void loadWorkspace();
    await me;
    toast.success("Login successful", { description: result.firstSignIn ? "Welcome!" : "Welcome back!" });
    await router.navigate({ href: target, replace: true });
  };
}
