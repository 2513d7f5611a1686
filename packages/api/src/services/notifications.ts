// Notification preferences (spec 2 Notifications, 3): stored per user; a missing row means the defaults.
import type { DbOrTx } from "@promptly/db";
import { NOTIFICATION_DEFAULTS } from "@promptly/shared";

export interface NotificationPreferences {
  emailNotifications: boolean;
  pushNotifications: boolean;
  inAppNotifications: boolean;
  marketingEmails: boolean;
}

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
