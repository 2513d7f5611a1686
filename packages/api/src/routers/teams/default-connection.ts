import { z } from "zod";
import { idSchema } from "@promptly/shared";
import { byTeam, teamResourceProcedure } from "../../procedures.ts";
import { getTeamDefaultConnection, setTeamDefaultConnection, teamDefaultConnection } from "../../services/models/connections.ts";

/** The team's default connection and those it may choose from, at team admin level. */
export const defaultConnection = teamResourceProcedure("team.manage", byTeam)
  .output(teamDefaultConnection)
  .query(({ ctx }) => getTeamDefaultConnection(ctx.db, ctx.team.teamId));

/** Sets (or clears, null) the team's default connection, before the organization's, at team admin level. */
export const setDefaultConnection = teamResourceProcedure("team.manage", byTeam)
  .input(z.object({ id: idSchema, connectionId: idSchema.nullable() }))
  .output(z.object({ connectionId: z.string().nullable() }))
  .mutation(async ({ ctx, input }) => {
    const set = await setTeamDefaultConnection(ctx.db, ctx.team.teamId, input.connectionId, ctx.audit);
    // Other processes hear of it from the database trigger (run-connections); this one at once, so a run
    // starting before its own notification comes back does not use the old connection.
    ctx.runtime.invalidate("run-connections");
    return set;
  });
