// The audit trail: one append-only row per audited change, written by audit() inside the
// transaction of the change itself, so a change that rolls back leaves no event and a committed one
// always has its event. Callers say who did what to what; nothing here is ever updated or deleted.
import { Prisma, type DbOrTx } from "@promptly/db";
import type { Actor } from "../access/actor.ts";

/** Every audited action. */
export type AuditAction =
  | "organization.create"
  | "organization.rename"
  | "organization.delete"
  | "organization.settings"
  | "team.create"
  | "team.rename"
  | "team.delete"
  | "team.settings"
  | "member.add"
  | "member.remove"
  | "member.role"
  | "invite.create"
  | "invite.revoke"
  | "invite.accept"
  | "prompt.create"
  | "prompt.rename"
  | "prompt.update"
  | "prompt.archive"
  | "prompt.restore"
  | "prompt.delete"
  | "prompt.version"
  | "prompt.version.delete"
  | "prompt.label.set"
  | "prompt.label.rolled_back"
  | "prompt.label.remove"
  | "prompt.test_case.create"
  | "prompt.test_case.update"
  | "prompt.test_case.delete"
  | "prompt.test_case.import"
  | "change_request.create"
  | "change_request.approve"
  | "change_request.reject"
  | "api_key.create"
  | "api_key.revoke"
  | "webhook.create"
  | "webhook.update"
  | "webhook.delete"
  | "provider.create"
  | "provider.update"
  | "provider.delete"
  | "provider.default"
  | "model_price.set"
  | "two_factor.enable"
  | "two_factor.disable"
  | "super_user.grant"
  | "super_user.revoke"
  | "user.app_role"
  | "ingestion.retry";

export interface AuditEntry {
  /** The organization it happened in; null only for account-level events (two-factor, super user). */
  organizationId: string | null;
  teamId?: string | null;
  actor: Actor;
  action: AuditAction;
  /** What it was done to: a kind, its id, and a name to show even after it is gone. */
  target: { type: string; id: string; name?: string | null };
  /** The state before and after, where it says something (a label's version, a role, a name). */
  before?: unknown;
  after?: unknown;
  /** The client address of the request, when there was one. */
  ip?: string | null;
  /** The prompt it concerns (the prompt's Activity tab); a `prompt` target is its own. */
  promptId?: string | null;
}

/** Who acts and from where, built once per request by the procedure builders and passed to services. */
export interface AuditContext {
  actor: Actor;
  ip: string | null;
  /** The request's time (the services' clock). */
  now: Date;
}

/** audit() with the request's actor, address and time. */
export const auditAs = (db: DbOrTx, context: AuditContext, entry: Omit<AuditEntry, "actor" | "ip">) =>
  audit(db, { ...entry, actor: context.actor, ip: context.ip }, context.now);

const ACTOR_KIND = { user: "user", apiKey: "api_key", cli: "cli" } as const;

/** The name to keep of a target when the caller gives none, read while it still exists. */
const TARGET_NAMES: Record<string, (id: string) => Prisma.Sql> = {
  organization: (id) => Prisma.sql`(SELECT name FROM organizations WHERE id = ${id}::uuid)`,
  team: (id) => Prisma.sql`(SELECT name FROM teams WHERE id = ${id}::uuid)`,
  prompt: (id) => Prisma.sql`(SELECT name FROM prompts WHERE id = ${id}::uuid)`,
  api_key: (id) => Prisma.sql`(SELECT name FROM api_keys WHERE id = ${id}::uuid)`,
  user: (id) => Prisma.sql`(SELECT email FROM users WHERE id = ${id}::uuid)`,
};

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/**
 * Who hears of every audited change, inside the change's transaction (so what they write commits with
 * it or not at all): the webhooks turn it into an event for the team's subscriptions (webhooks/events.ts).
 */
export type AuditListener = (tx: DbOrTx, entry: AuditEntry, now: Date) => Promise<void>;

const auditListeners = new Set<AuditListener>();

/** Adds a listener of audited changes (once per listener, however often it is added). */
export function onAudit(listener: AuditListener): void {
  auditListeners.add(listener);
}

/** Appends `entry` and tells the listeners (the webhooks); pass the transaction of the change. */
export async function audit(db: DbOrTx, entry: AuditEntry, now: Date): Promise<void> {
  const { actor, target } = entry;
  const actorId = actor.kind === "user" ? actor.userId : actor.kind === "apiKey" ? actor.apiKeyId : null;
  const actorName =
    actor.kind === "user"
      ? Prisma.sql`(SELECT COALESCE(NULLIF(p.full_name, ''), u.email) FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = ${actorId}::uuid)`
      : actor.kind === "apiKey"
        ? Prisma.sql`(SELECT name FROM api_keys WHERE id = ${actorId}::uuid)`
        : Prisma.sql`NULL`;
  const lookup = TARGET_NAMES[target.type];
  const targetName = target.name != null ? Prisma.sql`${target.name}` : lookup ? lookup(target.id) : Prisma.sql`NULL`;
  const promptId = entry.promptId ?? (target.type === "prompt" ? target.id : null);
  await db.$executeRaw`
    INSERT INTO audit_events (organization_id, team_id, prompt_id, actor_kind, actor_id, actor_name, action,
                              target_type, target_id, target_name, before, after, ip, created_at)
    VALUES (${entry.organizationId}::uuid, ${entry.teamId ?? null}::uuid, ${promptId}::uuid,
            ${ACTOR_KIND[actor.kind]}::audit_actor_kind, ${actorId}::uuid, ${actorName}, ${entry.action},
            ${target.type}, ${target.id}, ${targetName}, ${json(entry.before)}::jsonb, ${json(entry.after)}::jsonb,
            ${entry.ip ?? null}, ${now})`;
  for (const listener of auditListeners) await listener(db, entry, now);
}
