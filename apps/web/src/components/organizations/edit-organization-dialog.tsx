// Rename an organization or change its slug (super users). Same schema and messages as the server.
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import type { z } from "zod";
import { organizationNameSchema, updateOrganizationInput } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { trpc } from "@/lib/trpc";
import { type OrganizationListItem } from "./organization-types.ts";
import { serverFieldErrors } from "@/lib/form-errors";

// The dialog always sends both fields: the name is required here, an empty slug clears it.
const editOrganizationForm = updateOrganizationInput.omit({ id: true }).extend({ name: organizationNameSchema });
type FormValues = z.input<typeof editOrganizationForm>;

export interface EditOrganizationDialogProps {
  organization: OrganizationListItem | null;
  onOpenChange(open: boolean): void;
}

export function EditOrganizationDialog({ organization, onOpenChange }: EditOrganizationDialogProps) {
  const utils = trpc.useUtils();
  const { register, handleSubmit, formState, reset, setError } = useForm<FormValues, unknown, z.output<typeof editOrganizationForm>>({
    resolver: zodResolver(editOrganizationForm),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { name: "", slug: "" },
  });

  useEffect(() => {
    if (organization) reset({ name: organization.name, slug: organization.slug ?? "" });
  }, [organization, reset]);

  const update = trpc.organizations.update.useMutation({
    async onSuccess(updated) {
      toast.success("Organization updated", { description: `"${updated.name}" has been saved.` });
      await Promise.all([utils.organizations.list.invalidate(), utils.organizations.get.invalidate({ organizationId: updated.id })]);
      onOpenChange(false);
    },
    onError(error) {
      // Once: under the field it is about (a taken slug, an invalid name), otherwise in a toast.
      const fields = serverFieldErrors(error);
      if (error.data?.code === "CONFLICT") fields.slug ??= error.message;
      const onFields = (["name", "slug"] as const).filter((field) => fields[field]);
      for (const field of onFields) setError(field, { message: fields[field] });
      if (onFields.length === 0) toast.error("Error updating organization", { description: error.message });
    },
  });

  const busy = update.isPending;
  return (
    <Dialog open={!!organization} onOpenChange={(open) => !busy && onOpenChange(open)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit Organization</DialogTitle>
          <DialogDescription>Change the name or the slug of {organization?.name}.</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          aria-label="Edit Organization"
          onSubmit={handleSubmit((values) => organization && update.mutate({ id: organization.id, name: values.name, slug: values.slug ?? null }))}
        >
          <FormField label="Organization Name" error={formState.errors.name?.message}>
            <Input autoComplete="off" disabled={busy} {...register("name")} />
          </FormField>
          <FormField label="Organization Slug" error={formState.errors.slug?.message} description="Optional: lowercase letters, numbers, and hyphens.">
            <Input autoComplete="off" placeholder="my-organization" disabled={busy} {...register("slug")} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? "Saving..." : "Save Changes"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
