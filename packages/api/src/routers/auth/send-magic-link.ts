import { emailOnlyInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { mailMagicLink } from "../../services/identity/auth.ts";
import { clientOf } from "../../request.ts";
import { OK, okOutput } from "./outputs.ts";

export const sendMagicLink = publicProcedure
  .input(emailOnlyInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    await mailMagicLink(ctx, clientOf(ctx.req), input);
    return OK;
  });
