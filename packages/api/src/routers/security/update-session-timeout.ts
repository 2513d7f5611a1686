import { sessionTimeoutInput } from "@promptly/shared";
import { protectedProcedure } from "../../procedures.ts";
import { sessionTimeoutSetting, updateSessionTimeout as save } from "../../services/identity/security.ts";

/** 5 to 120 minutes of inactivity before a session ends. */
export const updateSessionTimeout = protectedProcedure
  .input(sessionTimeoutInput)
  .output(sessionTimeoutSetting)
  .mutation(({ ctx, input }) => save(ctx.db, ctx.caller.userId, input.minutes));
