import { z } from "zod";
import { teamIdInput } from "@promptly/shared";
import { teamByIdProcedure } from "../../procedures.ts";
import { deleteTeam } from "../../services/teams.ts";

/** Deletes the team with its members and invites. */
export const remove = teamByIdProcedure("admin")
  .input(teamIdInput)
  .output(z.object({ id: z.string() }))
  .mutation(async ({ ctx }) => {
    await deleteTeam(ctx.db, ctx.team.teamId);
    return { id: ctx.team.teamId };
  });
