import { z } from "zod";
import { protectedProcedure } from "../../procedures.ts";
import { getSecurityOverview } from "../../services/security.ts";

export const securityOverviewOutput = z.object({
  twoFactorEnabled: z.boolean(),
  recoveryCodesRemaining: z.number(),
  sessionTimeoutMinutes: z.number(),
  hasPassword: z.boolean(),
  passwordChangedAt: z.date().nullable(),
  lastSignInAt: z.date().nullable(),
  emailVerified: z.boolean(),
  recentLogins: z.array(
    z.object({
      id: z.string(),
      date: z.date(),
      device: z.string(),
      location: z.string(),
      method: z.enum(["password", "magic_link"]),
    }),
  ),
});

/** What the Security page shows: two-factor, session timeout, last 5 sign-ins, password age. */
export const overview = protectedProcedure
  .output(securityOverviewOutput)
  .query(({ ctx }) => getSecurityOverview(ctx.db, ctx.viewer.userId));
