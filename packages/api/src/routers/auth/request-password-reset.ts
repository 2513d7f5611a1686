import { emailOnlyInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { requestPasswordReset as mailResetLink } from "../../services/auth.ts";
import { OK, okOutput } from "./outputs.ts";

export const requestPasswordReset = publicProcedure
  .input(emailOnlyInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    await mailResetLink(ctx, ctx.req, input.email);
    return OK;
  });
