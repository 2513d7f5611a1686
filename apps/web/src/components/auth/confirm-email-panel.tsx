// /auth/confirm-email?token=…: opening the emailed link only shows this page (mail scanners open
// links); the 'Confirm email' button consumes the token, then the sign-in screen says so. In another
// browser than the one that signed up, the account's password is asked for too: the link proves the
// inbox, not who chose the password (account pre-hijacking); 'Forgot password' is the way for an
// inbox owner who did not sign up.
import { useState, type FormEvent } from "react";
import { useNavigate } from "@tanstack/react-router";
import { MSG } from "@promptly/shared";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { trpc } from "@/lib/trpc";
import { AuthCard, AuthFailure, AuthFooterLink } from "./auth-card.tsx";
import { describeFailure } from "./auth-errors.ts";

export function ConfirmEmailPanel({ token }: { token: string | null }) {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(token ? null : MSG.invalidOrExpiredLink);
  const [passwordNeeded, setPasswordNeeded] = useState(false);
  const [password, setPassword] = useState("");
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const verifyEmail = trpc.auth.verifyEmail.useMutation();

  async function confirm(event?: FormEvent) {
    event?.preventDefault();
    if (!token) return;
    setFailure(null);
    setPasswordError(null);
    if (passwordNeeded && !password) {
      setPasswordError(MSG.required);
      return;
    }
    try {
      const { redirectTo } = await verifyEmail.mutateAsync(passwordNeeded ? { token, password } : { token });
      await navigate({ to: "/auth/signin", search: { email_confirmed: true, redirect: redirectTo ?? undefined }, replace: true });
    } catch (error) {
      const described = describeFailure(error);
      if (described.reason === "PASSWORD_REQUIRED") setPasswordNeeded(true);
      else if (described.reason === "INCORRECT_PASSWORD") setPasswordError(described.message);
      else setFailure(described.message);
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
      <form onSubmit={(event) => void confirm(event)} noValidate className="grid gap-4">
        {passwordNeeded && (
          <>
            <Alert>
              <AlertDescription>{MSG.confirmWithPassword}</AlertDescription>
            </Alert>
            <FormField
              label="Password"
              error={passwordError ?? undefined}
              labelAside={<AuthFooterLink to="/auth/forgot-password">Forgot password?</AuthFooterLink>}
            >
              <Input type="password" autoComplete="current-password" autoFocus value={password} onChange={(e) => setPassword(e.target.value)} />
            </FormField>
          </>
        )}
        <Button type="submit" className="w-full" disabled={!token || verifyEmail.isPending}>
          {verifyEmail.isPending ? "Verifying..." : "Confirm email"}
        </Button>
      </form>
    </AuthCard>
  );
}
