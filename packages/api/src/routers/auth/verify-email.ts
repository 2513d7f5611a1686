import { verifyEmailInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { confirmEmailAddress } from "../../services/identity/auth.ts";
import { signUpBrowserHash } from "../../auth/cookies.ts";
import { clientOf } from "../../request.ts";
import { verifyEmailOutput } from "./outputs.ts";

/**
 * Consumes the emailed verification token (the confirm page's button, never the link itself). From
 * another browser than the sign-up's, the account's password is needed too (PASSWORD_REQUIRED).
 */
export const verifyEmail = publicProcedure
  .input(verifyEmailInput)
  .output(verifyEmailOutput)
  .mutation(async ({ ctx, input }) => ({
    ok: true as const,
    ...(await confirmEmailAddress(ctx, clientOf(ctx.req), { ...input, browserHash: signUpBrowserHash(ctx.req) })),
  }));
