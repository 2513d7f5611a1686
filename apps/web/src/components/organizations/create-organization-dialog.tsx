// The Create Organization dialog: name and optional slug, validated by the schema the server
// uses; super users only (others see why they cannot), the toasts on the outcome. The slug follows
// the name (slugFromName) until it is edited by hand.
import { accessIn } from "@/lib/workspace";
import { useEffect, useRef } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { ShieldAlert } from "lucide-react";
import { toast } from "sonner";
import type { z } from "zod";
import { createOrganizationInput, MSG, ORGANIZATION_MSG, can, slugFromName } from "@promptly/shared";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { useMe } from "@/hooks/use-me";
import { trpc } from "@/lib/trpc";
import { type CreatedOrganization } from "./organization-types.ts";
import { serverFieldErrors } from "@/lib/form-errors";

type FormValues = z.input<typeof createOrganizationInput>;
type CreateOrganizationInput = z.output<typeof createOrganizationInput>;

export interface CreateOrganizationDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Called with the new organization, e.g. to make it the active one. */
  onCreated?(organization: CreatedOrganization): void;
}

export function CreateOrganizationDialog({ open, onOpenChange, onCreated }: CreateOrganizationDialogProps) {
  const { data: me } = useMe();
  const mayCreate = can(accessIn(me, null), "organization.create");
  const utils = trpc.useUtils();
  const form = useForm<FormValues, unknown, CreateOrganizationInput>({
    resolver: zodResolver(createOrganizationInput),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { name: "", slug: "" },
  });
  const { register, handleSubmit, formState, reset, setError, setValue, getValues } = form;
  // The slug is derived from the name while it is empty or still what the name suggested.
  const suggestedSlug = useRef("");

  useEffect(() => {
    if (!open) {
      reset();
      suggestedSlug.current = "";
    }
  }, [open, reset]);
  const nameField = register("name", {
    onChange(event: { target: { value: string } }) {
      const slug = getValues("slug") ?? "";
      if (slug !== "" && slug !== suggestedSlug.current) return; // edited by hand: left alone
      suggestedSlug.current = slugFromName(event.target.value);
      setValue("slug", suggestedSlug.current, { shouldValidate: formState.isSubmitted });
    },
  });

  const create = trpc.organizations.create.useMutation({
    async onSuccess(organization) {
      toast.success(ORGANIZATION_MSG.createdTitle, { description: ORGANIZATION_MSG.createdDescription(organization.name) });
      await utils.organizations.list.invalidate();
      onCreated?.(organization);
      onOpenChange(false);
    },
    async onError(error) {
      if (error.data?.code === "FORBIDDEN") {
        // Told by the toast alone: the dialog closes rather than repeat it in its own alert.
        toast.error(ORGANIZATION_MSG.permissionDeniedTitle, { description: MSG.onlySuperUsersCreateOrganizations });
        onOpenChange(false);
        // No longer a super user: reload who we are; the guards then leave the super users' screens.
        await utils.auth.me.invalidate();
        return;
      }
      // Once: under the field it is about (a taken slug, an invalid name), otherwise in a toast.
      const fields = serverFieldErrors(error);
      if (error.data?.code === "CONFLICT") fields.slug ??= error.message;
      const onFields = (["name", "slug"] as const).filter((field) => fields[field]);
      for (const field of onFields) setError(field, { message: fields[field] });
      if (onFields.length === 0) toast.error(ORGANIZATION_MSG.createErrorTitle, { description: error.message || ORGANIZATION_MSG.createErrorFallback });
    },
  });

  const busy = create.isPending;
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create Organization</DialogTitle>
          <DialogDescription>Organizations group teams and their members.</DialogDescription>
        </DialogHeader>
        {!mayCreate && (
          <Alert variant="destructive">
            <ShieldAlert aria-hidden="true" />
            <AlertDescription>{MSG.onlySuperUsersCreateOrganizations}</AlertDescription>
          </Alert>
        )}
        <form
          noValidate
          className="grid gap-4"
          aria-label="Create Organization"
          onSubmit={handleSubmit((values) => create.mutate(values))}
        >
          <FormField label="Organization Name" error={formState.errors.name?.message}>
            <Input autoComplete="off" placeholder="Acme Inc." disabled={!mayCreate || busy} {...nameField} />
          </FormField>
          <FormField
            label="Organization Slug"
            error={formState.errors.slug?.message}
            description="Optional: lowercase letters, numbers, and hyphens. Suggested from the name."
          >
            <Input autoComplete="off" placeholder="my-organization" disabled={!mayCreate || busy} {...register("slug")} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={!mayCreate || busy}>
              {busy ? "Creating..." : "Create Organization"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
