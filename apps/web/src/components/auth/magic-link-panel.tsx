// /auth/magic-link?token=…: opening the emailed link only shows this page (mail scanners open links);
// the 'Sign in' button consumes the single-use token and signs in.
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { AlertCircle } from "lucide-react";
import { MSG } from "@promptly/shared";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { trpc } from "@/lib/trpc";
import { AuthCard } from "./auth-card.tsx";
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
      footer={
        <p>
          <Link to="/auth/signin" className="font-medium text-primary underline-offset-4 hover:underline">
            Request a new link
          </Link>
        </p>
      }
    >
      {failure && (
        <Alert variant="destructive">
          <AlertCircle aria-hidden="true" />
          <AlertTitle>Magic link failed</AlertTitle>
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      )}
      <Button className="w-full" onClick={() => void signInWithLink()} disabled={!token || busy}>
        {busy ? "Processing..." : "Sign in"}
      </Button>
    </AuthCard>
  );
}
