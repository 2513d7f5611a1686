// Pending invitations of a team, newest first, each with Resend and Cancel (team admins only).
import { MailX, RotateCw } from "lucide-react";
import { toast } from "sonner";
import { TEAM_MSG, TEAM_ROLE_LABELS } from "@promptly/shared";
import { InviteTable } from "@/components/members/invite-table";
import { Button } from "@/components/ui/button";
import { trpc } from "@/lib/trpc";
import type { PendingInvite } from "./team-types.ts";
import { useInviteResult } from "./use-invite-result.ts";

export function PendingInvites({ teamId, teamName, invites }: { teamId: string; teamName: string; invites: PendingInvite[] }) {
  const utils = trpc.useUtils();
  const refresh = () => utils.invites.listPending.invalidate({ teamId });
  const cancel = trpc.invites.cancel.useMutation({
    async onSuccess() {
      toast.success("Invitation cancelled");
      await refresh();
    },
    onError(error) {
      toast.error(TEAM_MSG.failedToCancelInvite, { description: error.message });
    },
  });
  const announce = useInviteResult(teamId, teamName);
  const resend = trpc.invites.create.useMutation({
    // The address may have an account by now: then the person is added at once, and told so.
    onSuccess: announce,
    onError(error) {
      toast.error(TEAM_MSG.failedToCreateInvite, { description: error.message });
    },
  });

  return (
    <InviteTable
      label="Pending invitations"
      rowTestId="pending-invite-row"
      invites={invites}
      labels={TEAM_ROLE_LABELS}
      actions={(invite) => {
        const busy = (cancel.isPending && cancel.variables?.id === invite.id) || (resend.isPending && resend.variables?.email === invite.email);
        return (
          <>
            <Button
              variant="ghost"
              size="sm"
              disabled={busy}
              aria-label={`Resend invitation to ${invite.email}`}
              onClick={() => resend.mutate({ teamId, email: invite.email, role: invite.role })}
            >
              <RotateCw aria-hidden="true" />
              Resend
            </Button>
            <Button variant="ghost" size="sm" disabled={busy} aria-label={`Cancel invitation to ${invite.email}`} onClick={() => cancel.mutate({ id: invite.id })}>
              <MailX aria-hidden="true" />
              Cancel
            </Button>
          </>
        );
      }}
    />
  );
}
