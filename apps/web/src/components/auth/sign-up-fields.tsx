// The sign-up form's fields and button, for both ways in: the open sign-up and the sign-up from an
// invitation (whose address is the invited one and cannot be changed).
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import type { z } from "zod";
import type { signUpForm } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";

export type SignUpValues = z.input<typeof signUpForm>;

export function SignUpFields({
  register,
  errors,
  submitting,
  submitLabel,
  invited = false,
}: {
  register: UseFormRegister<SignUpValues>;
  errors: FieldErrors<SignUpValues>;
  submitting: boolean;
  submitLabel: string;
  /** The address is the invitation's: shown, not edited. */
  invited?: boolean;
}) {
  return (
    <>
      <FormField label="Full Name" description="Optional. Colleagues find and mention you by it." error={errors.fullName?.message}>
        <Input autoComplete="name" {...register("fullName")} />
      </FormField>
      <FormField label="Email" description={invited ? "The invited address." : undefined} error={errors.email?.message}>
        {invited ? (
          <Input type="email" autoComplete="email" readOnly {...register("email")} />
        ) : (
          <Input type="email" autoComplete="email" placeholder="you@example.com" {...register("email")} />
        )}
      </FormField>
      <FormField label="Password" error={errors.password?.message}>
        <Input type="password" autoComplete="new-password" {...register("password")} />
      </FormField>
      <FormField label="Confirm Password" error={errors.confirmPassword?.message}>
        <Input type="password" autoComplete="new-password" {...register("confirmPassword")} />
      </FormField>
      <Button type="submit" className="w-full" disabled={submitting}>
        {submitting ? "Processing..." : submitLabel}
      </Button>
    </>
  );
}
