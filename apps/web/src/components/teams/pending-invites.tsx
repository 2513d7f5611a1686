// Pending invitations of a team, newest first, each with Resend and Cancel (team admins only).
import { MailX, RotateCw } from "lucide-react";
import { toast } from "sonner";
import { TEAM_MSG, TEAM_ROLE_LABELS } from "@promptly/shared";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { trpc } from "@/lib/trpc";
import type { PendingInvite } from "./team-types.ts";
import { useInviteResult } from "./use-invite-result.ts";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

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

  if (invites.length === 0) return <p className="py-4 text-center text-sm text-muted-foreground">No pending invitations.</p>;

  return (
    <Table aria-label="Pending invitations">
      <TableHeader>
        <TableRow>
          <TableHead>Email</TableHead>
          <TableHead>Role</TableHead>
          <TableHead>Sent</TableHead>
          <TableHead className="text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {invites.map((invite) => {
          const busy = (cancel.isPending && cancel.variables?.id === invite.id) || (resend.isPending && resend.variables?.email === invite.email);
          return (
            <TableRow key={invite.id} data-testid="pending-invite-row" data-email={invite.email}>
              <TableCell className="font-medium">{invite.email}</TableCell>
              <TableCell>{TEAM_ROLE_LABELS[invite.role]}</TableCell>
              <TableCell className="text-muted-foreground">
                {dateFormat.format(invite.createdAt)}{" "}
                {invite.expired && <Badge variant="outline">Expired</Badge>}
              </TableCell>
              <TableCell className="text-right">
                <div className="flex justify-end gap-1">
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
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={busy}
                    aria-label={`Cancel invitation to ${invite.email}`}
                    onClick={() => cancel.mutate({ id: invite.id })}
                  >
                    <MailX aria-hidden="true" />
                    Cancel
                  </Button>
                </div>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
