import { z } from "zod";
import { byTeamId, teamResourceProcedure } from "../../procedures.ts";
import { listWebhooks, webhookItem } from "../../services/webhooks/subscriptions.ts";

/** The team's webhooks, newest first, with their last delivery's outcome; never their secrets. */
export const list = teamResourceProcedure("webhook.manage", byTeamId)
  .output(z.array(webhookItem))
  .query(({ ctx }) => listWebhooks(ctx.db, ctx.team.teamId));
