import { updateWebhookInput } from "@promptly/shared";
import { byWebhook, teamResourceProcedure } from "../../procedures.ts";
import { updateWebhook } from "../../services/webhooks/subscriptions.ts";

/** Changes a webhook's URL, events, format, or turns it off and on; the secret stays. */
export const update = teamResourceProcedure("webhook.manage", byWebhook)
  .input(updateWebhookInput)
  .mutation(({ ctx, input }) =>
    updateWebhook(ctx.db, { id: input.id, changes: input, allowPrivate: ctx.config.allowPrivateWebhookUrls ?? false, now: ctx.now() }, ctx.audit),
  );
