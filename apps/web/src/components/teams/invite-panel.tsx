// The invite panel of the Teams page: 'Invite a new team member', email and role, Add
// ('Adding...', disabled while the email is empty or busy) and Cancel. An existing account is added
// at once; any other address gets an emailed invitation. Team admins only (the server checks it too).
import { useForm, Controller } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import type { z } from "zod";
import { inviteForm, TEAM_MSG, TEAM_ROLE_OPTIONS } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { trpc } from "@/lib/trpc";

import { useInviteResult } from "./use-invite-result.ts";
import { serverFieldErrors } from "@/lib/form-errors";

type FormValues = z.input<typeof inviteForm>;
type Submitted = z.output<typeof inviteForm>;

export function InvitePanel({ teamId, teamName, onClose }: { teamId: string; teamName: string; onClose(): void }) {
  const form = useForm<FormValues, unknown, Submitted>({
    resolver: zodResolver(inviteForm),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { email: "", role: "viewer" },
  });
  const { register, handleSubmit, formState, reset, watch, setError, control } = form;

  const announce = useInviteResult(teamId, teamName);
  const invite = trpc.invites.create.useMutation({
    async onSuccess(result) {
      await announce(result);
      reset({ email: "", role: watch("role") });
    },
    onError(error) {
      // Once: under the email when it is about the address (invalid, or already a member: the
      // 'Failed to add team member: ' with the reason), otherwise in a toast.
      const fields = serverFieldErrors(error);
      if (error.data?.code === "CONFLICT") setError("email", { message: `${TEAM_MSG.failedToAddTeamMember}${error.message}` });
      else if (fields.email) setError("email", { message: fields.email });
      else toast.error(TEAM_MSG.failedToCreateInvite, { description: error.message });
    },
  });

  const busy = invite.isPending;
  const emailEmpty = !watch("email")?.trim();

  return (
    <Card data-testid="invite-panel">
      <CardHeader>
        <CardTitle>Invite a new team member</CardTitle>
        <CardDescription>{TEAM_MSG.inviteHelp}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          aria-label="Invite a new team member"
          className="grid gap-4 sm:grid-cols-[1fr_10rem_auto] sm:items-start"
          onSubmit={handleSubmit((values) => invite.mutate({ teamId, ...values }))}
        >
          <FormField label="Email" error={formState.errors.email?.message}>
            <Input type="email" autoComplete="off" placeholder="colleague@example.com" disabled={busy} {...register("email")} />
          </FormField>
          <Controller
            control={control}
            name="role"
            render={({ field }) => (
              <Select value={field.value} onValueChange={field.onChange} disabled={busy}>
                <FormField label="Role" error={formState.errors.role?.message}>
                  <SelectTrigger className="w-full">
                    <SelectValue />
                  </SelectTrigger>
                </FormField>
                <SelectContent>
                  {TEAM_ROLE_OPTIONS.map((option) => (
                    <SelectItem key={option.value} value={option.value}>
                      {option.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
          <div className="flex gap-2 sm:pt-[1.375rem]">
            <Button type="submit" disabled={emailEmpty || busy} disabledReason={busy ? undefined : "Enter the email address to invite first"}>
              {busy ? "Adding..." : "Add"}
            </Button>
            <Button
              type="button"
              variant="outline"
              disabled={busy}
              onClick={() => {
                reset();
                onClose();
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
