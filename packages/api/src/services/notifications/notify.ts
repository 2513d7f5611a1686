// What happened that someone may want to hear of: the one entry point every feature calls,
// inside the transaction of the change itself, so a notification exists exactly when the change does.
// Who hears of it (the prompt's author and bookmarkers, the mentioned, the reviewers, ...), minus the
// actor and anyone who can no longer read the thing, and whether it also goes out by mail, is decided
// here from each person's preferences; callers only say what happened.
import { inTransaction, Prisma, type DbOrTx, type DbTransaction, type NotificationKind } from "@promptly/db";
import { NOTIFICATION_DEFAULTS, accessOf, can, displayName, resolveAppRole, type OrganizationRole, type TeamRole } from "@promptly/shared";
import { holderSql, organizationVisibility, promptVisibility, teamVisibility, type Caller } from "../access/visibility.ts";
import type { NotificationData } from "./notification-text.ts";
import { queueMailJob } from "../platform/outbox.ts";

/**
 * One event. `actorId` is who did it (null: an API key, nobody to name). Links in the app:
 * comments `/prompts/<promptId>?tab=comments&comment=<commentId>`, change requests
 * `/reviews/<changeRequestId>`, a label move `/prompts/<promptId>?tab=history`.
 */
export type NotificationEvent =
  /** A new top-level comment (or a reply) on a prompt: its author and bookmarkers hear of it. */
  | { kind: "comment"; promptId: string; commentId: string; actorId: string }
  /** A reply: the author of the comment replied to. */
  | { kind: "reply"; promptId: string; commentId: string; parentAuthorId: string; actorId: string }
  /** People named with @ in a comment (new mentions only, also after an edit). */
  | { kind: "mention"; promptId: string; commentId: string; mentionedUserIds: string[]; actorId: string }
  /** A change request waiting for review: the team's reviewers (team admin level) hear of it. */
  | { kind: "review_requested"; changeRequestId: string; promptId: string; teamId: string; actorId: string }
  /** A decision on a change request: its author hears of it. */
  | {
      kind: "review_decided";
      changeRequestId: string;
      promptId: string;
      requesterId: string;
      decision: "approved" | "rejected" | "merged" | "archived";
      actorId: string;
    }
  /**
   * `production` now points at `version`: the prompt's author and bookmarkers hear of it. `split`: it kept
   * `version` and started serving that candidate beside it; `rollback`: it went back to a version that held it.
   */
  | { kind: "production_moved"; promptId: string; version: number; split?: { version: number; weight: number }; rollback?: boolean; actorId: string | null }
  /** Someone was added to a team. */
  | { kind: "team_added"; teamId: string; userId: string; actorId: string }
  /** An invitation was accepted: whoever sent it hears of it. */
  | { kind: "invite_accepted"; teamId: string | null; organizationId: string; inviterId: string; actorId: string };

/** How long a notification mail waits for more notifications of the same person (one digest for all). */
let digestDelayMs = 120_000;

/** Set once at start-up (NOTIFICATION_DIGEST_SECONDS); the default suits a real installation. */
export function configureNotificationMail(options: { digestSeconds: number }): void {
  digestDelayMs = options.digestSeconds * 1000;
}

/**
 * Several notifications on one comment reach a person once: a mention outranks a reply, which
 * outranks a comment on a prompt they follow. The higher one replaces the lower (as unread again).
 */
const COMMENT_RANK: Partial<Record<NotificationKind, number>> = { comment: 1, reply: 2, mention: 3 };

/**
 * Records `event` for everyone who should hear of it. Pass the transaction of the change: a change
 * that rolls back leaves no notification and no mail.
 */
export async function notify(db: DbOrTx, event: NotificationEvent, now: Date): Promise<void> {
  await inTransaction(db, async (tx) => {
    const candidates = new Set(await candidatesOf(tx, event));
    if (event.actorId) candidates.delete(event.actorId);
    if (candidates.size === 0) return;
    const readers = await whoMayRead(tx, event, [...candidates]);
    if (readers.length === 0) return;
    const data = await dataOf(tx, event);
    const ids = idsOf(event);
    for (const reader of readers) {
      if (!reader.inApp && !reader.email) continue;
      const id = await record(tx, event, ids, data, reader, now);
      if (id && reader.email) await addToMail(tx, reader, id, now);
    }
  });
}

/** Who would hear of it before the actor and readability are taken out. */
async function candidatesOf(tx: DbTransaction, event: NotificationEvent): Promise<string[]> {
  switch (event.kind) {
    case "comment":
    case "production_moved":
      return followersOf(tx, event.promptId);
    case "reply":
      return [event.parentAuthorId];
    case "mention":
      return event.mentionedUserIds;
    case "review_requested":
      return reviewersOf(tx, event.teamId);
    case "review_decided":
      return [event.requesterId];
    case "team_added":
      return [event.userId];
    case "invite_accepted":
      return [event.inviterId];
  }
}

