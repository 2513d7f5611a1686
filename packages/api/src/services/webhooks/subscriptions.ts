// A team's webhook subscriptions and their deliveries: create (the secret is answered once and kept
// sealed), list, change, delete, the delivery log, and a delivery sent again on request. The procedure
// builders have checked that the caller manages the team's webhooks.
import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import type { Db, DbOrTx } from "@promptly/db";
import { WEBHOOK_EVENTS, WEBHOOK_MSG, WEBHOOK_TEST_INTERVAL_SECONDS, WEBHOOKS_PER_TEAM_MAX, type WebhookEvent, type WebhookSettings, type updateWebhookInput } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";
import { outboundAllowed } from "../platform/outbound.ts";
import { instantSortValue, decodeKeysetCursor, encodeKeysetCursor } from "../platform/keyset-cursor.ts";
import { sealSecret } from "../platform/secret-box.ts";
import type { Actor } from "../access/actor.ts";
import { sendPing } from "./events.ts";
import { queueDeliveryJobs } from "./jobs.ts";

/** Every secret starts so: secret scanners and people recognise it. */
const SECRET_PREFIX = "whsec_";
const DELIVERIES_PAGE = 25;
/** Namespace of the per-team advisory lock taken while a webhook is created. */
const WEBHOOK_CREATE_LOCK = 7_253_019;

// ---- answers ----

export const webhookItem = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  slack: z.boolean(),
  active: z.boolean(),
  createdAt: z.date(),
  /** Who created it; null once that account is deleted. */
  author: z.object({ id: z.string(), fullName: z.string().nullable(), email: z.string() }).nullable(),
  /** The last delivery's outcome, to see at a glance whether the receiver answers. */
  lastDelivery: z.object({ status: z.enum(["pending", "succeeded", "failed"]), statusCode: z.number().nullable(), at: z.date() }).nullable(),
});

/** The new subscription, with the only copy of its secret. */
export const createdWebhook = z.object({ id: z.string(), secret: z.string() });

const deliveryItem = z.object({
  id: z.string(),
  event: z.string(),
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: z.number(),
  statusCode: z.number().nullable(),
  error: z.string().nullable(),
  createdAt: z.date(),
  lastAttemptAt: z.date().nullable(),
  nextAttemptAt: z.date().nullable(),
});
export const deliveriesPage = z.object({ items: z.array(deliveryItem), nextCursor: z.string().nullable() });

// ---- rules ----

/** Refuses a URL that is, or resolves to, a private address (unless allowed); checked again at every delivery. */
async function checkUrl(url: string, allowPrivate: boolean) {
  if (!(await outboundAllowed(url, allowPrivate))) fail("INVALID", WEBHOOK_MSG.urlPrivate, "PRIVATE_URL");
}

const auditTarget = (id: string, url: string) => ({ type: "webhook", id, name: url });

// ---- managing subscriptions ----

export async function createWebhook(
  db: Db,
  input: { teamId: string; createdById: string; settings: WebhookSettings; appSecret: string; allowPrivate: boolean; now: Date },
  context: AuditContext,
): Promise<z.infer<typeof createdWebhook>> {
  const { settings, now } = input;
  await checkUrl(settings.url, input.allowPrivate);
  const id = randomUUID();
  const secret = SECRET_PREFIX + randomBytes(32).toString("base64url");
  return db.$transaction(async (tx) => {
    // Two creates at once would each count the other out: they take turns per team.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${WEBHOOK_CREATE_LOCK}::int, hashtext(${input.teamId}))`;
    if ((await tx.webhookSubscription.count({ where: { teamId: input.teamId } })) >= WEBHOOKS_PER_TEAM_MAX) {
      fail("STATE_CONFLICT", WEBHOOK_MSG.tooManyWebhooks, "TOO_MANY_WEBHOOKS");
    }
    const row = await tx.webhookSubscription.create({
      data: {
        id,
        teamId: input.teamId,
        url: settings.url,
        events: settings.events,
        slack: settings.slack,
        secretSealed: sealSecret(input.appSecret, "webhook secret v1", id, Buffer.from(secret)),
        createdById: input.createdById,
        createdAt: now,
        updatedAt: now,
      },
      select: { id: true, team: { select: { organizationId: true } } },
    });
    await auditAs(tx, context, {
      organizationId: row.team.organizationId,
      teamId: input.teamId,
      action: "webhook.create",
      target: auditTarget(id, settings.url),
      after: { url: settings.url, events: settings.events, slack: settings.slack },
    });
    return { id, secret };
  });
}

