import { analyticsOverviewInput, analyticsOverviewOutput, analyticsPromptInput, analyticsPromptOutput } from "@promptly/shared";
import { router } from "../../trpc.ts";
import { byOrganizationId, byPromptId, organizationResourceProcedure, promptProcedure } from "../../procedures.ts";
import { analyticsOverview, analyticsPrompt } from "../../services/insight/analytics.ts";
import { readableTeamIn } from "../../services/prompts/prompt-places.ts";

/**
 * Analytics, for all four roles, each seeing what they may read: the overview counts only
 * the prompts the caller may read in the organization (or one of its teams they may read).
 */
export const analyticsRouter = router({
  overview: organizationResourceProcedure("organization.read", byOrganizationId)
    .input(analyticsOverviewInput)
    .output(analyticsOverviewOutput)
    .query(async ({ ctx, input }) => {
      if (input.teamId) await readableTeamIn(ctx.db, ctx.caller, input.organizationId, input.teamId);
      return analyticsOverview(ctx.db, ctx.caller, input, ctx.now());
    }),

  /** One prompt's usage: whoever may read the prompt. */
  prompt: promptProcedure("read", byPromptId)
    .input(analyticsPromptInput)
    .output(analyticsPromptOutput)
    .query(({ ctx, input }) => analyticsPrompt(ctx.db, ctx.prompt, input.days, ctx.now())),
});
