import { z } from "zod";
import { idSchema } from "@promptly/shared";
import { protectedProcedure } from "../../procedures.ts";
import { listTeams, teamListItem } from "../../services/organizations/teams.ts";

/** The teams the caller may see (one organization's, or every one's), by name. */
export const list = protectedProcedure
  .input(z.object({ organizationId: idSchema.optional() }).optional())
  .output(z.array(teamListItem))
  .query(({ ctx, input }) => listTeams(ctx.db, ctx.caller, input?.organizationId));
