import { protectedProcedure } from "../../procedures.ts";
import { startTwoFactorSetup, twoFactorSetup } from "../../services/identity/two-factor.ts";

/** A new TOTP secret (QR code and text), pending until enableTwoFactor verifies a first code. */
export const setupTwoFactor = protectedProcedure
  .output(twoFactorSetup)
  .mutation(({ ctx }) => startTwoFactorSetup(ctx, ctx.caller.userId, ctx.user.email));
