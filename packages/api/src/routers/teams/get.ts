import { byTeam, teamResourceProcedure } from "../../procedures.ts";
import { getTeam, teamListItem } from "../../services/teams.ts";

/** One team, for anyone at viewer level in it. */
export const get = teamResourceProcedure("team.read", byTeam)
  .output(teamListItem)
  .query(({ ctx }) => getTeam(ctx.db, ctx.viewer, ctx.team.teamId));
