import { teamNameForm } from "@promptly/shared";
import { byTeam, teamResourceProcedure } from "../../procedures.ts";
import { renameTeam, teamListItem } from "../../services/organizations/teams.ts";

export const rename = teamResourceProcedure("team.manage", byTeam)
  .input(teamNameForm)
  .output(teamListItem)
  .mutation(({ ctx, input }) => renameTeam(ctx.db, ctx.caller, ctx.team.teamId, input.name, ctx.audit));
