import { createWebhookInput } from "@promptly/shared";
import { byTeamId, teamResourceProcedure } from "../../procedures.ts";
import { createdWebhook, createWebhook } from "../../services/webhooks/subscriptions.ts";

/** A new subscription of the team; the answer is the only time its signing secret is shown. */
export const create = teamResourceProcedure("webhook.manage", byTeamId)
  .input(createWebhookInput)
  .output(createdWebhook)
  .mutation(async ({ ctx, input }) => {
    // The queue exists before the first delivery is written (deliveries are queued in their event's transaction).
    await ctx.webhooks.ready();
    return createWebhook(
      ctx.db,
      { teamId: ctx.team.teamId, createdById: ctx.caller.userId, settings: input, appSecret: ctx.config.secret, allowPrivate: ctx.config.allowPrivateWebhookUrls ?? false, now: ctx.now() },
      ctx.audit,
    );
  });
