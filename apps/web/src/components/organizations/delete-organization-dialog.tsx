// Confirmation before deleting an organization; it names the organization and what goes with it.
import { toast } from "sonner";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
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
  const busy = remove.isPending;

  return (
    <AlertDialog open={!!organization} onOpenChange={(open) => !busy && onOpenChange(open)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {organization?.name}?</AlertDialogTitle>
          <AlertDialogDescription>
            This permanently deletes the organization "{organization?.name}" with all its members and teams. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          {/* A plain button, so the dialog stays open until the deletion has finished. */}
          <Button variant="destructive" disabled={busy} onClick={() => organization && remove.mutate({ id: organization.id })}>
            {busy ? "Deleting..." : "Delete Organization"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
