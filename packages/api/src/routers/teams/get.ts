import { teamIdInput } from "@promptly/shared";
import { teamByIdProcedure } from "../../procedures.ts";
import { getTeam } from "../../services/teams.ts";
import { teamListItem } from "./list.ts";

/** One team, for anyone at viewer level in it. */
export const get = teamByIdProcedure("viewer")
  .input(teamIdInput)
  .output(teamListItem)
  .query(({ ctx, input }) => getTeam(ctx.db, ctx.viewer, input.id));
