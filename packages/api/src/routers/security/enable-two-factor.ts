import { twoFactorCodeInput } from "@promptly/shared";
import { protectedProcedure } from "../../procedures.ts";
import { enableTwoFactor as enable, recoveryCodesIssued } from "../../services/identity/two-factor.ts";

/** Verifies the first code; returns the one-time recovery codes, shown once. */
export const enableTwoFactor = protectedProcedure
  .input(twoFactorCodeInput)
  .output(recoveryCodesIssued)
  .mutation(({ ctx, input }) => enable(ctx, ctx.caller.userId, input.code, ctx.audit));
