import { KEYS_TOO, byTeam, teamResourceProcedure } from "../../procedures.ts";
import { getTeam, teamListItem } from "../../services/organizations/teams.ts";

/** One team, for anyone who may read it (team.read), its API keys included. */
export const get = teamResourceProcedure("team.read", byTeam, KEYS_TOO)
  .output(teamListItem)
  .query(({ ctx }) => getTeam(ctx.db, ctx.caller, ctx.team.teamId));
