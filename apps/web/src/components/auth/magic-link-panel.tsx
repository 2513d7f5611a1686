// /auth/magic-link?token=…: opening the emailed link only shows this page (mail scanners open links);
// the 'Sign in' button consumes the single-use token and signs in.
import { useState } from "react";
import { MSG } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { trpc } from "@/lib/trpc";
import { AuthCard, AuthFailure, AuthFooterLink } from "./auth-card.tsx";
import { describeFailure } from "./auth-errors.ts";
import { useFinishSignIn } from "./use-finish-sign-in.ts";

export function MagicLinkPanel({ token }: { token: string | null }) {
  const [failure, setFailure] = useState<string | null>(token ? null : MSG.invalidOrExpiredLink);
  const [busy, setBusy] = useState(false);
  const signIn = trpc.auth.signInWithMagicLink.useMutation();
  const finishSignIn = useFinishSignIn();

  async function signInWithLink() {
    if (!token) return;
    setFailure(null);
    setBusy(true);
    try {
      await finishSignIn(await signIn.mutateAsync({ token }));
    } catch (error) {
      setFailure(describeFailure(error).message);
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title="Sign in with your magic link"
      description="Press the button to sign in to Promptly."
      footer={<AuthFooterLink to="/auth/signin">Request a new link</AuthFooterLink>}
    >
      {failure && (
        <AuthFailure title="Magic link failed">{failure}</AuthFailure>
    )}
    <Button className="w-full" onClick={() => void signInWithLink()} disabled={!token || busy}>
      {busy ? "Processing..." : "Sign in"}
    </Button>
  </AuthCard>
);
}
