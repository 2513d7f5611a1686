// The reset-password screen: 'New Password', 'Confirm Password', 'Reset Password'
// ('Updating...'); on success the toast 'Success' / 'Your password has been updated.' and /auth/signin.
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useNavigate } from "@tanstack/react-router";
import type { z } from "zod";
import { toast } from "sonner";
import { MSG, resetPasswordForm } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { api, queryClient, trpc } from "@/lib/trpc";
import { clearWorkspaceSelection } from "@/lib/workspace";
import { AuthCard, AuthFailure, AuthFooterLink } from "./auth-card.tsx";
import { describeFailure } from "./auth-errors.ts";

export function ResetPasswordForm({ token }: { token: string | null }) {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(token ? null : MSG.invalidOrExpiredLink);
  const resetPassword = trpc.auth.resetPassword.useMutation();
  const form = useForm<z.input<typeof resetPasswordForm>, unknown, z.output<typeof resetPasswordForm>>({
    resolver: zodResolver(resetPasswordForm),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { password: "", confirmPassword: "" },
  });
  const { register, handleSubmit, formState } = form;

  const onSubmit = handleSubmit(async ({ password }) => {
    if (!token) return;
    setFailure(null);
    try {
      await resetPassword.mutateAsync({ token, password });
    } catch (error) {
      // Told once, on the card (no toast repeating it).
      setFailure(describeFailure(error).message);
      return;
    }
    // Every session of the account has ended, this browser's included.
    api.auth.me.setData(undefined, null);
    clearWorkspaceSelection();
    toast.success("Success", { description: "Your password has been updated." });
    await navigate({ to: "/auth/signin", replace: true });
    // Drop what the ended session had loaded, once the screens that used it are gone.
    queryClient.clear();
  });

  return (
    <AuthCard
      title="Reset your password"
      description="Choose a new password for your account."
      footer={<AuthFooterLink to="/auth/forgot-password">Request a new link</AuthFooterLink>}
    >
      {failure && (
        <AuthFailure title="Error">{failure}</AuthFailure>
    )}
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <FormField label="New Password" error={formState.errors.password?.message}>
        <Input type="password" autoComplete="new-password" disabled={!token} {...register("password")} />
      </FormField>
      <FormField label="Confirm Password" error={formState.errors.confirmPassword?.message}>
        <Input type="password" autoComplete="new-password" disabled={!token} {...register("confirmPassword")} />
      </FormField>
      <Button type="submit" className="w-full" disabled={!token || formState.isSubmitting}>
        {formState.isSubmitting ? "Updating..." : "Reset Password"}
      </Button>
    </form>
  </AuthCard>
);
}
