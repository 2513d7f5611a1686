import { z } from "zod";
import { byWebhookDelivery, teamResourceProcedure } from "../../procedures.ts";
import { redeliver as redeliverDelivery } from "../../services/webhooks/subscriptions.ts";

/** Sends a delivery again now (same delivery id), with a fresh series of attempts. */
export const redeliver = teamResourceProcedure("webhook.manage", byWebhookDelivery)
  .output(z.object({ id: z.string() }))
  .mutation(async ({ ctx, input }) => {
    await ctx.webhooks.ready();
    return redeliverDelivery(ctx.db, input.deliveryId, ctx.now());
  });
