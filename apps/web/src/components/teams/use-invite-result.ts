// What an invitation (new or re-sent) led to, told the same way by the invite panel and the pending
// list: an existing account was added at once, or an invitation was (or could not be) emailed. Every
// list it may have changed is refreshed: adding someone also clears their pending invitation.
import { toast } from "sonner";
import { TEAM_MSG } from "@promptly/shared";
import { trpc } from "@/lib/trpc";
import type { InviteResult } from "./team-types.ts";

export function useInviteResult(teamId: string, teamName: string) {
  const utils = trpc.useUtils();
  return async function announce(result: InviteResult) {
    if (result.status === "added") {
      toast.success("Member added", { description: `${result.email} has been added to ${teamName}.` });
    } else if (result.emailSent) {
      toast.success(result.resent ? "Invitation sent again" : "Invitation sent", {
        description: `An invitation to join ${teamName} has been sent to ${result.invite.email}.`,
      });
    } else {
      toast.warning(TEAM_MSG.failedToSendInviteEmail, {
        description: `The invitation for ${result.invite.email} was created, but the email could not be sent. Try again later.`,
      });
    }
    await Promise.all([
      utils.invites.listPending.invalidate({ teamId }),
      utils.teamMembers.list.invalidate({ teamId }),
      utils.teams.list.invalidate(),
    ]);
  };
}
