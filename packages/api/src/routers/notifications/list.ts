import { notificationsListInput } from "@promptly/shared";
import { protectedProcedure } from "../../procedures.ts";
import { listNotifications, notificationPage } from "../../services/notifications/notification-inbox.ts";

/** The caller's own notifications, newest first, a page at a time. */
export const list = protectedProcedure
  .input(notificationsListInput)
  .output(notificationPage)
  .query(({ ctx, input }) => listNotifications(ctx.db, ctx.caller, input?.cursor));
