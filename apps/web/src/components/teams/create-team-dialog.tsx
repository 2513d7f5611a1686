// The Create New Team dialog: 'Team Name', who is signed in and their role, the organization
// the team is created in, Cancel and 'Create Team' ('Creating...'). Create Team is disabled while the
// name is empty, when not signed in, without the right to create teams or without an active
// organization. A failure is told once, in the dialog: under the name when it is about the
// name, otherwise in the inline destructive alert 'Error creating team' (never also in a toast).
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { AlertCircle } from "lucide-react";
import { toast } from "sonner";
import { displayName, MSG, TEAM_MSG, teamNameForm, type TeamNameForm, can, grantedByOrganization } from "@promptly/shared";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { useMe } from "@/hooks/use-me";
import { APP_ROLE_LABELS } from "@/lib/roles";
import { trpc } from "@/lib/trpc";
import { useWorkspace, accessIn } from "@/lib/workspace";
import { type Team } from "./team-types.ts";
import { serverFieldErrors } from "@/lib/form-errors";

export interface CreateTeamDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  onCreated?(team: Team): void;
}

export function CreateTeamDialog({ open, onOpenChange, onCreated }: CreateTeamDialogProps) {
  const { data: me } = useMe();
  const { activeOrganization, setActiveTeamId } = useWorkspace();
  const access = accessIn(me, activeOrganization);
  const utils = trpc.useUtils();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TeamNameForm>({
    resolver: zodResolver(teamNameForm),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { name: "" },
  });
  const { register, handleSubmit, formState, reset, watch, setError } = form;

  useEffect(() => {
    if (!open) {
      reset();
      setFailure(null);
    }
  }, [open, reset]);

  const create = trpc.teams.create.useMutation({
    async onSuccess(team) {
      toast.success("Team created", { description: `${team.name} has been created.` });
      setActiveTeamId(team.id);
      await utils.teams.list.invalidate();
      onCreated?.(team);
      onOpenChange(false);
    },
    onError(error) {
      // A refusal (4xx) says why; anything else is the spec's 'An unexpected error occurred'.
      const status = error.data?.httpStatus ?? 500;
      const message = status < 500 ? error.message || TEAM_MSG.failedToCreateTeam : TEAM_MSG.unexpectedError;
      const fields = serverFieldErrors(error);
      if (fields.name) setError("name", { message: fields.name });
      else setFailure(message);
    },
  });

  const signedIn = !!me;
  const allowed = can(access, "team.create");
  const busy = create.isPending;
  const nameEmpty = !watch("name")?.trim();
  const disabled = nameEmpty || !signedIn || !allowed || !activeOrganization || busy;
  const roleLabel = me ? APP_ROLE_LABELS[me.role] : null;

  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create New Team</DialogTitle>
          <DialogDescription>Teams share prompts within an organization.</DialogDescription>
        </DialogHeader>
        <div className="grid gap-1 rounded-md border border-border bg-muted/40 p-3 text-sm" data-testid="create-team-context">
          {me ? (
            <p>
              Signed in as <span className="font-medium">{displayName(me.profile.fullName, me.user.email)}</span>{" "}
              <Badge variant="secondary">{roleLabel}</Badge>
              {grantedByOrganization(access, "team.create") && (
                <Badge variant="outline" className="ml-1">Organization Admin</Badge>
              )}
            </p>
          ) : (
            <p>{MSG.mustBeLoggedInToCreateTeam}</p>
          )}
          <p className="text-muted-foreground">
            Creating team in organization <span className="font-medium text-foreground">{activeOrganization?.name ?? "—"}</span>
          </p>
        </div>
        {signedIn && !allowed && (
          <Alert variant="destructive">
            <AlertCircle aria-hidden="true" />
            <AlertDescription>{MSG.mustBeAdminToCreateTeams}</AlertDescription>
          </Alert>
        )}
        {failure && (
          <Alert variant="destructive" data-testid="create-team-error">
            <AlertCircle aria-hidden="true" />
            <AlertTitle>{TEAM_MSG.errorCreatingTeam}</AlertTitle>
            <AlertDescription>{failure}</AlertDescription>
          </Alert>
        )}
        <form
          noValidate
          className="grid gap-4"
          aria-label="Create New Team"
          onSubmit={handleSubmit((values) => {
            if (!activeOrganization) return;
            setFailure(null);
            create.mutate({ name: values.name, organizationId: activeOrganization.id });
          })}
        >
          <FormField label="Team Name" error={formState.errors.name?.message}>
            <Input autoComplete="off" placeholder="Enter team name" disabled={busy} {...register("name")} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={disabled}>
              {busy ? "Creating..." : "Create Team"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
