import { protectedProcedure } from "../../procedures.ts";
import { countUnread, unreadCountResult } from "../../services/notifications/notification-inbox.ts";

/** How many of the caller's notifications are unread, and whether they want the bell at all. */
export const unreadCount = protectedProcedure.output(unreadCountResult).query(({ ctx }) => countUnread(ctx.db, ctx.caller));
