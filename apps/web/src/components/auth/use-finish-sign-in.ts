// After a successful sign-in (password or magic link): refresh the auth state, greet, and go on to
// where the person was heading, or to the second factor first.
import { useRouter } from "@tanstack/react-router";
import { toast } from "sonner";
import type { RouterOutputs } from "@promptly/api";
import { safeRedirectPath } from "@promptly/shared";
import { api } from "@/lib/trpc";

export type SignInResult = RouterOutputs["auth"]["signIn"];

export function useFinishSignIn() {
  const router = useRouter();
  return async function finishSignIn(result: SignInResult, requestedRedirect?: string | null) {
    const target = safeRedirectPath(result.redirectTo) ?? safeRedirectPath(requestedRedirect) ?? "/";
    if (result.status === "two_factor_required") {
      await router.navigate({ href: `/auth/two-factor?redirect=${encodeURIComponent(target)}`, replace: true });
      return;
    }
    // The guards read auth.me from the cache: it must hold the signed-in person before we navigate.
    await api.auth.me.invalidate();
    await api.auth.me.fetch();
    toast.success("Login successful", { description: "Welcome back!" });
    await router.navigate({ href: target, replace: true });
  };
}
