// One attempt of a delivery: claimed (so two workers never send it at once), POSTed signed to the
// subscription's URL under the outbound rule (no private addresses unless allowed, checked on the
// address actually connected to; no redirects followed; a time limit), and its outcome written on the
// delivery. A failed attempt schedules the next one with a growing delay, in the same transaction,
// until the last attempt fails for good; a failure no retry can mend (the secret cannot be read, the
// body cannot be written, the URL's own host or its port refused for good) fails it at once.
import { isIP } from "node:net";
import { Prisma, rawTransaction, type Db } from "@promptly/db";
import { WEBHOOK_MSG, webhookPortBlocked, type WebhookEvent } from "@promptly/shared";
import { openSecret } from "../platform/secret-box.ts";
import { outboundFetch, PrivateAddressError } from "../platform/outbound.ts";
import type { WebhookPayload } from "./events.ts";
import { queueDeliveryJobs } from "./jobs.ts";
import { signatureHeader } from "./signature.ts";

export interface DeliveryTimings {
  /** The wait after the first failed attempt; each next one is three times longer. */
  retryBaseMs: number;
  /** Attempts in all before a delivery fails for good. */
  maxAttempts: number;
  /** How long one attempt may take. */
  timeoutMs: number;
  /** How long the claim may wait (on a row another connection holds) before the attempt fails, to be retried: 5 s by default. */
  claimTimeoutMs?: number;
}

const DEFAULT_CLAIM_TIMEOUT_MS = 5_000;

/** Defaults: 8 attempts, the waits 1 min, 3 min, 9 min, 27 min, 81 min, about 4 h and 12 h: about 18 hours in all. */
export const DEFAULT_DELIVERY_TIMINGS: DeliveryTimings = { retryBaseMs: 60_000, maxAttempts: 8, timeoutMs: 10_000 };

const retryDelayMs = (timings: DeliveryTimings, failedAttempts: number) => timings.retryBaseMs * 3 ** (failedAttempts - 1);

interface DeliveryDeps {
  db: Db;
  config: { appUrl: string; secret: string; allowPrivateWebhookUrls?: boolean };
  timings: DeliveryTimings;
}

interface Claimed {
  id: string;
  event: WebhookEvent | "ping";
  payload: WebhookPayload;
  attempts: number;
  /** When this attempt claimed the delivery (as text, exact): its outcome is written only while the claim is still the delivery's last. */
  claimedAt: string;
  subscriptionId: string;
  url: string;
  secretSealed: string;
  slack: boolean;
  active: boolean;
}

/** The body as sent: the payload's fields in their documented order (jsonb keeps its own order). */
const orderedPayload = (p: WebhookPayload): WebhookPayload => ({ id: p.id, type: p.type, createdAt: p.createdAt, organizationId: p.organizationId, teamId: p.teamId, data: p.data });

