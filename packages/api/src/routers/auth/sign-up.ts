import { EMAIL_VERIFICATION_TTL_HOURS, signUpInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { createAccount } from "../../services/identity/auth.ts";
import { bindSignUpBrowser } from "../../auth/cookies.ts";
import { clientOf } from "../../request.ts";
import { OK, okOutput } from "./outputs.ts";

/** Creates an account and mails a verification link; an existing address gets the same answer. */
export const signUp = publicProcedure
  .input(signUpInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    // The browser is marked for every address alike: the answer must not tell them apart.
    const browserHash = bindSignUpBrowser(ctx.req, EMAIL_VERIFICATION_TTL_HOURS * 3_600_000);
    await createAccount(ctx, clientOf(ctx.req), { ...input, browserHash });
    return OK;
  });
