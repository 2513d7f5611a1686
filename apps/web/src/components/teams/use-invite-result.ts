// What an invitation (new or re-sent) led to, told the same way by the invite panel and the pending
// list: a colleague of the organization was added at once, or an invitation is on its way. Every
// list it may have changed is refreshed: adding someone also clears their pending invitation.
import { toast } from "sonner";
import { trpc } from "@/lib/trpc";
import type { InviteResult } from "./team-types.ts";

export function useInviteResult(teamId: string, teamName: string) {
  const utils = trpc.useUtils();
  return async function announce(result: InviteResult) {
    if (result.status === "added") {
      toast.success("Member added", { description: `${result.email} has been added to ${teamName}.` });
    } else if (!result.emailQueued) {
      toast("Invitation already sent", {
        description: `An invitation to join ${teamName} was sent to ${result.invite.email} a few minutes ago.`,
      });
    } else {
      toast.success(result.resent ? "Invitation sent again" : "Invitation sent", {
        description: `An invitation to join ${teamName} has been sent to ${result.invite.email}.`,
      });
    }
    await Promise.all([
      utils.invites.listPending.invalidate({ teamId }),
      utils.teamMembers.list.invalidate({ teamId }),
      utils.teams.list.invalidate(),
    ]);
  };
}
