import { z } from "zod";
import { teamMemberIdInput } from "@promptly/shared";
import { teamMemberProcedure } from "../../procedures.ts";
import { removeTeamMember } from "../../services/teams.ts";

/** Removes a member, never the team's last admin (spec 4). */
export const remove = teamMemberProcedure("admin")
  .input(teamMemberIdInput)
  .output(z.object({ id: z.string() }))
  .mutation(async ({ ctx, input }) => {
    await removeTeamMember(ctx.db, { teamId: ctx.team.teamId, memberId: input.id, actor: { ...ctx.team, userId: ctx.viewer.userId } });
    return { id: input.id };
  });
