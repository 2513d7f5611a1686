import { byTeam, teamResourceProcedure } from "../../procedures.ts";
import { getTeam, teamListItem } from "../../services/teams.ts";

/** One team, for anyone who may read it (team.read). */
export const get = teamResourceProcedure("team.read", byTeam)
  .output(teamListItem)
  .query(({ ctx }) => getTeam(ctx.db, ctx.caller, ctx.team.teamId));
