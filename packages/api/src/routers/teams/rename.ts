import { renameTeamInput } from "@promptly/shared";
import { teamByIdProcedure } from "../../procedures.ts";
import { renameTeam } from "../../services/teams.ts";
import { teamListItem } from "./list.ts";

export const rename = teamByIdProcedure("admin")
  .input(renameTeamInput)
  .output(teamListItem)
  .mutation(({ ctx, input }) => renameTeam(ctx.db, ctx.viewer, ctx.team.teamId, input.name));
