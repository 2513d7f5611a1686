import { notificationPreferencesInput } from "@promptly/shared";
import { protectedProcedure } from "../../procedures.ts";
import { updateNotificationPreferences as save } from "../../services/notifications/notifications.ts";

export const updateNotificationPreferences = protectedProcedure
  .input(notificationPreferencesInput)
  .output(notificationPreferencesInput)
  .mutation(({ ctx, input }) => save(ctx.db, ctx.caller.userId, input));
