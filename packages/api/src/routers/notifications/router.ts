import { router } from "../../trpc.ts";
import { list } from "./list.ts";
import { markOpened } from "./mark-opened.ts";
import { markRead } from "./mark-read.ts";
import { unreadCount } from "./unread-count.ts";

/** The bell. The preferences stay where they were: profile.notificationPreferences. */
export const notificationsRouter = router({ list, unreadCount, markRead, markOpened });
