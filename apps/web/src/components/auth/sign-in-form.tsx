// The sign-in screen: email, password (hidden in magic-link mode), 'Forgot password?', the
// 'Use Magic Link' / 'Use Password' toggle, 'Sign In' / 'Send Magic Link' / 'Processing...', an inline
// alert with the service's message, and 'Resend confirmation email' for an unconfirmed address.
// Each outcome of signing in is told once, on the card ('Login failed', 'Magic link sent'), not also in a toast.
import { useRef, useState } from "react";
import { useForm, type Resolver } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link } from "@tanstack/react-router";
import { CheckCircle2, Mail } from "lucide-react";
import { toast } from "sonner";
import { emailOnlyInput, signInInput } from "@promptly/shared";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { trpc } from "@/lib/trpc";
import { AuthCard, AuthFailure, AuthFooterLink } from "./auth-card.tsx";
import { describeFailure } from "./auth-errors.ts";
import { useFinishSignIn } from "./use-finish-sign-in.ts";

const EMAIL_CONFIRMED_MESSAGE = "Email confirmed successfully!";

interface SignInValues {
  email: string;
  password: string;
}

const passwordResolver = zodResolver(signInInput) as unknown as Resolver<SignInValues>;
// Magic-link mode has no password field, so only the email is checked.
const magicLinkResolver = zodResolver(emailOnlyInput) as unknown as Resolver<SignInValues>;

export interface SignInFormProps {
  /** Where to go after signing in (a same-origin path), from ?redirect=. */
  redirect?: string;
  emailConfirmed?: boolean;
  signedUp?: boolean;
}

export function SignInForm({ redirect, emailConfirmed = false, signedUp = false }: SignInFormProps) {
  const [mode, setMode] = useState<"password" | "magic">("password");
  // The resolver reads the mode at validation time, whatever render it was created in.
  const modeRef = useRef(mode);
  modeRef.current = mode;
  const [failure, setFailure] = useState<{ title: string; message: string; unconfirmedEmail: string | null } | null>(null);
  const [magicLinkSentTo, setMagicLinkSentTo] = useState<string | null>(null);
  const finishSignIn = useFinishSignIn();
  const signIn = trpc.auth.signIn.useMutation();
  const sendMagicLink = trpc.auth.sendMagicLink.useMutation();
  const resend = trpc.auth.resendVerification.useMutation();

  const form = useForm<SignInValues>({
    resolver: (values, context, options) => (modeRef.current === "magic" ? magicLinkResolver : passwordResolver)(values, context, options),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { email: "", password: "" },
  });
  const { register, handleSubmit, formState, clearErrors } = form;
  const busy = formState.isSubmitting;

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    setMagicLinkSentTo(null);
    const email = values.email;
    if (mode === "magic") {
      try {
        await sendMagicLink.mutateAsync({ email, redirectTo: redirect });
        setMagicLinkSentTo(email);
      } catch (error) {
        setFailure({ title: "Magic link failed", message: describeFailure(error).message, unconfirmedEmail: null });
      }
      return;
    }
    try {
      const result = await signIn.mutateAsync({ email, password: values.password, redirectTo: redirect });
      await finishSignIn(result, redirect);
    } catch (error) {
      const { message, expected, reason } = describeFailure(error);
      setFailure({ title: expected ? "Login failed" : "Login error", message, unconfirmedEmail: reason === "EMAIL_NOT_VERIFIED" ? email : null });
    }
  });

  async function resendConfirmation(email: string) {
    try {
      await resend.mutateAsync({ email });
      toast.success("Confirmation email sent", { description: "Check your inbox for the confirmation link." });
    } catch (error) {
      toast.error("Error", { description: describeFailure(error).message });
    }
  }

  function toggleMode() {
    setMode((current) => (current === "password" ? "magic" : "password"));
    setFailure(null);
    setMagicLinkSentTo(null);
    clearErrors();
  }

  return (
    <AuthCard
      title="Sign in to Promptly"
      description={mode === "password" ? "Enter your email and password to sign in." : "We'll email you a link that signs you in."}
      footer={<AuthFooterLink to="/auth/signup" question="Don't have an account?">Sign up</AuthFooterLink>}
    >
      {emailConfirmed && (
        <Alert variant="success">
          <CheckCircle2 aria-hidden="true" />
          <AlertDescription>{EMAIL_CONFIRMED_MESSAGE}</AlertDescription>
        </Alert>
      )}
      {signedUp && !emailConfirmed && (
        <Alert>
          <Mail aria-hidden="true" />
          <AlertDescription>Please confirm your email address with the link we sent you, then sign in.</AlertDescription>
        </Alert>
      )}
      {failure && (
        <AuthFailure title={failure.title}>
          <p>{failure.message}</p>
          {failure.unconfirmedEmail && (
            <Button
              variant="outline"
              size="sm"
              disabled={resend.isPending}
              onClick={() => resendConfirmation(failure.unconfirmedEmail!)}
            >
              {resend.isPending ? "Sending..." : "Resend confirmation email"}
            </Button>
          )}
        </AuthFailure>
      )}
      {magicLinkSentTo && (
        <Alert variant="success">
          <Mail aria-hidden="true" />
          <AlertTitle>Magic link sent</AlertTitle>
          <AlertDescription>Check your email for the login link. It works once, for 15 minutes.</AlertDescription>
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <FormField label="Email" error={formState.errors.email?.message}>
          <Input type="email" autoComplete="email" placeholder="you@example.com" {...register("email")} />
        </FormField>
        {mode === "password" && (
          <FormField
            label="Password"
            error={formState.errors.password?.message}
            labelAside={
              <Link to="/auth/forgot-password" className="text-sm text-primary underline-offset-4 hover:underline">
                Forgot password?
              </Link>
            }
          >
            <Input type="password" autoComplete="current-password" {...register("password")} />
          </FormField>
        )}
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Processing..." : mode === "password" ? "Sign In" : "Send Magic Link"}
        </Button>
      </form>
      <Button variant="outline" className="w-full" onClick={toggleMode} disabled={busy}>
        {mode === "password" ? "Use Magic Link" : "Use Password"}
      </Button>
    </AuthCard>
  );
}
