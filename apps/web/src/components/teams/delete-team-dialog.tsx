// Deleting a team with its members and invitations, team admins only; 'Error deleting team' on failure.
import { toast } from "sonner";
import { TEAM_MSG } from "@promptly/shared";
import {
  AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { trpc } from "@/lib/trpc";
import type { Team } from "./team-types.ts";

export function DeleteTeamDialog({ team, open, onOpenChange }: { team: Team; open: boolean; onOpenChange(open: boolean): void }) {
  const utils = trpc.useUtils();
  const remove = trpc.teams.delete.useMutation({
    async onSuccess() {
      toast.success("Team deleted", { description: `${team.name} has been deleted.` });
      onOpenChange(false);
      await utils.teams.list.invalidate();
    },
    onError(error) {
      toast.error(TEAM_MSG.errorDeletingTeam, { description: error.message });
    },
  });
  const busy = remove.isPending;
  return (
    <AlertDialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {team.name}?</AlertDialogTitle>
          <AlertDialogDescription>
            The team, its memberships and its pending invitations are deleted. Members keep their accounts and stay in the organization.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          <Button variant="destructive" disabled={busy} onClick={() => remove.mutate({ id: team.id })}>
            {busy ? "Deleting..." : "Delete Team"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
