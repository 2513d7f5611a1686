import { z } from "zod";
import { byWebhook, teamResourceProcedure } from "../../procedures.ts";
import { testWebhook } from "../../services/webhooks/subscriptions.ts";

/** Sends a `ping` to the webhook now, to check that its receiver answers; it shows in its deliveries. */
export const test = teamResourceProcedure("webhook.manage", byWebhook)
  .output(z.object({ deliveryId: z.string() }))
  .mutation(async ({ ctx, input }) => {
    await ctx.webhooks.ready();
    return testWebhook(ctx.db, input.id, ctx.audit.actor, ctx.now());
  });
