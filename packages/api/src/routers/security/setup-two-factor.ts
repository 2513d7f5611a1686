import { z } from "zod";
import { protectedProcedure } from "../../procedures.ts";
import { startTwoFactorSetup } from "../../services/two-factor.ts";

/** A new TOTP secret (QR code and text), pending until enableTwoFactor verifies a first code. */
export const setupTwoFactor = protectedProcedure
  .output(z.object({ secret: z.string(), otpauthUrl: z.string(), qrCodeDataUrl: z.string() }))
  .mutation(({ ctx }) => startTwoFactorSetup(ctx, ctx.viewer.userId, ctx.user.email));