/** Attempts a delivery once, if it is due and still pending; "skipped" when another attempt has it or it is settled. */
export async function attemptDelivery(deps: DeliveryDeps, deliveryId: string): Promise<"succeeded" | "retrying" | "failed" | "skipped"> {
  const { db, timings } = deps;
  // Held while the attempt runs: a copy of its job (pg-boss retries a job whose worker died) waits until it has passed.
  const leaseMs = timings.timeoutMs + 30_000;
  // Under a statement timeout: a claim stuck on a lock never released would otherwise hold its slot for good.
  const claim = Prisma.sql`
    UPDATE webhook_deliveries d
    SET attempts = d.attempts + 1, last_attempt_at = now(), next_attempt_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
    FROM webhook_subscriptions s
    WHERE d.id = ${deliveryId}::uuid AND s.id = d.subscription_id AND d.status = 'pending' AND d.next_attempt_at <= now() + interval '1 second'
    RETURNING d.id::text, d.subscription_id::text AS "subscriptionId", d.event, d.payload, d.attempts, d.last_attempt_at::text AS "claimedAt", s.url, s.secret_sealed AS "secretSealed", s.slack, s.active`;
  const [row] = await rawTransaction(db, (tx) => tx.query<Claimed>(claim), { timeoutMs: timings.claimTimeoutMs ?? DEFAULT_CLAIM_TIMEOUT_MS });
  if (!row) return "skipped";
  if (!row.active) {
    await settle(deps, row, { ok: false, statusCode: null, error: WEBHOOK_MSG.inactive }, true);
    return "failed";
  }
  // Refused on create and update; a URL saved before that with such a port is refused the same way here.
  if (webhookPortBlocked(row.url)) {
    await settle(deps, row, { ok: false, statusCode: null, error: WEBHOOK_MSG.urlPortBlocked }, true);
    return "failed";
  }
  // Built from what is stored before anything is sent: a secret that no longer opens (APP_SECRET changed)
  // or a body that cannot be written fails the same way at every attempt, so the delivery fails at once
  // with the reason instead of spending its retries over hours.
  let request: { secret: string; body: string };
  try {
    request = buildRequest(deps.config.secret, row);
  } catch (error) {
    await settle(deps, row, { ok: false, statusCode: null, error: describe(error, timings.timeoutMs) }, true);
    return "failed";
  }
  let outcome: Outcome;
  let permanent = false;
  try {
    const timestamp = Math.floor(Date.now() / 1000);
    const response = await outboundFetch(deps.config.allowPrivateWebhookUrls ?? false)(row.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Promptly-Webhooks/1",
        "Promptly-Signature": signatureHeader(request.secret, request.body, timestamp),
        "Promptly-Event": row.event,
        "Promptly-Delivery": row.id,
      },
      body: request.body,
      redirect: "manual",
      signal: AbortSignal.timeout(timings.timeoutMs),
    });
    await response.body?.cancel().catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    outcome = { ok, statusCode: response.status, error: ok ? null : `The receiver answered ${response.status}` };
  } catch (error) {
    const refusal = refusedForGood(error, row.url);
    permanent = refusal !== null;
    outcome = { ok: false, statusCode: null, error: refusal ?? describe(error, timings.timeoutMs) };
  }
  const final = !outcome.ok && (permanent || row.attempts >= timings.maxAttempts);
  await settle(deps, row, outcome, final);
  return outcome.ok ? "succeeded" : final ? "failed" : "retrying";
}

type Outcome = { ok: boolean; statusCode: number | null; error: string | null };

/** The delivery's signing secret and body; throws (the secretUnreadable message for the secret) when either cannot be made. */
function buildRequest(appSecret: string, row: Claimed): { secret: string; body: string } {
  const secret = openWebhookSecret(appSecret, row);
  const payload = orderedPayload(row.payload);
  return { secret, body: JSON.stringify(row.slack ? { text: slackText(payload) } : payload) };
}

/**
 * Why the URL itself is refused, so that no retry can pass it (null: retried). The outbound rule refuses
 * its own host, a private IP literal: only the URL or the operator's setting changes that, while a name
 * that resolved to a private address may resolve elsewhere later.
 */
function refusedForGood(error: unknown, url: string): string | null {
  const cause = (error as { cause?: unknown }).cause;
  if (!(cause instanceof PrivateAddressError)) return null;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return isIP(host) !== 0 ? WEBHOOK_MSG.urlPrivate : null;
}

function openWebhookSecret(appSecret: string, row: Claimed): string {
  try {
    return Buffer.from(openSecret(appSecret, "webhook secret v1", row.subscriptionId, row.secretSealed)).toString("utf8");
  } catch {
    throw new Error(WEBHOOK_MSG.secretUnreadable);
  }
}

/**
 * Writes the attempt's outcome, if its claim is still the delivery's last: an attempt whose job was given
 * up (it ran past its time limit, or its worker stopped) and that ends after another attempt claimed the
 * delivery, or after a redelivery, writes nothing and queues nothing.
 */
