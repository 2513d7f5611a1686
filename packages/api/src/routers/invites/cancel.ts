import { z } from "zod";
import { byTeamInvite, teamResourceProcedure } from "../../procedures.ts";
import { cancelInvite } from "../../services/organizations/team-invites.ts";

/** Cancelling deletes a pending invite. */
export const cancel = teamResourceProcedure("team.members.manage", byTeamInvite)
  .output(z.object({ id: z.string() }))
  .mutation(async ({ ctx, input }) => {
    await cancelInvite(ctx.db, { teamId: ctx.team.teamId, inviteId: input.id }, ctx.audit);
    return { id: input.id };
  });
