import { z } from "zod";
import { byTeam, teamResourceProcedure } from "../../procedures.ts";
import { deleteTeam } from "../../services/organizations/teams.ts";

/** Deletes the team with its members and invites. */
export const remove = teamResourceProcedure("team.manage", byTeam)
  .output(z.object({ id: z.string() }))
  .mutation(async ({ ctx }) => {
    await deleteTeam(ctx.db, ctx.team.teamId, ctx.audit);
    return { id: ctx.team.teamId };
  });
