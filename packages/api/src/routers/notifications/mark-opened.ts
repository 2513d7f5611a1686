import { notificationsMarkOpenedInput } from "@promptly/shared";
import { z } from "zod";
import { protectedProcedure } from "../../procedures.ts";
import { markOpenedNotificationsRead } from "../../services/notifications/notification-inbox.ts";

/** Marks read the caller's notifications that lead to the pages just opened. */
export const markOpened = protectedProcedure
  .input(notificationsMarkOpenedInput)
  .output(z.object({ updated: z.number().int() }))
  .mutation(({ ctx, input }) => markOpenedNotificationsRead(ctx.db, ctx.caller, input.hrefs, ctx.now()));
