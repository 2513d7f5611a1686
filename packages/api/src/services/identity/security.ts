// Security settings of the signed-in user: password change,
// session timeout and the overview the Security page shows.
import { z } from "zod";
import type { Db } from "@promptly/db";
import { LOGIN_HISTORY_SIZE, MSG, SETTINGS_MSG } from "@promptly/shared";
import type { ApiServices } from "../types.ts";
import { fail } from "../../errors.ts";
import { hashToken } from "../../auth/lucia.ts";
import { hashPassword, verifyPassword } from "./auth.ts";
import { remainingRecoveryCodes } from "./two-factor.ts";
import { revokeEmailedLinks } from "./tokens.ts";

/** Current-password guesses per user, so a borrowed session cannot brute-force the password. */
const CHANGE_PASSWORD_LIMIT = { limit: 10, windowMs: 15 * 60_000 };

/**
 * Verifies the current password, stores the new one and ends every other session of the user
 * (the one making the change stays signed in).
 */
export async function changePassword(
  services: Pick<ApiServices, "db" | "now" | "rateLimits" | "config">,
  userId: string,
  currentSessionId: string,
  passwords: { currentPassword: string; newPassword: string },
): Promise<void> {
  const { db } = services;
  if (services.config.rateLimits && !(await services.rateLimits.hit("change-password", CHANGE_PASSWORD_LIMIT, userId)).allowed) {
    fail("RATE_LIMITED", MSG.tooManyRequests);
  }
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } });
  if (!user.passwordHash) return fail("INVALID", SETTINGS_MSG.noPasswordSet);
  if (!(await verifyPassword(user.passwordHash, passwords.currentPassword))) fail("INVALID", SETTINGS_MSG.currentPasswordIncorrect);
  const passwordHash = await hashPassword(passwords.newPassword);
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { passwordHash, passwordChangedAt: services.now() } });
    await tx.session.deleteMany({ where: { userId, id: { not: hashToken(currentSessionId) } } });
    // A reset or magic link mailed before the change must not take the account back.
    await revokeEmailedLinks(tx, userId);
  });
}

/** The idle limit of the user's sessions; enforced on every request (auth/session.ts). */
export async function updateSessionTimeout(db: Db, userId: string, minutes: number): Promise<z.infer<typeof sessionTimeoutSetting>> {
  return db.user.update({ where: { id: userId }, data: { sessionTimeoutMinutes: minutes }, select: { sessionTimeoutMinutes: true } });
}

const loginActivity = z.object({
  id: z.string(),
  date: z.date(),
  device: z.string(),
  location: z.string(),
  method: z.enum(["password", "magic_link"]),
});

export const securityOverview = z.object({
  twoFactorEnabled: z.boolean(),
  recoveryCodesRemaining: z.number(),
  sessionTimeoutMinutes: z.number(),
  hasPassword: z.boolean(),
  /** When the password was last set (its change, else the account's creation); null without a password. */
  passwordChangedAt: z.date().nullable(),
  lastSignInAt: z.date().nullable(),
  emailVerified: z.boolean(),
  recentLogins: z.array(loginActivity),
});
export type SecurityOverview = z.infer<typeof securityOverview>;

export const sessionTimeoutSetting = z.object({ sessionTimeoutMinutes: z.number() });

export async function getSecurityOverview(db: Db, userId: string): Promise<SecurityOverview> {
  const [user, recoveryCodesRemaining] = await Promise.all([
    db.user.findUniqueOrThrow({
      where: { id: userId },
      select: {
        passwordHash: true,
        passwordChangedAt: true,
        createdAt: true,
        lastSignInAt: true,
        emailVerifiedAt: true,
        sessionTimeoutMinutes: true,
        twoFactor: { select: { enabledAt: true } },
        loginEvents: {
          orderBy: { createdAt: "desc" },
          take: LOGIN_HISTORY_SIZE,
          select: { id: true, createdAt: true, device: true, location: true, method: true },
        },
      },
    }),
    remainingRecoveryCodes(db, userId),
  ]);
  const hasPassword = user.passwordHash !== null;
  const twoFactorEnabled = user.twoFactor?.enabledAt != null;
  return {
    twoFactorEnabled,
    recoveryCodesRemaining: twoFactorEnabled ? recoveryCodesRemaining : 0,
    sessionTimeoutMinutes: user.sessionTimeoutMinutes,
    hasPassword,
    passwordChangedAt: hasPassword ? (user.passwordChangedAt ?? user.createdAt) : null,
    lastSignInAt: user.lastSignInAt,
    emailVerified: user.emailVerifiedAt !== null,
    recentLogins: user.loginEvents.map((event) => ({
      id: event.id,
      date: event.createdAt,
      device: event.device,
      location: event.location,
      method: event.method,
    })),
  };
}
