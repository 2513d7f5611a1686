import { byWebhook, teamResourceProcedure } from "../../procedures.ts";
import { deleteWebhook } from "../../services/webhooks/subscriptions.ts";

/** Deletes a webhook and its delivery log. */
export const remove = teamResourceProcedure("webhook.manage", byWebhook).mutation(({ ctx, input }) => deleteWebhook(ctx.db, input.id, ctx.audit));
