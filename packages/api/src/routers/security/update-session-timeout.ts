import { z } from "zod";
import { sessionTimeoutInput } from "@promptly/shared";
import { protectedProcedure } from "../../procedures.ts";
import { updateSessionTimeout as save } from "../../services/security.ts";

/** 5 to 120 minutes of inactivity before a session ends. */
export const updateSessionTimeout = protectedProcedure
  .input(sessionTimeoutInput)
  .output(z.object({ sessionTimeoutMinutes: z.number() }))
  .mutation(({ ctx, input }) => save(ctx.db, ctx.viewer.userId, input.minutes));
