import { useState, type FormEvent } from "react";
import { Link, createLazyRoute } from "@tanstack/react-router";
import { MSG } from "@promptly/shared";
import { AuthCard } from "@/components/auth/auth-card";
import { describeFailure } from "@/components/auth/auth-errors";
import { useFinishSignIn } from "@/components/auth/use-finish-sign-in";
import { TotpCodeInput, isTotpCode } from "@/components/auth/totp-code-input";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { trpc } from "@/lib/trpc";

export const twoFactorLazyRoute = createLazyRoute("/auth/two-factor")({ component: TwoFactorPage });

function TwoFactorPage() {
  const { redirect } = twoFactorLazyRoute.useSearch();
  const finishSignIn = useFinishSignIn();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState("");
  // Told once, on the card: a code that is not 6 digits gets the spec's title with its hint.
  const [error, setError] = useState<{ title?: string; message: string } | null>(null);
  const verifyCode = trpc.auth.verifyTwoFactor.useMutation();
  const verifyRecovery = trpc.auth.verifyRecoveryCode.useMutation();
  const busy = verifyCode.isPending || verifyRecovery.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const value = code.trim();
    if (!useRecovery && !isTotpCode(value)) {
      setError({ title: MSG.invalidVerificationCode, message: MSG.enterSixDigitCode });
      return;
    }
    let result;
    try {
      result = useRecovery ? await verifyRecovery.mutateAsync({ code: value }) : await verifyCode.mutateAsync({ code: value });
    } catch (failure) {
      setError({ message: describeFailure(failure).message });
      return;
    }
    await finishSignIn(result, redirect);
  }

  function switchMode() {
    setUseRecovery((value) => !value);
    setCode("");
    setError(null);
  }

  return (
    <AuthCard
      title="Two-factor authentication"
      description={
        useRecovery
          ? "Enter one of the recovery codes you saved when you turned on two-factor authentication. Each code works once."
          : "Enter the 6-digit code from your authenticator app."
      }
      footer={<Link to="/auth/signin" className="underline underline-offset-4">Back to sign in</Link>}
    >
      <form onSubmit={submit} className="grid gap-4" noValidate>
        {error && (
          <Alert variant="destructive">
            {error.title && <AlertTitle>{error.title}</AlertTitle>}
            <AlertDescription>{error.message}</AlertDescription>
          </Alert>
        )}
        {useRecovery ? (
          <FormField label="Recovery code" key="recovery">
            <Input value={code} onChange={(event) => setCode(event.target.value)} autoComplete="off" placeholder="xxxxx-xxxxx" autoFocus className="font-mono" />
          </FormField>
        ) : (
          <FormField label="Verification code" key="totp">
            <TotpCodeInput value={code} onChange={setCode} />
          </FormField>
        )}
        <Button type="submit" disabled={busy}>
          {busy ? "Verifying..." : "Verify"}
        </Button>
        <Button type="button" variant="link" onClick={switchMode} disabled={busy}>
          {useRecovery ? "Use your authenticator app instead" : "Use a recovery code instead"}
        </Button>
      </form>
    </AuthCard>
  );
}