/** The prompt's author and everyone who bookmarked it. */
async function followersOf(tx: DbTransaction, promptId: string): Promise<string[]> {
  const prompt = await tx.prompt.findUnique({ where: { id: promptId }, select: { authorId: true, bookmarks: { select: { userId: true } } } });
  if (!prompt) return [];
  return [...(prompt.authorId ? [prompt.authorId] : []), ...prompt.bookmarks.map((b) => b.userId)];
}

/**
 * Everyone at team admin level for the team by the permission table (`prompt.label.protected`: the
 * team's admins and its organization's admins). Super users count only when they belong to the team
 * or its organization: they may approve anywhere, but hearing of every request everywhere is noise.
 */
async function reviewersOf(tx: DbTransaction, teamId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<{ userId: string; teamRole: TeamRole | null; organizationRole: OrganizationRole | null; superUser: boolean | null; role: string | null }[]>`
    WITH team AS (SELECT id, organization_id FROM teams WHERE id = ${teamId}::uuid),
    people AS (
      SELECT tm.user_id FROM team_members tm JOIN team ON tm.team_id = team.id
      UNION
      SELECT om.user_id FROM organization_members om JOIN team ON om.organization_id = team.organization_id)
    SELECT x.user_id::text AS "userId", tm.role::text AS "teamRole", om.role::text AS "organizationRole", p.super_user AS "superUser", ur.role::text AS role
    FROM people x
    CROSS JOIN team
    LEFT JOIN team_members tm ON tm.team_id = team.id AND tm.user_id = x.user_id
    LEFT JOIN organization_members om ON om.organization_id = team.organization_id AND om.user_id = x.user_id
    LEFT JOIN profiles p ON p.user_id = x.user_id
    LEFT JOIN user_roles ur ON ur.user_id = x.user_id`;
  return rows
    .filter((row) => {
      const isSuperUser = row.superUser ?? false;
      const caller = { role: resolveAppRole(isSuperUser, row.role), isSuperUser };
      return can(accessOf(caller, { teamRole: row.teamRole, organizationRole: row.organizationRole }), "prompt.label.protected");
    })
    .map((row) => row.userId);
}

interface Reader {
  userId: string;
  address: string;
  /** Shown in the app (the bell). */
  inApp: boolean;
  /** Also sent by email. */
  email: boolean;
}

/**
 * The candidates who may read the thing now, by the one visibility rule of visibility.ts applied to
 * each of them (one statement), with their notification preferences.
 */
async function whoMayRead(tx: DbTransaction, event: NotificationEvent, userIds: string[]): Promise<Reader[]> {
  const people = await tx.user.findMany({
    where: { id: { in: userIds } },
    select: {
      id: true, email: true,
      profile: { select: { superUser: true } },
      appRole: { select: { role: true } },
      notificationPreferences: { select: { inAppNotifications: true, emailNotifications: true } },
    },
  });
  if (people.length === 0) return [];
  const callers: Caller[] = people.map((person) => {
    const isSuperUser = person.profile?.superUser ?? false;
    return { userId: person.id, isSuperUser, role: resolveAppRole(isSuperUser, person.appRole?.role) };
  });
  const checks = callers.map((caller) => readableBy(caller, event));
  const rows = await tx.$queryRaw<{ id: string }[]>`${Prisma.join(checks, " UNION ALL ")}`;
  const allowed = new Set(rows.map((row) => row.id));
  return people
    .filter((person) => allowed.has(person.id))
    .sort((a, b) => userIds.indexOf(a.id) - userIds.indexOf(b.id))
    .map((person) => {
      const preferences = person.notificationPreferences ?? {
        inAppNotifications: NOTIFICATION_DEFAULTS.inAppNotifications,
        emailNotifications: NOTIFICATION_DEFAULTS.emailNotifications,
      };
      return {
        userId: person.id,
        address: person.email,
        inApp: preferences.inAppNotifications,
        email: preferences.emailNotifications,
      };
    });
}

/** `SELECT <caller's id>` when the caller may read what the event is about (a prompt, a team, an organization). */
function readableBy(caller: Caller, event: NotificationEvent): Prisma.Sql {
  const id = Prisma.sql`${caller.userId}::text AS id`;
  if (event.kind === "team_added" || (event.kind === "invite_accepted" && event.teamId)) {
    const teamId = event.kind === "team_added" ? event.teamId : event.teamId!;
    const { joins, visible } = teamVisibility(caller);
    return Prisma.sql`(SELECT ${id} FROM teams t ${joins} WHERE t.id = ${teamId}::uuid AND ${visible})`;
  }
  if (event.kind === "invite_accepted") {
    const { joins, visible } = organizationVisibility(caller);
    return Prisma.sql`(SELECT ${id} FROM organizations o ${joins} WHERE o.id = ${event.organizationId}::uuid AND ${visible})`;
  }
  const { joins, visible } = promptVisibility(caller);
  return Prisma.sql`(SELECT ${id} FROM prompts p ${joins} WHERE p.id = ${event.promptId}::uuid AND ${visible})`;
}

