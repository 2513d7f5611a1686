import { twoFactorCodeInput } from "@promptly/shared";
import { sessionProcedure } from "../../procedures.ts";
import { completeTwoFactorSignIn } from "../../services/identity/two-factor.ts";
import { setSessionCookie } from "../../auth/cookies.ts";
import { clientOf } from "../../request.ts";
import { twoFactorSignInOutput } from "./outputs.ts";

/** The second sign-in step: a code from the authenticator app finishes a pending session. */
export const verifyTwoFactor = sessionProcedure
  .input(twoFactorCodeInput)
  .output(twoFactorSignInOutput)
  .mutation(async ({ ctx, input }) => {
    const { sessionId, firstSignIn } = await completeTwoFactorSignIn(ctx, clientOf(ctx.req), ctx.session, { kind: "totp", code: input.code });
    if (sessionId) setSessionCookie(ctx, ctx.req, sessionId);
    return { status: "signed_in" as const, firstSignIn };
  });
