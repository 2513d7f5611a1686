import { emailOnlyInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { mailPasswordResetLink } from "../../services/identity/auth.ts";
import { clientOf } from "../../request.ts";
import { OK, okOutput } from "./outputs.ts";

export const requestPasswordReset = publicProcedure
  .input(emailOnlyInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    await mailPasswordResetLink(ctx, clientOf(ctx.req), input.email);
    return OK;
  });
