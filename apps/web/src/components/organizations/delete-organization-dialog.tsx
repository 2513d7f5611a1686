// Confirmation before deleting an organization; it names the organization and what goes with it.
import { toast } from "sonner";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { trpc } from "@/lib/trpc";
import type { OrganizationListItem } from "./organization-types.ts";

export interface DeleteOrganizationDialogProps {
  organization: OrganizationListItem | null;
  onOpenChange(open: boolean): void;
}

export function DeleteOrganizationDialog({ organization, onOpenChange }: DeleteOrganizationDialogProps) {
  const utils = trpc.useUtils();
  const remove = trpc.organizations.delete.useMutation({
    async onSuccess() {
      toast.success("Organization deleted", { description: `"${organization?.name}" has been deleted.` });
      // Teams of the organization are gone too.
      await Promise.all([utils.organizations.invalidate(), utils.teams.invalidate()]);
      onOpenChange(false);
    },
    onError(error) {
      toast.error("Error deleting organization", { description: error.message });
    },
  });

  return (
    <ConfirmDeleteDialog
      open={!!organization}
      onOpenChange={onOpenChange}
      title={`Delete ${organization?.name}?`}
      description={`This permanently deletes the organization "${organization?.name}" with all its members and teams. This cannot be undone.`}
      confirmLabel="Delete Organization"
      busy={remove.isPending}
      onConfirm={() => organization && remove.mutate({ id: organization.id })}
    />
  );
}
