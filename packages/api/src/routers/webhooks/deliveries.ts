import { webhookDeliveriesInput } from "@promptly/shared";
import { byWebhookSubscription, teamResourceProcedure } from "../../procedures.ts";
import { deliveriesPage, listDeliveries } from "../../services/webhooks/subscriptions.ts";

/** A webhook's deliveries, newest first: their status, attempts and the receiver's last answer code. */
export const deliveries = teamResourceProcedure("webhook.manage", byWebhookSubscription)
  .input(webhookDeliveriesInput)
  .output(deliveriesPage)
  .query(({ ctx, input }) => listDeliveries(ctx.db, input.subscriptionId, input.cursor));
