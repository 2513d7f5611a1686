// Add a member to an organization by email, with a role: they are invited and join by accepting.
import { useId } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { UserPlus } from "lucide-react";
import { toast } from "sonner";
import type { z } from "zod";
import { addOrganizationMemberForm, ORGANIZATION_ROLES, ORGANIZATION_ROLE_LABELS } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { trpc } from "@/lib/trpc";
import { serverFieldErrors } from "@/lib/form-errors";

type FormValues = z.input<typeof addOrganizationMemberForm>;

export function AddOrganizationMemberForm({ organizationId }: { organizationId: string }) {
  const utils = trpc.useUtils();
  const roleId = useId();
  const { register, control, handleSubmit, formState, reset, setError, watch } = useForm<FormValues, unknown, z.output<typeof addOrganizationMemberForm>>({
    resolver: zodResolver(addOrganizationMemberForm),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { email: "", role: "member" },
  });

  const add = trpc.organizationMembers.add.useMutation({
    async onSuccess(result) {
      if (result.status === "invited" && !result.emailQueued) {
        toast("Invitation already sent", { description: `An invitation was sent to ${result.invite.email} a few minutes ago.` });
      } else if (result.status === "invited") {
        toast.success(result.resent ? "Invitation sent again" : "Invitation sent", {
          description: `${result.invite.email} will join the organization once they accept the emailed invitation.`,
        });
      } else {
        toast("Already a member", { description: `${result.member.email} is already a member of this organization.` });
      }
      reset();
      await Promise.all([
        utils.organizationInvites.listPending.invalidate({ organizationId }),
        utils.organizationMembers.list.invalidate({ organizationId }),
        utils.organizations.get.invalidate({ organizationId }),
        utils.organizations.list.invalidate(),
      ]);
    },
    onError(error) {
      // Once: under the email when it is about the address, otherwise in a toast.
      const fields = serverFieldErrors(error);
      if (fields.email) setError("email", { message: fields.email });
      else toast.error("Error adding member", { description: error.message });
    },
  });
  const busy = add.isPending;
  const email = watch("email");

  return (
    <Card>
      <CardHeader>
        <CardTitle>Add a member</CardTitle>
        <CardDescription>They get an email invitation and join the organization once they accept it.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          aria-label="Add a member"
          className="flex flex-col gap-4 sm:flex-row sm:items-start"
          onSubmit={handleSubmit((values) => add.mutate({ organizationId, ...values }))}
        >
          <FormField label="Email" error={formState.errors.email?.message} className="flex-1">
            <Input type="email" autoComplete="off" placeholder="colleague@example.com" disabled={busy} {...register("email")} />
          </FormField>
          <Controller
            control={control}
            name="role"
            render={({ field }) => (
              <div className="grid gap-2 sm:w-40">
                <Label htmlFor={roleId}>Role</Label>
                <Select value={field.value} onValueChange={field.onChange} disabled={busy}>
                  <SelectTrigger id={roleId} className="w-full">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {ORGANIZATION_ROLES.map((role) => (
                      <SelectItem key={role} value={role}>
                        {ORGANIZATION_ROLE_LABELS[role]}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </div>
            )}
          />
          <Button type="submit" className="sm:mt-[1.375rem]" disabled={busy || !email.trim()} disabledReason={busy ? undefined : "Enter the email address to add first"}>
            <UserPlus aria-hidden="true" />
            {busy ? "Adding..." : "Add"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
