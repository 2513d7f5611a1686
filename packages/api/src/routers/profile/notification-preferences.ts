import { notificationPreferencesInput } from "@promptly/shared";
import { protectedProcedure } from "../../procedures.ts";
import { getNotificationPreferences } from "../../services/notifications/notifications.ts";

/** The caller's notification toggles; the spec defaults when never saved. */
export const notificationPreferences = protectedProcedure
  .output(notificationPreferencesInput)
  .query(({ ctx }) => getNotificationPreferences(ctx.db, ctx.caller.userId));