/** The ids a notification row keeps (its links), per event. */
function idsOf(event: NotificationEvent) {
  switch (event.kind) {
    case "comment":
    case "reply":
    case "mention":
      return { promptId: event.promptId, commentId: event.commentId };
    case "review_requested":
    case "review_decided":
      return { promptId: event.promptId, changeRequestId: event.changeRequestId };
    case "production_moved":
      return { promptId: event.promptId };
    case "team_added":
      return { teamId: event.teamId };
    case "invite_accepted":
      return { teamId: event.teamId };
  }
}

/** What the text needs, as it is now: names change later, the notification says what happened then. */
async function dataOf(tx: DbTransaction, event: NotificationEvent): Promise<NotificationData> {
  const actor = event.actorId
    ? await tx.user.findUnique({ where: { id: event.actorId }, select: { email: true, profile: { select: { fullName: true } } } })
    : null;
  const data: NotificationData = { actorName: actor ? displayName(actor.profile?.fullName, actor.email) : null };
  if ("promptId" in event) {
    const prompt = await tx.prompt.findUnique({ where: { id: event.promptId }, select: { name: true } });
    data.promptName = prompt?.name ?? "a prompt";
  }
  if (event.kind === "production_moved") {
    data.version = event.version;
    if (event.split) data.split = event.split;
    if (event.rollback) data.rollback = true;
  }
  if (event.kind === "review_decided") data.decision = event.decision;
  if (event.kind === "team_added" || event.kind === "invite_accepted") {
    const team = event.teamId ? await tx.team.findUnique({ where: { id: event.teamId }, select: { name: true, organizationId: true } }) : null;
    if (team) {
      data.teamName = team.name;
      data.organizationId = team.organizationId;
    }
  }
  if (event.kind === "invite_accepted") {
    const organization = await tx.organization.findUnique({ where: { id: event.organizationId }, select: { name: true } });
    data.organizationName = organization?.name ?? "your organization";
    data.organizationId = event.organizationId;
    // The inviter lands on the Teams page when they may open it, else on the dashboard.
    const inviter = await tx.$queryRaw<{ teamsPage: boolean }[]>`
      SELECT ${holderSql("page.teams", { userId: Prisma.sql`${event.inviterId}::uuid`, organizationId: Prisma.sql`${event.organizationId}::uuid` })} AS "teamsPage"`;
    data.teamsPage = inviter[0]?.teamsPage ?? false;
  }
  return data;
}

/**
 * Writes the reader's notification and returns its id, or null when they already have one that says
 * as much (the same comment reached them as a mention already).
 */
async function record(
  tx: DbTransaction,
  event: NotificationEvent,
  ids: ReturnType<typeof idsOf>,
  data: NotificationData,
  reader: Reader,
  now: Date,
): Promise<string | null> {
  const rank = COMMENT_RANK[event.kind];
  if (rank !== undefined && "commentId" in ids) {
    const existing = await tx.notification.findFirst({
      where: { userId: reader.userId, commentId: ids.commentId, kind: { in: ["comment", "reply", "mention"] } },
      select: { id: true, kind: true },
    });
    if (existing) {
      if ((COMMENT_RANK[existing.kind] ?? 0) >= rank) return null;
      await tx.notification.update({
        where: { id: existing.id },
        data: { kind: event.kind, data, actorId: event.actorId, readAt: null, createdAt: now, inApp: reader.inApp },
      });
      return existing.id;
    }
  }
  const row = await tx.notification.create({
    data: {
      userId: reader.userId, kind: event.kind, actorId: event.actorId, ...ids, data, inApp: reader.inApp, createdAt: now,
    },
    select: { id: true },
  });
  return row.id;
}

/**
 * Queues the notification's mail: added to the reader's notification mail still waiting to go out
 * (a digest), else a new one that waits `digestDelayMs` for more. The waiting message is locked so a
 * worker cannot claim it meanwhile; one a worker holds already is skipped (SKIP LOCKED) and a new
 * message is queued instead, so nothing is added to a mail on its way.
 */
async function addToMail(tx: DbTransaction, reader: Reader, notificationId: string, now: Date): Promise<void> {
  const [waiting] = await tx.$queryRaw<{ id: string; ids: string[] }[]>`
    SELECT id::text AS id, ARRAY(SELECT jsonb_array_elements_text(payload->'notificationIds')) AS ids
    FROM outbox
    WHERE kind = 'notification' AND status = 'pending' AND attempts = 0 AND locked_until IS NULL
      AND payload->>'userId' = ${reader.userId} AND recipient = ${reader.address}
    ORDER BY created_at
    LIMIT 1
    FOR UPDATE SKIP LOCKED`;
  if (waiting) {
    if (waiting.ids.includes(notificationId)) return;
    await tx.outboxMessage.update({
      where: { id: waiting.id },
      data: { payload: { userId: reader.userId, notificationIds: [...waiting.ids, notificationId] } },
    });
    return;
  }
  const due = new Date(now.getTime() + digestDelayMs);
  const message = await tx.outboxMessage.create({
    data: {
      kind: "notification",
      recipient: reader.address,
      payload: { userId: reader.userId, notificationIds: [notificationId] },
      nextAttemptAt: due,
      createdAt: now,
    },
    select: { id: true },
  });
  await queueMailJob(tx, message.id, due, now);
}
