// Webhook events: what a change of the team's prompts sends to its subscriptions. Emitted from the one
// place every write passes through (the audit entry of the change: this module listens to insight/audit.ts;
// a comment, which is not audited, from its service), inside the change's transaction: each matching subscription gets
// a delivery row and a job, committed with the change or not at all, whatever the transport was
// (tRPC, the REST API, MCP, the Langfuse-compatible API).
import { randomUUID } from "node:crypto";
import { Prisma, type DbOrTx } from "@promptly/db";
import type { WebhookEvent } from "@promptly/shared";
import type { Actor } from "../access/actor.ts";
import { onAudit, type AuditEntry } from "../insight/audit.ts";
import { queueDeliveryJobs } from "./jobs.ts";

/** Who did it, as the receiver reads it. */
interface EventActor {
  kind: "user" | "apiKey" | "cli";
  id: string | null;
  name: string | null;
}

/** What every delivery's body carries (the `data` depends on the type). */
export interface WebhookPayload {
  id: string;
  /** An event, or `ping`: a test sent on request from the Webhooks card. */
  type: WebhookEvent | "ping";
  createdAt: string;
  organizationId: string;
  teamId: string;
  data: Record<string, unknown> & { actor: EventActor; prompt: { id: string; name: string | null } | null };
}

/** The audit actions that are webhook events. */
const EVENT_OF_ACTION: Record<string, WebhookEvent> = {
  "prompt.create": "prompt.created",
  "prompt.version": "prompt.version.created",
  "prompt.label.set": "prompt.label.moved",
  "prompt.label.rolled_back": "prompt.label.moved",
  "prompt.archive": "prompt.archived",
  "prompt.delete": "prompt.deleted",
  "prompt.version.delete": "prompt.version.deleted",
  "change_request.create": "changeRequest.opened",
  "change_request.approve": "changeRequest.approved",
  "change_request.reject": "changeRequest.rejected",
};

const record = (value: unknown): Record<string, unknown> => (value && typeof value === "object" ? (value as Record<string, unknown>) : {});

/** The event's own facts, from the audit entry's before and after. */
function dataOf(event: WebhookEvent, entry: AuditEntry): Record<string, unknown> {
  const before = record(entry.before);
  const after = record(entry.after);
  switch (event) {
    case "prompt.created":
      return { version: after.version ?? null };
    case "prompt.version.created":
      return { version: after.version ?? null, commitMessage: after.commitMessage ?? "" };
    case "prompt.label.moved":
      // A split label names its candidate beside its version (`split: { version, weight }`), a split that
      // ended names what it was (`previousSplit`), and a rollback to a version that held the label says so.
      return {
        label: after.label,
        version: after.version,
        previousVersion: before.version ?? null,
        ...(after.split ? { split: after.split } : {}),
        ...(before.split ? { previousSplit: before.split } : {}),
        ...(entry.action === "prompt.label.rolled_back" ? { rollback: true } : {}),
      };
    case "prompt.version.deleted":
      return { versions: before.versions ?? [], labels: before.labels ?? [] };
    case "changeRequest.opened":
    case "changeRequest.approved":
    case "changeRequest.rejected":
      return {
        changeRequest: {
          id: entry.target.id,
          title: entry.target.name ?? null,
          label: after.label ?? before.label ?? null,
          baseVersion: before.version ?? null,
          // A request made while the label was split (to end it, or split it anew) names that split.
          ...(before.split ? { baseSplit: before.split } : {}),
          proposedVersion: after.version ?? null,
          ...(typeof after.weight === "number" ? { proposedWeight: after.weight } : {}),
          ...(after.archive ? { archive: true } : {}),
          ...(after.status !== undefined ? { status: after.status } : {}),
          ...(after.approvals !== undefined ? { approvals: after.approvals, approvalsNeeded: after.approvalsNeeded } : {}),
        },
        ...(typeof after.message === "string" ? { message: after.message } : {}),
        ...(typeof after.comment === "string" ? { comment: after.comment } : {}),
      };
    default:
      return {};
  }
}

