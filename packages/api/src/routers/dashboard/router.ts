import { dashboardInput } from "@promptly/shared";
import { z } from "zod";
import { router } from "../../trpc.ts";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { dashboardStats, getDashboardStats, popularPrompts } from "../../services/prompts/dashboard.ts";
import { promptListItem } from "../../services/prompts/prompt-shapes.ts";
import { readableTeamIn } from "../../services/prompts/prompt-places.ts";

export const dashboardRouter = router({
  /** The four stat cards, from the rows the caller may read in the organization (and its active team). */
  stats: organizationResourceProcedure("organization.read", byOrganizationId)
    .input(dashboardInput)
    .output(dashboardStats)
    .query(async ({ ctx, input }) => {
      if (input.teamId) await readableTeamIn(ctx.db, ctx.caller, input.organizationId, input.teamId);
      return getDashboardStats(ctx.db, ctx.caller, input.organizationId, input.teamId, ctx.now());
    }),

  /** The Popular tab: most bookmarked in the last 30 days, then best rated. */
  popular: organizationResourceProcedure("organization.read", byOrganizationId)
    .input(dashboardInput)
    .output(z.array(promptListItem))
    .query(async ({ ctx, input }) => {
      if (input.teamId) await readableTeamIn(ctx.db, ctx.caller, input.organizationId, input.teamId);
      return popularPrompts(ctx.db, ctx.caller, input.organizationId, input.teamId, ctx.now());
    }),
});
