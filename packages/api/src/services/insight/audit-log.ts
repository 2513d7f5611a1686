// Reading the audit trail in keyset pages newest first: an organization's log for its admins and super
// users, and one prompt's activity for whoever reads the prompt.
import { z } from "zod";
import { Prisma, type DbOrTx } from "@promptly/db";
import { AUDIT_PAGE_SIZE, type AuditLogListInput } from "@promptly/shared";

/** name: a person's name, else their address's local part (displayName); email: a person's address, shown on hover. */
const actor = z.object({
  kind: z.enum(["user", "api_key", "cli"]),
  id: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
});

const auditEventItem = z.object({
  id: z.string(),
  createdAt: z.date(),
  action: z.string(),
  actor,
  target: z.object({ type: z.string(), id: z.string(), name: z.string().nullable() }),
  teamId: z.string().nullable(),
  teamName: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
});
export const auditLogPage = z.object({ items: z.array(auditEventItem), nextCursor: z.string().nullable() });
export const auditActor = actor;
/** A prompt's activity: no client addresses (readers of a prompt are not its auditors). */
const promptActivityItem = auditEventItem.omit({ ip: true, teamId: true, teamName: true });
export const promptActivityPage = z.object({ items: z.array(promptActivityItem), nextCursor: z.string().nullable() });

type Row = {
  id: string; createdAt: Date; action: string; actorKind: "user" | "api_key" | "cli"; actorId: string | null; actorName: string | null; actorEmail: string | null;
  targetType: string; targetId: string; targetName: string | null; teamId: string | null; teamName: string | null; before: unknown; after: unknown; ip: string | null;
};

const toItem = (row: Row) => ({
  id: row.id,
  createdAt: row.createdAt,
  action: row.action,
  actor: { kind: row.actorKind, id: row.actorId, name: row.actorName, email: row.actorEmail },
  target: { type: row.targetType, id: row.targetId, name: row.targetName },
  teamId: row.teamId,
  teamName: row.teamName,
  before: row.before,
  after: row.after,
  ip: row.ip,
});

/** A person's name as displayName gives it: the full name, else the address's local part. */
const personName = (userId: Prisma.Sql) => Prisma.sql`
  SELECT COALESCE(NULLIF(btrim(p.full_name), ''), split_part(u.email, '@', 1)) FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = ${userId}`;
const actorEmail = Prisma.sql`CASE e.actor_kind WHEN 'user' THEN (SELECT u.email FROM users u WHERE u.id = e.actor_id) END`;

const COLUMNS = Prisma.sql`
  e.id::text AS id, e.created_at AS "createdAt", e.action, e.actor_kind::text AS "actorKind", e.actor_id::text AS "actorId",
  -- The name the actor has now (a person's: displayName's rule), else the one they had then (they may be gone).
  COALESCE(CASE e.actor_kind WHEN 'user' THEN (${personName(Prisma.sql`e.actor_id`)})
                             WHEN 'api_key' THEN (SELECT k.name FROM api_keys k WHERE k.id = e.actor_id) END, e.actor_name) AS "actorName",
  ${actorEmail} AS "actorEmail",
  e.target_type AS "targetType", e.target_id AS "targetId", e.target_name AS "targetName",
  e.team_id::text AS "teamId", (SELECT t.name FROM teams t WHERE t.id = e.team_id) AS "teamName",
  e.before, e.after, e.ip`;

/** Events after the cursor's event in the pages' order (newest first); `scope` keeps the cursor to the log being paged. */
const afterCursor = (cursor: string, scope: Prisma.Sql) =>
  Prisma.sql`(e.created_at, e.seq) < (SELECT c.created_at, c.seq FROM audit_events c WHERE c.id = ${cursor}::uuid AND ${scope})`;

/** A page of `limit` events out of the `limit + 1` read: the one more says whether a next page exists. */
function toPage(rows: Row[], limit: number) {
  const items = rows.slice(0, limit).map(toItem);
  return { items, nextCursor: rows.length > limit ? items[items.length - 1]!.id : null };
}

/** One page of an organization's events, newest first, filtered; the cursor is the last id of the page before. */
export async function listAuditEvents(db: DbOrTx, input: AuditLogListInput) {
  const limit = input.limit ?? AUDIT_PAGE_SIZE;
  const filters = [Prisma.sql`e.organization_id = ${input.organizationId}::uuid`];
  if (input.actorId) filters.push(Prisma.sql`e.actor_id = ${input.actorId}::uuid`);
  if (input.action) filters.push(Prisma.sql`e.action = ${input.action}`);
  if (input.from) filters.push(Prisma.sql`e.created_at >= ${input.from}`);
  if (input.to) filters.push(Prisma.sql`e.created_at < ${input.to}`);
  if (input.cursor) filters.push(afterCursor(input.cursor, Prisma.sql`c.organization_id = ${input.organizationId}::uuid`));
  const rows = await db.$queryRaw<Row[]>`
    SELECT ${COLUMNS} FROM audit_events e
    WHERE ${Prisma.join(filters, " AND ")}
    ORDER BY e.created_at DESC, e.seq DESC
    LIMIT ${limit + 1}`;
  return toPage(rows, limit);
}

/** Who acted in the organization, for the log's actor filter. */
export async function listAuditActors(db: DbOrTx, organizationId: string) {
  const rows = await db.$queryRaw<{ kind: "user" | "api_key" | "cli"; id: string | null; name: string | null; email: string | null }[]>`
    SELECT DISTINCT ON (e.actor_kind, e.actor_id) e.actor_kind::text AS kind, e.actor_id::text AS id,
           COALESCE(CASE e.actor_kind WHEN 'user' THEN (${personName(Prisma.sql`e.actor_id`)}) END, e.actor_name) AS name, ${actorEmail} AS email
    FROM audit_events e WHERE e.organization_id = ${organizationId}::uuid
    ORDER BY e.actor_kind, e.actor_id, e.created_at DESC`;
  return rows.sort((a, b) => (a.name ?? "").localeCompare(b.name ?? ""));
}

/**
 * One page of a prompt's activity (versions saved, label moves, change-request decisions and its lifecycle),
 * newest first; the cursor is the last id of the page before. Paged because a prompt's events only accumulate.
 */
export async function listPromptActivity(db: DbOrTx, promptId: string, cursor?: string) {
  const filters = [Prisma.sql`e.prompt_id = ${promptId}::uuid`];
  if (cursor) filters.push(afterCursor(cursor, Prisma.sql`c.prompt_id = ${promptId}::uuid`));
  const rows = await db.$queryRaw<Row[]>`
    SELECT ${COLUMNS} FROM audit_events e
    WHERE ${Prisma.join(filters, " AND ")}
    ORDER BY e.created_at DESC, e.seq DESC
    LIMIT ${AUDIT_PAGE_SIZE + 1}`;
  // The procedure's output drops the client address and team (promptActivityPage).
  return toPage(rows, AUDIT_PAGE_SIZE);
}