/** The team's subscriptions, newest first; never their secrets. */
export async function listWebhooks(db: DbOrTx, teamId: string): Promise<z.infer<typeof webhookItem>[]> {
  const rows = await db.webhookSubscription.findMany({
    where: { teamId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    select: {
      id: true, url: true, events: true, slack: true, active: true, createdAt: true,
      createdBy: { select: { id: true, email: true, profile: { select: { fullName: true } } } },
      deliveries: { orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 1, select: { status: true, lastStatusCode: true, createdAt: true } },
    },
  });
  return rows.map(({ createdBy, deliveries, events, ...row }) => ({
    ...row,
    events: WEBHOOK_EVENTS.filter((event) => events.includes(event)),
    author: createdBy && { id: createdBy.id, fullName: createdBy.profile?.fullName ?? null, email: createdBy.email },
    lastDelivery: deliveries[0] ? { status: deliveries[0].status, statusCode: deliveries[0].lastStatusCode, at: deliveries[0].createdAt } : null,
  }));
}

/** The team of a subscription, for the procedure builder (null: no such subscription). */
export async function findWebhookTeamId(db: DbOrTx, id: string): Promise<string | null> {
  const row = await db.webhookSubscription.findUnique({ where: { id }, select: { teamId: true } });
  return row?.teamId ?? null;
}

/** The team of a delivery's subscription, for the procedure builder. */
export async function findWebhookDeliveryTeamId(db: DbOrTx, id: string): Promise<string | null> {
  const row = await db.webhookDelivery.findUnique({ where: { id }, select: { subscription: { select: { teamId: true } } } });
  return row?.subscription.teamId ?? null;
}

export async function updateWebhook(
  db: Db,
  input: { id: string; changes: z.output<typeof updateWebhookInput>; allowPrivate: boolean; now: Date },
  context: AuditContext,
): Promise<void> {
  const { changes } = input;
  if (changes.url !== undefined) await checkUrl(changes.url, input.allowPrivate);
  await db.$transaction(async (tx) => {
    const before = await tx.webhookSubscription.findUnique({
      where: { id: input.id },
      select: { url: true, events: true, slack: true, active: true, teamId: true, team: { select: { organizationId: true } } },
    });
    if (!before) return fail("NOT_FOUND", WEBHOOK_MSG.notFound, "WEBHOOK_NOT_FOUND");
    const data = {
      ...(changes.url !== undefined ? { url: changes.url } : {}),
      ...(changes.events !== undefined ? { events: changes.events as WebhookEvent[] } : {}),
      ...(changes.slack !== undefined ? { slack: changes.slack } : {}),
      ...(changes.active !== undefined ? { active: changes.active } : {}),
    };
    await tx.webhookSubscription.update({ where: { id: input.id }, data: { ...data, updatedAt: input.now } });
    await auditAs(tx, context, {
      organizationId: before.team.organizationId,
      teamId: before.teamId,
      action: "webhook.update",
      target: auditTarget(input.id, data.url ?? before.url),
      before: { url: before.url, events: before.events, slack: before.slack, active: before.active },
      after: data,
    });
  });
}

/** Deletes a subscription and its delivery log; deliveries still pending are not sent. */
export async function deleteWebhook(db: Db, id: string, context: AuditContext): Promise<void> {
  await db.$transaction(async (tx) => {
    const row = await tx.webhookSubscription.findUnique({ where: { id }, select: { url: true, teamId: true, team: { select: { organizationId: true } } } });
    if (!row) return fail("NOT_FOUND", WEBHOOK_MSG.notFound, "WEBHOOK_NOT_FOUND");
    await auditAs(tx, context, { organizationId: row.team.organizationId, teamId: row.teamId, action: "webhook.delete", target: auditTarget(id, row.url) });
    await tx.webhookSubscription.delete({ where: { id } });
  });
}

// ---- deliveries ----

/** A subscription's deliveries, newest first, a page at a time. */
export async function listDeliveries(db: DbOrTx, subscriptionId: string, cursor: string | null | undefined): Promise<z.infer<typeof deliveriesPage>> {
  const after = cursor ? decodeKeysetCursor(cursor, instantSortValue) : null;
  const rows = await db.webhookDelivery.findMany({
    where: {
      subscriptionId,
      ...(after ? { OR: [{ createdAt: { lt: after.sortValue } }, { createdAt: after.sortValue, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: DELIVERIES_PAGE + 1,
    select: { id: true, event: true, status: true, attempts: true, lastStatusCode: true, lastError: true, createdAt: true, lastAttemptAt: true, nextAttemptAt: true },
  });
  const items = rows.slice(0, DELIVERIES_PAGE).map(({ lastStatusCode, lastError, ...row }) => ({ ...row, statusCode: lastStatusCode, error: lastError }));
  const last = items.at(-1);
  return { items, nextCursor: rows.length > DELIVERIES_PAGE && last ? encodeKeysetCursor(last.createdAt.toISOString(), last.id) : null };
}

/** Sends a delivery again now, whatever its state, with a fresh series of attempts (the same delivery id, so a receiver can tell it is the same event). */
export async function redeliver(db: Db, deliveryId: string, now: Date): Promise<{ id: string }> {
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ id: string }[]>`
      UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(), updated_at = ${now}
      WHERE id = ${deliveryId}::uuid RETURNING id::text`;
    if (!row) return fail("NOT_FOUND", WEBHOOK_MSG.deliveryNotFound, "DELIVERY_NOT_FOUND");
    await queueDeliveryJobs(tx, [row.id]);
    return { id: row.id };
  });
}

/**
 * Sends a `ping` to the subscription now (logged as a delivery like any other); the delivery's id. At most
 * one every WEBHOOK_TEST_INTERVAL_SECONDS per subscription, so the button cannot be used to flood a receiver.
 */
export async function testWebhook(db: Db, id: string, actor: Actor, now: Date): Promise<{ deliveryId: string }> {
  return db.$transaction(async (tx) => {
    // The subscription's row is held until commit, and its recent pings are looked for after it is taken (a
    // statement of its own: one read with the lock used the snapshot from before its wait, and two tests at
    // once both went). Counted in the database, not the rate limiter: exact, and the same for every process.
    const [row] = await tx.$queryRaw<{ id: string; teamId: string; organizationId: string }[]>`
      SELECT s.id::text, s.team_id::text AS "teamId", t.organization_id::text AS "organizationId"
      FROM webhook_subscriptions s JOIN teams t ON t.id = s.team_id
      WHERE s.id = ${id}::uuid
      FOR NO KEY UPDATE OF s`;
    if (!row) return fail("NOT_FOUND", WEBHOOK_MSG.notFound, "WEBHOOK_NOT_FOUND");
    const recent = await tx.webhookDelivery.count({
      where: { subscriptionId: row.id, event: "ping", createdAt: { gt: new Date(now.getTime() - WEBHOOK_TEST_INTERVAL_SECONDS * 1_000) } },
    });
    if (recent > 0) fail("RATE_LIMITED", WEBHOOK_MSG.testTooSoon, "WEBHOOK_TEST_TOO_SOON");
    return { deliveryId: await sendPing(tx, { id: row.id, teamId: row.teamId, organizationId: row.organizationId }, actor, now) };
  });
}
