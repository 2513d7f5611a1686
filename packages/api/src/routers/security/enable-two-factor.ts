import { z } from "zod";
import { twoFactorCodeInput } from "@promptly/shared";
import { protectedProcedure } from "../../procedures.ts";
import { enableTwoFactor as enable } from "../../services/two-factor.ts";

/** Verifies the first code; returns the one-time recovery codes, shown once. */
export const enableTwoFactor = protectedProcedure
  .input(twoFactorCodeInput)
  .output(z.object({ recoveryCodes: z.array(z.string()) }))
  .mutation(({ ctx, input }) => enable(ctx, ctx.viewer.userId, input.code));
