import { byTeam, teamResourceProcedure } from "../../procedures.ts";
import { getTeam } from "../../services/teams.ts";
import { teamListItem } from "./list.ts";

/** One team, for anyone at viewer level in it. */
export const get = teamResourceProcedure("team.read", byTeam)
  .output(teamListItem)
  .query(({ ctx }) => getTeam(ctx.db, ctx.viewer, ctx.team.teamId));
