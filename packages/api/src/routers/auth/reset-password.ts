import { resetPasswordInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { setPasswordFromLink } from "../../services/identity/auth.ts";
import { clearSessionCookie } from "../../auth/cookies.ts";
import { OK, okOutput } from "./outputs.ts";

/** Sets a new password from the emailed link and ends every session of the account, this browser's too. */
export const resetPassword = publicProcedure
  .input(resetPasswordInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    await setPasswordFromLink(ctx, input);
    clearSessionCookie(ctx, ctx.req);
    return OK;
  });
