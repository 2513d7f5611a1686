import { signUpInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { signUp as createAccount } from "../../services/auth.ts";
import { OK, okOutput } from "./outputs.ts";

/** Creates an account and mails a verification link; an existing address gets the same answer. */
export const signUp = publicProcedure
  .input(signUpInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    await createAccount(ctx, ctx.req, input);
    return OK;
  });
