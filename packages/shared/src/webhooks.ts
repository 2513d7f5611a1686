// A team's webhooks: the events a subscription may ask for, the texts and the input schemas shared by
// the procedures and the team's Webhooks page.
import { z } from "zod";

/** Every event a webhook may be sent, in the order the page lists them. */
export const WEBHOOK_EVENTS = [
  "prompt.created",
  "prompt.version.created",
  "prompt.label.moved",
  "prompt.served.changed",
  "prompt.archived",
  "prompt.deleted",
  "prompt.version.deleted",
  "changeRequest.opened",
  "changeRequest.approved",
  "changeRequest.rejected",
  "comment.created",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** What each event means, on the page's checkboxes. */
export const WEBHOOK_EVENT_TEXT: Record<WebhookEvent, string> = {
  "prompt.created": "A prompt is created",
  "prompt.version.created": "A new version is saved",
  "prompt.label.moved": "A label is moved to a version",
  "prompt.served.changed": "A prompt's served text changes through an include",
  "prompt.archived": "A prompt is archived",
  "prompt.deleted": "A prompt is deleted",
  "prompt.version.deleted": "Versions of a prompt are deleted",
  "changeRequest.opened": "A change request is opened",
  "changeRequest.approved": "A change request is approved",
  "changeRequest.rejected": "A change request is rejected",
  "comment.created": "A comment is posted",
};

const WEBHOOK_URL_MAX = 2000;

export const WEBHOOK_MSG = {
  /** A subscription's secret sealed under another app secret: no delivery can be signed. */
  secretUnreadable: "The webhook's signing secret could not be read (was APP_SECRET changed?): create the webhook again",
  urlInvalid: "Enter a URL starting with https:// or http://",
  urlTooLong: `A webhook URL has at most ${WEBHOOK_URL_MAX} characters`,
  urlCredentials: "A webhook URL may not carry a user name or password",
  urlPrivate: "This URL points to a private or loopback address; webhooks may only call public addresses",
  /** A port fetch never calls (the Fetch standard's "bad ports", such as 25 or 6000). */
  urlPortBlocked: "Webhooks cannot be sent to this URL's port (one that web requests never use, such as 25 or 6000): choose another port",
  eventsEmpty: "Choose at least one event",
  eventInvalid: "Unknown event",
  notFound: "Webhook not found",
  deliveryNotFound: "Delivery not found",
  inactive: "The webhook is turned off",
} as const;

const webhookUrlSchema = z
  .string({ error: WEBHOOK_MSG.urlInvalid })
  .trim()
  .max(WEBHOOK_URL_MAX, WEBHOOK_MSG.urlTooLong)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, WEBHOOK_MSG.urlInvalid)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.username === "" && url.password === "";
    } catch {
      return true;
    }
  }, WEBHOOK_MSG.urlCredentials);

const webhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS, { error: WEBHOOK_MSG.eventInvalid }))
  .min(1, WEBHOOK_MSG.eventsEmpty)
  // Without repeats, in the list's order.
  .transform((events): WebhookEvent[] => WEBHOOK_EVENTS.filter((event) => events.includes(event)));

export const createWebhookInput = z.object({
  url: webhookUrlSchema,
  events: webhookEventsSchema,
  slack: z.boolean().default(false),
});
export type WebhookSettings = z.output<typeof createWebhookInput>;

export const updateWebhookInput = z.object({
  url: webhookUrlSchema.optional(),
  events: webhookEventsSchema.optional(),
  slack: z.boolean().optional(),
  active: z.boolean().optional(),
});

export const webhookDeliveriesInput = z.object({ cursor: z.string().max(200).nullish() });
