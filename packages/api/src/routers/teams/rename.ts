import { teamNameForm } from "@promptly/shared";
import { byTeam, teamResourceProcedure } from "../../procedures.ts";
import { renameTeam } from "../../services/teams.ts";
import { teamListItem } from "./list.ts";

export const rename = teamResourceProcedure("team.manage", byTeam)
  .input(teamNameForm)
  .output(teamListItem)
  .mutation(({ ctx, input }) => renameTeam(ctx.db, ctx.viewer, ctx.team.teamId, input.name));