async function settle(deps: DeliveryDeps, row: Claimed, outcome: Outcome, final: boolean) {
  await deps.db.$transaction(async (tx) => {
    if (outcome.ok || final) {
      await tx.$executeRaw`
        UPDATE webhook_deliveries SET status = ${outcome.ok ? "succeeded" : "failed"}::webhook_delivery_status, last_status_code = ${outcome.statusCode},
          last_error = ${outcome.error}, next_attempt_at = NULL, updated_at = now()
        WHERE id = ${row.id}::uuid AND status = 'pending' AND attempts = ${row.attempts} AND last_attempt_at = ${row.claimedAt}::timestamptz`;
      return;
    }
    const next = new Date(Date.now() + retryDelayMs(deps.timings, row.attempts));
    const written = await tx.$executeRaw`
      UPDATE webhook_deliveries SET last_status_code = ${outcome.statusCode}, last_error = ${outcome.error}, next_attempt_at = ${next}, updated_at = now()
      WHERE id = ${row.id}::uuid AND status = 'pending' AND attempts = ${row.attempts} AND last_attempt_at = ${row.claimedAt}::timestamptz`;
    if (written) await queueDeliveryJobs(tx, [row.id], next);
  });
}

function describe(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { message?: string; code?: string } };
  if (e.name === "TimeoutError") return `No answer within ${Math.round(timeoutMs / 1000)} s`;
  const cause = e.cause?.message ?? e.cause?.code;
  return (cause ?? e.message ?? String(error)).slice(0, 500);
}

/** A Slack-compatible message for the event (incoming webhooks read `text`). */
function slackText(payload: WebhookPayload): string {
  const d = payload.data as WebhookPayload["data"] & { changeRequest?: { title?: string | null } };
  const who = d.actor.name ?? (d.actor.kind === "apiKey" ? "An API key" : "Someone");
  const prompt = d.prompt?.name ? `*${d.prompt.name}*` : "a prompt";
  const cr = d.changeRequest;
  const request = cr ? `${cr.title ? `“${cr.title}”` : "a change request"} on ${prompt}` : prompt;
  switch (payload.type) {
    case "prompt.created":
      return `${who} created the prompt ${prompt}`;
    case "prompt.version.created":
      return `${who} saved version ${String(d.version)} of ${prompt}`;
    case "prompt.label.moved": {
      const split = d.split as { version: number; weight: number } | undefined;
      if (split) return `${who} split the label *${String(d.label)}* of ${prompt}: version ${String(d.version)} ${100 - split.weight}%, version ${split.version} ${split.weight}%`;
      if (d.rollback) return `${who} rolled the label *${String(d.label)}* of ${prompt} back to version ${String(d.version)}`;
      return `${who} moved the label *${String(d.label)}* of ${prompt} to version ${String(d.version)}`;
    }
    case "prompt.served.changed": {
      const include = d.include as { prompt: { name: string }; label: string; version: number };
      const labels = Array.isArray(d.labels) ? (d.labels as string[]) : [];
      return `${who} moved the label *${include.label}* of *${include.prompt.name}* to version ${include.version}, so ${prompt} version ${String(d.version)} serves a new text as ${labels.map((label) => `*${label}*`).join(", ")}`;
    }
    case "prompt.archived":
      return `${who} archived the prompt ${prompt}`;
    case "prompt.deleted":
      return `${who} deleted the prompt ${prompt}`;
    case "prompt.version.deleted": {
      const versions = Array.isArray(d.versions) ? (d.versions as number[]) : [];
      return `${who} deleted ${versions.length === 1 ? "version" : "versions"} ${versions.join(", ")} of ${prompt}`;
    }
    case "changeRequest.opened":
      return `${who} opened the change request ${request}`;
    case "changeRequest.approved":
      return `${who} approved the change request ${request}`;
    case "changeRequest.rejected":
      return `${who} rejected the change request ${request}`;
    case "comment.created":
      return `${who} commented on ${prompt}`;
    case "ping":
      return `${who} sent a test from Promptly: this webhook works.`;
  }
}
