import { z } from "zod";
import { byTeamMember, teamResourceProcedure } from "../../procedures.ts";
import { removeTeamMember } from "../../services/organizations/teams.ts";

/** Removes a member, never the team's last admin. */
export const remove = teamResourceProcedure("team.members.manage", byTeamMember)
  .output(z.object({ id: z.string() }))
  .mutation(async ({ ctx, input }) => {
    await removeTeamMember(ctx.db, { teamId: ctx.team.teamId, memberId: input.id, actor: ctx.team }, ctx.audit);
    return { id: input.id };
  });
