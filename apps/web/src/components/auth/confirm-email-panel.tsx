// /auth/confirm-email?token=…: opening the emailed link only shows this page (mail scanners open
// links); the 'Confirm email' button consumes the token, then the sign-in screen says so.
import { useState } from "react";
import { useNavigate } from "@tanstack/react-router";
import { MSG } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { trpc } from "@/lib/trpc";
import { AuthCard, AuthFailure, AuthFooterLink } from "./auth-card.tsx";
import { describeFailure } from "./auth-errors.ts";

export function ConfirmEmailPanel({ token }: { token: string | null }) {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(token ? null : MSG.invalidOrExpiredLink);
  const verifyEmail = trpc.auth.verifyEmail.useMutation();

  async function confirm() {
    if (!token) return;
    setFailure(null);
    try {
      const { redirectTo } = await verifyEmail.mutateAsync({ token });
      await navigate({ to: "/auth/signin", search: { email_confirmed: true, redirect: redirectTo ?? undefined }, replace: true });
    } catch (error) {
      setFailure(describeFailure(error).message);
    }
  }

  return (
    <AuthCard
      title="Confirm your email"
      description="Press the button to confirm your email address and finish creating your account."
      footer={<AuthFooterLink to="/auth/signin">Back to sign in</AuthFooterLink>}
    >
      {failure && (
        <AuthFailure title="Could not confirm your email">
          <p>{failure}</p>
          <p>Sign in to request a new confirmation email.</p>
        </AuthFailure>
      )}
      <Button className="w-full" onClick={() => void confirm()} disabled={!token || verifyEmail.isPending}>
        {verifyEmail.isPending ? "Verifying..." : "Confirm email"}
      </Button>
    </AuthCard>
  );
}
