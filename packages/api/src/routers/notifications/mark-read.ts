import { notificationsMarkReadInput } from "@promptly/shared";
import { z } from "zod";
import { protectedProcedure } from "../../procedures.ts";
import { markNotificationsRead } from "../../services/notifications/notification-inbox.ts";

/** Marks the caller's own notifications read: those named, or all when no ids are given. */
export const markRead = protectedProcedure
  .input(notificationsMarkReadInput)
  .output(z.object({ updated: z.number().int() }))
  .mutation(({ ctx, input }) => markNotificationsRead(ctx.db, ctx.caller.userId, input?.ids, ctx.now()));
