// Notification preferences: stored per user; a missing row means the defaults.
import type { DbOrTx } from "@promptly/db";
import type { z } from "zod";
import { NOTIFICATION_DEFAULTS, type notificationPreferencesInput } from "@promptly/shared";

/** The toggles of the Notifications page: the shared form schema is the answer's shape too. */
export type NotificationPreferences = z.infer<typeof notificationPreferencesInput>;

const fields = { emailNotifications: true, pushNotifications: true, inAppNotifications: true, marketingEmails: true } as const;

export async function getNotificationPreferences(db: DbOrTx, userId: string): Promise<NotificationPreferences> {
  const row = await db.notificationPreferences.findUnique({ where: { userId }, select: fields });
  return row ?? { ...NOTIFICATION_DEFAULTS };
}

export async function updateNotificationPreferences(
  db: DbOrTx,
  userId: string,
  preferences: NotificationPreferences,
): Promise<NotificationPreferences> {
  return db.notificationPreferences.upsert({
    where: { userId },
    create: { userId, ...preferences },
    update: preferences,
    select: fields,
  });
}
