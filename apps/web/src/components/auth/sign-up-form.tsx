// The sign-up screen: an optional full name, email, password, confirm password; then 'Registration
// successful!' with the verification note, a redirect to /auth/signin?signup=success after 3 seconds
// and a 'Go to login page' button. From an invitation (?invite=id&token=…) it is InvitedSignUpForm instead.
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useNavigate } from "@tanstack/react-router";
import type { z } from "zod";
import { CheckCircle2, MailCheck } from "lucide-react";
import { toast } from "sonner";
import { SIGN_UP_REDIRECT_DELAY_MS, signUpForm } from "@promptly/shared";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { trpc } from "@/lib/trpc";
import { SignUpFields, type SignUpValues } from "./sign-up-fields.tsx";
import { AuthCard, AuthFailure, AuthFooterLink } from "./auth-card.tsx";
import { describeFailure } from "./auth-errors.ts";
import { InvitedSignUpForm } from "./invited-sign-up-form.tsx";


export function SignUpForm({ emailConfirmed = false, redirect, invite }: { emailConfirmed?: boolean; redirect?: string; invite?: { id: string; token: string } }) {
  if (invite) return <InvitedSignUpForm inviteId={invite.id} token={invite.token} />;
  return <PlainSignUpForm emailConfirmed={emailConfirmed} redirect={redirect} />;
}

function PlainSignUpForm({ emailConfirmed, redirect }: { emailConfirmed: boolean; redirect?: string }) {
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ title: string; message: string } | null>(null);
  const signUp = trpc.auth.signUp.useMutation();
  const form = useForm<SignUpValues, unknown, z.output<typeof signUpForm>>({
    resolver: zodResolver(signUpForm),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { fullName: "", email: "", password: "", confirmPassword: "" },
  });
  const { register, handleSubmit, formState } = form;

  const onSubmit = handleSubmit(async ({ fullName, email, password }) => {
    setFailure(null);
    try {
      await signUp.mutateAsync({ fullName, email, password, redirectTo: redirect });
      setRegisteredEmail(email);
      toast.success("Account created", { description: "Please check your email for confirmation" });
    } catch (error) {
      // Told once, on the card (no toast repeating it).
      const { message, expected } = describeFailure(error);
      setFailure({ title: expected ? "Registration failed" : "Registration error", message });
    }
  });

  if (registeredEmail) return <RegistrationSuccess email={registeredEmail} redirect={redirect} />;

  return (
    <AuthCard
      title="Create an account"
      description="Enter your name and email, and choose a password."
      footer={<AuthFooterLink to="/auth/signin" question="Already have an account?">Sign in</AuthFooterLink>}
    >
      {emailConfirmed && (
        <Alert variant="success">
          <CheckCircle2 aria-hidden="true" />
          <AlertTitle>Account confirmed</AlertTitle>
          <AlertDescription>You can now sign in.</AlertDescription>
        </Alert>
      )}
      {failure && (
        <AuthFailure title={failure.title}>{failure.message}</AuthFailure>
    )}
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <SignUpFields register={register} errors={formState.errors} submitting={formState.isSubmitting} submitLabel="Sign Up" />
    </form>
  </AuthCard>
);
}

function RegistrationSuccess({ email, redirect }: { email: string; redirect?: string }) {
const navigate = useNavigate();
const goToSignIn = () => navigate({ to: "/auth/signin", search: { signup: "success", redirect } });
useEffect(() => {
  const timer = window.setTimeout(goToSignIn, SIGN_UP_REDIRECT_DELAY_MS);
  return () => window.clearTimeout(timer);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- one timer for the lifetime of the view
}, []);
return (
  <AuthCard title="Registration successful!">
    <Alert variant="success">
      <MailCheck aria-hidden="true" />
      <AlertDescription>
        <p>
          We&apos;ve sent a verification email to <strong>{email}</strong>. Please open the link in it to confirm your
          email address before signing in.
        </p>
      </AlertDescription>
    </Alert>
    <Button className="w-full" onClick={() => void goToSignIn()}>
      Go to login page
    </Button>
  </AuthCard>
);
}
