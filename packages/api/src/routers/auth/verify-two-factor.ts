import { z } from "zod";
import { twoFactorCodeInput } from "@promptly/shared";
import { sessionProcedure } from "../../procedures.ts";
import { completeTwoFactorSignIn } from "../../services/two-factor.ts";

export const twoFactorSignInOutput = z.object({ status: z.literal("signed_in") });

/** The second sign-in step: a code from the authenticator app finishes a pending session. */
export const verifyTwoFactor = sessionProcedure
  .input(twoFactorCodeInput)
  .output(twoFactorSignInOutput)
  .mutation(async ({ ctx, input }) => {
    await completeTwoFactorSignIn(ctx, ctx.req, ctx.session, { kind: "totp", code: input.code });
    return { status: "signed_in" as const };
  });
