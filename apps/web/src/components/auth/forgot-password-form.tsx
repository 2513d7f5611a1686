// The forgot-password screen: email, 'Send Reset Link' ('Sending...') and a 'Sign In' link.
// The answer is the same whether or not the address has an account. It is told once, on the card:
// 'Password reset email sent' / 'Check your email for a link to reset your password.', or 'Error'.
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { MailCheck } from "lucide-react";
import { emailOnlyInput } from "@promptly/shared";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { trpc } from "@/lib/trpc";
import { AuthCard, AuthFailure, AuthFooterLink } from "./auth-card.tsx";
import { describeFailure } from "./auth-errors.ts";

export function ForgotPasswordForm() {
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const requestReset = trpc.auth.requestPasswordReset.useMutation();
  const form = useForm<z.input<typeof emailOnlyInput>, unknown, z.output<typeof emailOnlyInput>>({
    resolver: zodResolver(emailOnlyInput),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { email: "" },
  });
  const { register, handleSubmit, formState } = form;

  const onSubmit = handleSubmit(async ({ email }) => {
    setFailure(null);
    setSent(false);
    try {
      await requestReset.mutateAsync({ email });
      setSent(true);
    } catch (error) {
      setFailure(describeFailure(error).message);
    }
  });

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter your email and we'll send you a link to reset your password."
      footer={<AuthFooterLink to="/auth/signin" question="Remember your password?">Sign In</AuthFooterLink>}
    >
      {sent && (
        <Alert variant="success">
          <MailCheck aria-hidden="true" />
          <AlertTitle>Password reset email sent</AlertTitle>
          <AlertDescription>Check your email for a link to reset your password.</AlertDescription>
        </Alert>
      )}
      {failure && <AuthFailure title="Error">{failure}</AuthFailure>}
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <FormField label="Email" error={formState.errors.email?.message}>
          <Input type="email" autoComplete="email" placeholder="you@example.com" {...register("email")} />
        </FormField>
        <Button type="submit" className="w-full" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? "Sending..." : "Send Reset Link"}
        </Button>
      </form>
    </AuthCard>
  );
}
