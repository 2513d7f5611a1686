import { recoveryCodeInput } from "@promptly/shared";
import { sessionProcedure } from "../../procedures.ts";
import { completeTwoFactorSignIn } from "../../services/two-factor.ts";
import { twoFactorSignInOutput } from "./verify-two-factor.ts";

/** The second sign-in step with a one-time recovery code instead of the authenticator. */
export const verifyRecoveryCode = sessionProcedure
  .input(recoveryCodeInput)
  .output(twoFactorSignInOutput)
  .mutation(async ({ ctx, input }) => {
    await completeTwoFactorSignIn(ctx, ctx.req, ctx.session, { kind: "recovery", code: input.code });
    return { status: "signed_in" as const };
  });
