// Renaming a team (update teams with name by id), team admins only; 'Error updating team' on failure.
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import { TEAM_MSG, teamNameForm, type TeamNameForm } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { trpc } from "@/lib/trpc";
import { type Team } from "./team-types.ts";
import { serverFieldErrors } from "@/lib/form-errors";

export function RenameTeamDialog({ team, open, onOpenChange }: { team: Team; open: boolean; onOpenChange(open: boolean): void }) {
  const utils = trpc.useUtils();
  const form = useForm<TeamNameForm>({
    resolver: zodResolver(teamNameForm),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { name: team.name },
  });
  const { register, handleSubmit, formState, reset, setError, watch } = form;

  useEffect(() => {
    if (open) reset({ name: team.name });
  }, [open, reset, team.name]);

  const rename = trpc.teams.rename.useMutation({
    async onSuccess(updated) {
      toast.success("Team updated", { description: `The team is now called ${updated.name}.` });
      await Promise.all([utils.teams.list.invalidate(), utils.teams.get.invalidate({ id: updated.id })]);
      onOpenChange(false);
    },
    onError(error) {
      // Once: under the name when it is about the name, otherwise in a toast.
      const fields = serverFieldErrors(error);
      if (fields.name) setError("name", { message: fields.name });
      else toast.error(TEAM_MSG.errorUpdatingTeam, { description: error.message });
    },
  });
  const busy = rename.isPending;

  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Rename Team</DialogTitle>
          <DialogDescription>Members see the new name at once.</DialogDescription>
        </DialogHeader>
        <form noValidate aria-label="Rename Team" className="grid gap-4" onSubmit={handleSubmit((values) => rename.mutate({ id: team.id, name: values.name }))}>
          <FormField label="Team Name" error={formState.errors.name?.message}>
            <Input autoComplete="off" placeholder="Enter team name" disabled={busy} {...register("name")} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={busy} onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy || !watch("name")?.trim()} disabledReason={busy ? undefined : "Type the team's new name first"}>
              {busy ? "Saving..." : "Save"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
