import { changePasswordInput } from "@promptly/shared";
import { protectedProcedure } from "../../procedures.ts";
import { changePassword as change } from "../../services/identity/security.ts";

/** Verifies the current password; the user's other sessions end. */
export const changePassword = protectedProcedure
  .input(changePasswordInput)
  .mutation(async ({ ctx, input }) => {
    await change(ctx, ctx.caller.userId, ctx.session.id, input);
  });
