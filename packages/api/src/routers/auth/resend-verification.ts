import { EMAIL_VERIFICATION_TTL_HOURS, emailOnlyInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { resendVerificationMail } from "../../services/identity/auth.ts";
import { bindSignUpBrowser } from "../../auth/cookies.ts";
import { clientOf } from "../../request.ts";
import { OK, okOutput } from "./outputs.ts";

export const resendVerification = publicProcedure
  .input(emailOnlyInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    // The new link belongs to this browser (marked for every address: the answer must not tell them apart).
    const browserHash = bindSignUpBrowser(ctx.req, EMAIL_VERIFICATION_TTL_HOURS * 3_600_000);
    await resendVerificationMail(ctx, clientOf(ctx.req), { email: input.email, browserHash });
    return OK;
  });
