// The bell: a person's own notifications, newest first, their unread count, marking them
// read; and the notification mail, rendered when it is sent. A notification about a prompt the
// person can no longer read is left out everywhere (the one visibility rule, in the query).
import { Prisma, type DbOrTx } from "@promptly/db";
import { NOTIFICATION_DEFAULTS, resolveAppRole } from "@promptly/shared";
import { z } from "zod";
import { instantSortValue, decodeKeysetCursor, encodeKeysetCursor } from "../platform/keyset-cursor.ts";
import { renderEmail } from "../platform/emails.ts";
import { registerMailRenderer } from "../platform/outbox-mail.ts";
import { notificationHref, notificationText, type NotificationFacts } from "./notification-text.ts";
import { promptVisibility, type Caller } from "../access/visibility.ts";

const PAGE_SIZE = 20;

const notificationItem = z.object({
  id: z.string(),
  kind: z.string(),
  text: z.string(),
  /** The app path it leads to. */
  href: z.string(),
  createdAt: z.date(),
  readAt: z.date().nullable(),
});
type NotificationItem = z.infer<typeof notificationItem>;

export const notificationPage = z.object({ items: z.array(notificationItem), nextCursor: z.string().nullable() });

export const unreadCountResult = z.object({
  count: z.number().int(),
  /** The person's "in-app notifications" preference: the bell is shown only when it is on. */
  enabled: z.boolean(),
});

interface Row extends NotificationFacts {
  id: string;
  createdAt: Date;
  readAt: Date | null;
}

/** `FROM notifications n ${joins} WHERE ${visible}`: rows of `caller` about nothing, or about a prompt they may read. */
function mine(caller: Caller) {
  const prompt = promptVisibility(caller);
  return {
    joins: Prisma.sql`LEFT JOIN prompts p ON p.id = n.prompt_id ${prompt.joins}`,
    visible: Prisma.sql`n.user_id = ${caller.userId}::uuid AND (n.prompt_id IS NULL OR ${prompt.visible})`,
  };
}

const rowColumns = Prisma.sql`n.id::text AS id, n.kind::text AS kind, n.prompt_id::text AS "promptId", n.team_id::text AS "teamId",
  n.comment_id::text AS "commentId", n.change_request_id::text AS "changeRequestId", n.data, n.created_at AS "createdAt", n.read_at AS "readAt"`;

const toItem = (row: Row): NotificationItem => ({
  id: row.id, kind: row.kind, text: notificationText(row), href: notificationHref(row), createdAt: row.createdAt, readAt: row.readAt,
});

/** One page of the caller's in-app notifications, newest first (keyset on created_at, id). */
export async function listNotifications(db: DbOrTx, caller: Caller, cursor: string | undefined): Promise<z.infer<typeof notificationPage>> {
  const { joins, visible } = mine(caller);
  const after = cursor
    ? (({ sortValue: at, id }) => Prisma.sql`(n.created_at, n.id) < (${at}, ${id}::uuid)`)(decodeKeysetCursor(cursor, instantSortValue))
    : Prisma.sql`TRUE`;
  const rows = await db.$queryRaw<Row[]>`
    SELECT ${rowColumns} FROM notifications n ${joins}
    WHERE n.in_app AND ${visible} AND ${after}
    ORDER BY n.created_at DESC, n.id DESC
    LIMIT ${PAGE_SIZE + 1}`;
  const page = rows.slice(0, PAGE_SIZE);
  const last = page.at(-1);
  return { items: page.map(toItem), nextCursor: rows.length > PAGE_SIZE && last ? encodeKeysetCursor(last.createdAt.toISOString(), last.id) : null };
}

