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
/** Every subscription gets its own delivery of each event: the cap bounds what one change can send. */
export const WEBHOOKS_PER_TEAM_MAX = 25;
/** The least time between two tests of one webhook (its Send test button). */
export const WEBHOOK_TEST_INTERVAL_SECONDS = 5;

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
  tooManyWebhooks: `A team has at most ${WEBHOOKS_PER_TEAM_MAX} webhooks: delete one before adding another`,
  testTooSoon: `A test was sent to this webhook less than ${WEBHOOK_TEST_INTERVAL_SECONDS} seconds ago: wait a moment before sending another`,
} as const;

/**
 * The ports fetch never calls over http(s): the Fetch standard's "port blocking" list ("bad port",
 * https://fetch.spec.whatwg.org/#port-blocking). undici's `badPorts` is the same list without 0, added to
 * the standard in 2025 (nothing listens there). A URL's default port (80, 443) is not on it.
 */
const BLOCKED_PORTS = new Set([
  "0", "1", "7", "9", "11", "13", "15", "17", "19", "20", "21", "22", "23", "25", "37", "42", "43", "53", "69", "77", "79",
  "87", "95", "101", "102", "103", "104", "109", "110", "111", "113", "115", "117", "119", "123", "135", "137",
  "139", "143", "161", "179", "389", "427", "465", "512", "513", "514", "515", "526", "530", "531", "532",
  "540", "548", "554", "556", "563", "587", "601", "636", "989", "990", "993", "995", "1719", "1720", "1723",
  "2049", "3659", "4045", "4190", "5060", "5061", "6000", "6566", "6665", "6666", "6667", "6668", "6669", "6679",
  "6697", "10080",
]);

/** Whether fetch refuses to call this http(s) URL for its port (false for a URL that does not parse). */
export function webhookPortBlocked(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && BLOCKED_PORTS.has(url.port);
  } catch {
    return false;
  }
}

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
  }, WEBHOOK_MSG.urlCredentials)
  .refine((value) => !webhookPortBlocked(value), WEBHOOK_MSG.urlPortBlocked);

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