/** The webhook event of an audit entry, if it is one; heard from audit() in the change's transaction. */
async function emitAuditEvent(tx: DbOrTx, entry: AuditEntry, now: Date): Promise<void> {
  const type = EVENT_OF_ACTION[entry.action];
  if (!type || !entry.organizationId || !entry.teamId) return;
  const promptId = entry.promptId ?? (entry.target.type === "prompt" ? entry.target.id : null);
  const promptName = entry.target.type === "prompt" ? (entry.target.name ?? null) : null;
  await emitWebhookEvent(tx, { type, organizationId: entry.organizationId, teamId: entry.teamId, actor: entry.actor, promptId, promptName, data: dataOf(type, entry) }, now);
}

export interface EmittedEvent {
  type: WebhookEvent | "ping";
  organizationId: string;
  teamId: string;
  actor: Actor;
  promptId: string | null;
  /** The prompt's name when the caller knows it (read from the prompt otherwise, while it still exists). */
  promptName?: string | null;
  data: Record<string, unknown>;
}

/** One delivery (and its job) per active subscription of the team that asks for the event, in `tx`. */
export async function emitWebhookEvent(tx: DbOrTx, event: EmittedEvent & { type: WebhookEvent }, now: Date): Promise<void> {
  const subscriptions = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM webhook_subscriptions WHERE team_id = ${event.teamId}::uuid AND active AND ${event.type} = ANY(events)`;
  if (subscriptions.length) await deliver(tx, subscriptions.map((s) => s.id), event, now);
}

/** A `ping` to one subscription (its Send test button), whatever events it asks for; the delivery's id. */
export async function sendPing(tx: DbOrTx, subscription: { id: string; organizationId: string; teamId: string }, actor: Actor, now: Date): Promise<string> {
  const [id] = await deliver(tx, [subscription.id], { type: "ping", organizationId: subscription.organizationId, teamId: subscription.teamId, actor, promptId: null, data: { webhookId: subscription.id } }, now);
  return id!;
}

async function deliver(tx: DbOrTx, subscriptionIds: string[], event: EmittedEvent, now: Date): Promise<string[]> {
  const [facts] = await tx.$queryRaw<{ promptName: string | null; actorName: string | null }[]>`
    SELECT (SELECT name FROM prompts WHERE id = ${event.promptId}::uuid) AS "promptName",
           ${actorNameSql(event.actor)} AS "actorName"`;
  const payload: WebhookPayload = {
    id: randomUUID(),
    type: event.type,
    createdAt: now.toISOString(),
    organizationId: event.organizationId,
    teamId: event.teamId,
    data: {
      prompt: event.promptId ? { id: event.promptId, name: event.promptName ?? facts?.promptName ?? null } : null,
      ...event.data,
      actor: actorOf(event.actor, facts?.actorName ?? null),
    },
  };
  const json = JSON.stringify(payload);
  const deliveries = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO webhook_deliveries (subscription_id, event, payload, status, next_attempt_at, created_at, updated_at)
    SELECT s.id, ${event.type}, ${json}::jsonb, 'pending', now(), ${now}, ${now}
    FROM unnest(${subscriptionIds}::uuid[]) AS s(id)
    RETURNING id::text`;
  await queueDeliveryJobs(tx, deliveries.map((d) => d.id));
  return deliveries.map((d) => d.id);
}

const actorNameSql = (actor: Actor) =>
  actor.kind === "user"
    ? Prisma.sql`(SELECT COALESCE(NULLIF(p.full_name, ''), u.email) FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = ${actor.userId}::uuid)`
    : actor.kind === "apiKey"
      ? Prisma.sql`(SELECT name FROM api_keys WHERE id = ${actor.apiKeyId}::uuid)`
      : Prisma.sql`NULL::text`;

const actorOf = (actor: Actor, name: string | null): EventActor =>
  actor.kind === "user" ? { kind: "user", id: actor.userId, name } : actor.kind === "apiKey" ? { kind: "apiKey", id: actor.apiKeyId, name } : { kind: "cli", id: null, name: null };

onAudit(emitAuditEvent);