export async function countUnread(db: DbOrTx, caller: Caller): Promise<z.infer<typeof unreadCountResult>> {
  const { joins, visible } = mine(caller);
  const [[row], preferences] = await Promise.all([
    db.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count FROM notifications n ${joins} WHERE n.in_app AND n.read_at IS NULL AND ${visible}`,
    db.notificationPreferences.findUnique({ where: { userId: caller.userId }, select: { inAppNotifications: true } }),
  ]);
  return { count: row?.count ?? 0, enabled: preferences?.inAppNotifications ?? NOTIFICATION_DEFAULTS.inAppNotifications };
}

/** Marks the caller's own notifications read: those named (others' ids are ignored), or all. */
export async function markNotificationsRead(db: DbOrTx, userId: string, ids: string[] | undefined, now: Date): Promise<{ updated: number }> {
  const { count } = await db.notification.updateMany({
    where: { userId, inApp: true, readAt: null, ...(ids ? { id: { in: ids } } : {}) },
    data: { readAt: now },
  });
  return { updated: count };
}

/** How many unread notifications an opened page is compared with (the newest). */
const OPENED_MATCH_LIMIT = 500;

/** Whether opening `opened` shows what a notification leads to: the same path, with each of its query values. */
function leadsTo(target: string, opened: string): boolean {
  const base = "http://app.invalid";
  const [want, got] = [new URL(target, base), new URL(opened, base)];
  const path = (url: URL) => url.pathname.replace(/\/+$/, "") || "/";
  return path(want) === path(got) && [...want.searchParams].every(([key, value]) => got.searchParams.get(key) === value);
}

/**
 * Marks read the caller's notifications that lead to a page just opened, however it was reached (the
 * bell, the notification mail's link, a link from elsewhere): having seen it is having read it.
 */
export async function markOpenedNotificationsRead(db: DbOrTx, caller: Caller, hrefs: string[], now: Date): Promise<{ updated: number }> {
  const { joins, visible } = mine(caller);
  const rows = await db.$queryRaw<Row[]>`
    SELECT ${rowColumns} FROM notifications n ${joins}
    WHERE n.in_app AND n.read_at IS NULL AND ${visible}
    ORDER BY n.created_at DESC, n.id DESC
    LIMIT ${OPENED_MATCH_LIMIT}`;
  const ids = rows.filter((row) => hrefs.some((opened) => leadsTo(notificationHref(row), opened))).map((row) => row.id);
  if (!ids.length) return { updated: 0 };
  return markNotificationsRead(db, caller.userId, ids, now);
}

declare module "../platform/outbox-mail.ts" {
  interface MailPayloads {
    /** Whose notifications, and which. */
    notification: NotificationMailPayload;
  }
}

/** What a notification mail's payload holds: whose notifications, and which. */
type NotificationMailPayload = {
  userId: string;
  notificationIds: string[];
};

const absolute = (appUrl: string, path: string) => `${appUrl.replace(/\/+$/, "")}${path}`;

/**
 * The notification mail, as things are when it is sent: only notifications still unread and about
 * things the person may still read; nothing at all when they turned email notifications off or the
 * address changed. One notification: its own subject; several: a digest.
 */
async function renderNotificationMail(
  db: DbOrTx,
  config: { appUrl: string },
  mail: { to: string; payload: NotificationMailPayload },
): Promise<{ subject: string; text: string; html: string } | { skip: string }> {
  const person = await db.user.findUnique({
    where: { id: mail.payload.userId },
    select: {
      email: true, profile: { select: { superUser: true } }, appRole: { select: { role: true } },
      notificationPreferences: { select: { emailNotifications: true } },
    },
  });
  if (!person || person.email !== mail.to) return { skip: "The account or its address changed" };
  if (!(person.notificationPreferences?.emailNotifications ?? NOTIFICATION_DEFAULTS.emailNotifications)) {
    return { skip: "Email notifications are off" };
  }
  const isSuperUser = person.profile?.superUser ?? false;
  const caller: Caller = { userId: mail.payload.userId, isSuperUser, role: resolveAppRole(isSuperUser, person.appRole?.role) };
  const { joins, visible } = mine(caller);
  const ids = mail.payload.notificationIds;
  const rows = ids.length
    ? await db.$queryRaw<Row[]>`
        SELECT ${rowColumns} FROM notifications n ${joins}
        WHERE n.id IN (${Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`))}) AND n.read_at IS NULL AND ${visible}
        ORDER BY n.created_at, n.id`
    : [];
  if (rows.length === 0) return { skip: "Nothing unread to tell" };
  const settings = { label: "Notification settings", url: absolute(config.appUrl, "/settings/notifications") };
  const footnote = "You receive this because email notifications are on. Turn them off in your notification settings.";
  if (rows.length === 1) {
    const text = notificationText(rows[0]!);
    return renderEmail({
      subject: text,
      paragraphs: [`${text}.`],
      action: { label: "Open in Promptly", url: absolute(config.appUrl, notificationHref(rows[0]!)) },
      footnote,
      footerLink: settings,
    });
  }
  return renderEmail({
    subject: `${rows.length} new notifications on Promptly`,
    paragraphs: [`You have ${rows.length} new notifications:`],
    items: rows.map((row) => ({ text: notificationText(row), url: absolute(config.appUrl, notificationHref(row)) })),
    footnote,
    footerLink: settings,
  });
}

registerMailRenderer("notification", (mail, { db, config }) => renderNotificationMail(db, config, mail));
