import { resetPasswordInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { resetPassword as setNewPassword } from "../../services/auth.ts";
import { OK, okOutput } from "./outputs.ts";

/** Sets a new password from the emailed link and ends every session of the account. */
export const resetPassword = publicProcedure
  .input(resetPasswordInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    await setNewPassword(ctx, ctx.req, input);
    return OK;
  });
