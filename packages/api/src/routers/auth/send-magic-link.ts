import { emailOnlyInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { sendMagicLink as mailSignInLink } from "../../services/auth.ts";
import { OK, okOutput } from "./outputs.ts";

export const sendMagicLink = publicProcedure
  .input(emailOnlyInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    await mailSignInLink(ctx, ctx.req, input);
    return OK;
  });
