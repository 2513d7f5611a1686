import { emailOnlyInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { resendVerification as resend } from "../../services/auth.ts";
import { OK, okOutput } from "./outputs.ts";

export const resendVerification = publicProcedure
  .input(emailOnlyInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    await resend(ctx, ctx.req, input.email);
    return OK;
  });
