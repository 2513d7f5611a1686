// Password: Current Password, New Password with strength bar and feedback, Confirm New
// Password, 'Update Password'. The server checks the current password and ends other sessions.
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import { SETTINGS_MSG, changePasswordInput } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { trpc } from "@/lib/trpc";
import { errorMessage } from "./errors.ts";
import { PasswordStrengthMeter } from "./password-strength-meter.tsx";

interface PasswordFields {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const EMPTY: PasswordFields = { currentPassword: "", newPassword: "", confirmPassword: "" };

export function PasswordForm() {
  const utils = trpc.useUtils();
  const change = trpc.security.changePassword.useMutation();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<PasswordFields>({
    resolver: zodResolver(changePasswordInput),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: EMPTY,
  });
  const busy = isSubmitting || change.isPending;

  const onSubmit = handleSubmit(async (values) => {
    try {
      await change.mutateAsync(values);
      reset(EMPTY);
      await utils.security.overview.invalidate();
      toast.success(SETTINGS_MSG.passwordUpdated, { description: SETTINGS_MSG.passwordUpdatedDescription });
    } catch (error) {
      const message = errorMessage(error, SETTINGS_MSG.passwordUpdateErrorFallback);
      // Once: under the current password when that was wrong, otherwise in a toast.
      if (message === SETTINGS_MSG.currentPasswordIncorrect) setError("currentPassword", { message });
      else toast.error(SETTINGS_MSG.passwordUpdateError, { description: message });
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>Changing your password signs you out on your other devices.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} className="grid gap-6" noValidate>
          <FormField label="Current Password" error={errors.currentPassword?.message}>
            <Input type="password" autoComplete="current-password" {...register("currentPassword")} />
          </FormField>
          <div className="grid gap-2">
            <FormField label="New Password" error={errors.newPassword?.message}>
              <Input type="password" autoComplete="new-password" {...register("newPassword")} />
            </FormField>
            <PasswordStrengthMeter password={watch("newPassword")} />
          </div>
          <FormField label="Confirm New Password" error={errors.confirmPassword?.message}>
            <Input type="password" autoComplete="new-password" {...register("confirmPassword")} />
          </FormField>
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? "Updating..." : "Update Password"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
