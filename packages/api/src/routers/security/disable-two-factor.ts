import { twoFactorCodeInput } from "@promptly/shared";
import { protectedProcedure } from "../../procedures.ts";
import { disableTwoFactor as disable } from "../../services/identity/two-factor.ts";

/** Needs a current code from the authenticator. */
export const disableTwoFactor = protectedProcedure.input(twoFactorCodeInput).mutation(async ({ ctx, input }) => {
  await disable(ctx, ctx.caller.userId, input.code, ctx.audit);
});
