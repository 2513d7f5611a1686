import { router } from "../../trpc.ts";
import { get } from "./get.ts";
import { notificationPreferences } from "./notification-preferences.ts";
import { update } from "./update.ts";
import { updateNotificationPreferences } from "./update-notification-preferences.ts";

export const profileRouter = router({ get, update, notificationPreferences, updateNotificationPreferences });
