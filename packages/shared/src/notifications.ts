// The bell's procedures: inputs shared by the server and the web app.
import { z } from "zod";
import { idSchema } from "./validation.ts";

/** A page of the caller's notifications, newest first; `cursor` is the previous page's nextCursor. */
export const notificationsListInput = z.object({ cursor: z.string().max(200).optional() }).optional();

/** Marks the caller's notifications read: those named, or all of them when `ids` is left out. */
export const notificationsMarkReadInput = z.object({ ids: z.array(idSchema).min(1).max(100).optional() }).optional();

/** The app paths just opened (before any redirect): the caller's notifications leading there are read. */
export const notificationsMarkOpenedInput = z.object({ hrefs: z.array(z.string().max(2000)).min(1).max(10) });

/** How often the header asks for the unread count (and on window focus). */
export const NOTIFICATIONS_POLL_MS = 30_000;

export const NOTIFICATION_MSG = {
  /** The settings page's honest line about push. */
  pushNotSent: "Push notifications are not sent yet: this switch only keeps your choice for when they are.",
} as const;
