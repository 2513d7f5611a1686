import { z } from "zod";
import { idSchema } from "@promptly/shared";
import { byTeam, changesRunConnections, teamResourceProcedure } from "../../procedures.ts";
import { getTeamDefaultConnection, setTeamDefaultConnection, teamDefaultConnection } from "../../services/models/connections.ts";

/** The team's default connection and those it may choose from, at team admin level. */
export const defaultConnection = teamResourceProcedure("team.manage", byTeam)
  .output(teamDefaultConnection)
  .query(({ ctx }) => getTeamDefaultConnection(ctx.db, ctx.team.teamId));

/** Sets (or clears, null) the team's default connection, before the organization's, at team admin level. */
export const setDefaultConnection = teamResourceProcedure("team.manage", byTeam)
  .use(changesRunConnections)
  .input(z.object({ id: idSchema, connectionId: idSchema.nullable() }))
  .output(z.object({ connectionId: z.string().nullable() }))
  .mutation(({ ctx, input }) => setTeamDefaultConnection(ctx.db, ctx.team.teamId, input.connectionId, ctx.audit));
