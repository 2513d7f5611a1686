// Real two-factor authentication: TOTP of RFC 6238 (SHA-1, 30 s, 6 digits), the secret
// encrypted at rest with AES-256-GCM, a code accepted one step either side and never twice, five
// failures blocking code entry for 30 minutes, and single-use recovery codes stored hashed.
import { z } from "zod";
import { randomBytes } from "node:crypto";
import { createTOTPKeyURI, verifyHOTP } from "@oslojs/otp";
import { encodeBase32LowerCaseNoPadding, encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import type { Db } from "@promptly/db";
import { MSG, SETTINGS_MSG, TWO_FACTOR_CODE_LENGTH, normalizeRecoveryCode } from "@promptly/shared";
import type { ApiServices, ClientInfo } from "../types.ts";
import { fail } from "../../errors.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";
import { hashToken } from "../../auth/lucia.ts";
import { recordSignIn, type SignInMethod } from "./auth.ts";
import { revokeEmailedLinks } from "./tokens.ts";
import { openSecret, sealSecret } from "../platform/secret-box.ts";

const TOTP_PERIOD_SECONDS = 30;
const TWO_FACTOR_MAX_FAILURES = 5;
const TWO_FACTOR_LOCK_MINUTES = 30;
const RECOVERY_CODE_COUNT = 10;
const ISSUER = "Promptly";

type Services = Pick<ApiServices, "db" | "config" | "now">;

// ---- the secret at rest ----

const encryptSecret = (appSecret: string, userId: string, secret: Uint8Array) => sealSecret(appSecret, "two-factor secret v1", userId, secret);

export const decryptSecret = (appSecret: string, userId: string, stored: string) => openSecret(appSecret, "two-factor secret v1", userId, stored);

// ---- code entry with lockout ----

interface TwoFactorRow {
  userId: string;
  secretEncrypted: string;
  enabledAt: Date | null;
  lastUsedStep: bigint | null;
  failedAttempts: number;
  lockedUntil: Date | null;
}

const lockedError = () => fail("RATE_LIMITED", SETTINGS_MSG.twoFactorLocked);

/**
 * Runs one code entry: refuses while locked, reserves the attempt before checking (so parallel
 * guesses count too), resets the counter on success and locks after the fifth failure.
 * `check` returns true when the code is accepted (and has recorded its own use).
 */
async function enterCode(services: Services, row: TwoFactorRow, check: () => Promise<boolean>, invalidMessage: string) {
  const { db } = services;
  const now = services.now();
  if (row.lockedUntil && row.lockedUntil > now) lockedError();
  if (row.lockedUntil) {
    // An expired lock starts a fresh count.
    await db.twoFactor.updateMany({ where: { userId: row.userId, lockedUntil: row.lockedUntil }, data: { lockedUntil: null, failedAttempts: 0 } });
  }
  const reserved = await db.twoFactor.updateMany({
    where: { userId: row.userId, lockedUntil: null, failedAttempts: { lt: TWO_FACTOR_MAX_FAILURES } },
    data: { failedAttempts: { increment: 1 } },
  });
  if (reserved.count === 0) lockedError();

  if (await check()) {
    await db.twoFactor.update({ where: { userId: row.userId }, data: { failedAttempts: 0 } });
    return;
  }
  const after = await db.twoFactor.findUnique({ where: { userId: row.userId }, select: { failedAttempts: true } });
  if ((after?.failedAttempts ?? 0) >= TWO_FACTOR_MAX_FAILURES) {
    await db.twoFactor.update({
      where: { userId: row.userId },
      data: { lockedUntil: new Date(now.getTime() + TWO_FACTOR_LOCK_MINUTES * 60_000) },
    });
    lockedError();
  }
  fail("INVALID", invalidMessage);
}

/** Accepts a TOTP code of the current step or one either side, newer than the last accepted one. */
async function checkTotp(services: Services, row: TwoFactorRow, code: string): Promise<boolean> {
  if (!new RegExp(`^\\d{${TWO_FACTOR_CODE_LENGTH}}$`).test(code)) return false;
  const key = decryptSecret(services.config.secret, row.userId, row.secretEncrypted);
  const current = BigInt(Math.floor(services.now().getTime() / (TOTP_PERIOD_SECONDS * 1000)));
  for (const step of [current - 1n, current, current + 1n]) {
    if (row.lastUsedStep !== null && step <= row.lastUsedStep) continue;
    if (!verifyHOTP(key, step, TWO_FACTOR_CODE_LENGTH, code)) continue;
    // Conditional write: of two requests racing with the same code, only one is accepted.
    const claimed = await services.db.twoFactor.updateMany({
      where: { userId: row.userId, OR: [{ lastUsedStep: null }, { lastUsedStep: { lt: step } }] },
      data: { lastUsedStep: step },
    });
    return claimed.count === 1;
  }
  return false;
}

async function loadRow(db: Db, userId: string): Promise<TwoFactorRow | null> {
  return db.twoFactor.findUnique({ where: { userId } });
}

async function loadEnabledRow(db: Db, userId: string): Promise<TwoFactorRow> {
  const row = await loadRow(db, userId);
  if (!row?.enabledAt) return fail("INVALID", SETTINGS_MSG.twoFactorNotEnabled);
  return row;
}

// ---- setup, enable, disable (Security page) ----

export const twoFactorSetup = z.object({
  /** Base32 secret for typing into an authenticator app. */
  secret: z.string(),
  otpauthUrl: z.string(),
  qrCodeDataUrl: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetup>;

/** The one-time recovery codes, shown once when two-factor is turned on. */
export const recoveryCodesIssued = z.object({ recoveryCodes: z.array(z.string()) });

/** A new secret, waiting for a first code to be enabled. Replaces an earlier unfinished setup. */
export async function startTwoFactorSetup(services: Services, userId: string, email: string): Promise<TwoFactorSetup> {
  const existing = await loadRow(services.db, userId);
  if (existing?.enabledAt) fail("STATE_CONFLICT", SETTINGS_MSG.twoFactorAlreadyEnabled);
  const key = new Uint8Array(randomBytes(20));
  const secretEncrypted = encryptSecret(services.config.secret, userId, key);
  // The failure counters are kept: a new setup must not reset a lock.
  await services.db.twoFactor.upsert({
    where: { userId },
    create: { userId, secretEncrypted },
    update: { secretEncrypted, enabledAt: null, lastUsedStep: null },
  });
  const otpauthUrl = createTOTPKeyURI(ISSUER, email, key, TOTP_PERIOD_SECONDS, TWO_FACTOR_CODE_LENGTH);
  // Loaded when someone sets up two-factor sign-in, not by every process at start-up.
  const { default: QRCode } = await import("qrcode");
  const qrCodeDataUrl = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: "M", margin: 1, width: 200 });
  return { secret: encodeBase32UpperCaseNoPadding(key), otpauthUrl, qrCodeDataUrl };
}

/** Verifies the first code of a pending setup, enables two-factor and returns fresh recovery codes (shown once). */
export async function enableTwoFactor(services: Services, userId: string, code: string, context: AuditContext): Promise<z.infer<typeof recoveryCodesIssued>> {
  const row = await loadRow(services.db, userId);
  if (!row) return fail("INVALID", SETTINGS_MSG.twoFactorSetupMissing);
  if (row.enabledAt) fail("STATE_CONFLICT", SETTINGS_MSG.twoFactorAlreadyEnabled);
  await enterCode(services, row, () => checkTotp(services, row, code), MSG.invalidVerificationCode);
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, generateRecoveryCode);
  await services.db.$transaction(async (tx) => {
    await tx.twoFactor.update({ where: { userId }, data: { enabledAt: services.now() } });
    await tx.recoveryCode.deleteMany({ where: { userId } });
    await tx.recoveryCode.createMany({ data: recoveryCodes.map((c) => ({ userId, codeHash: hashRecoveryCode(c) })) });
    // Links mailed before two-factor was on were asked for under the weaker protection.
    await revokeEmailedLinks(tx, userId);
    await auditAs(tx, context, { organizationId: null, action: "two_factor.enable", target: { type: "user", id: userId } });
  });
  return { recoveryCodes };
}

/** Needs a current code; removes the secret and the recovery codes. */
export async function disableTwoFactor(services: Services, userId: string, code: string, context: AuditContext): Promise<void> {
  const row = await loadEnabledRow(services.db, userId);
  await enterCode(services, row, () => checkTotp(services, row, code), MSG.invalidVerificationCode);
  await services.db.$transaction(async (tx) => {
    await tx.recoveryCode.deleteMany({ where: { userId } });
    await tx.twoFactor.delete({ where: { userId } });
    await auditAs(tx, context, { organizationId: null, action: "two_factor.disable", target: { type: "user", id: userId } });
  });
}

// ---- the second sign-in step ----

/** Checks a TOTP code for a user whose session waits for it. */
async function verifyTwoFactorCode(services: Services, userId: string, code: string): Promise<void> {
  const row = await loadEnabledRow(services.db, userId);
  await enterCode(services, row, () => checkTotp(services, row, code), MSG.invalidVerificationCode);
}

/** Consumes one unused recovery code; the same lockout as codes applies. */
async function useRecoveryCode(services: Services, userId: string, code: string): Promise<void> {
  const row = await loadEnabledRow(services.db, userId);
  await enterCode(
    services,
    row,
    async () => {
      const used = await services.db.recoveryCode.updateMany({
        where: { userId, codeHash: hashRecoveryCode(code), usedAt: null },
        data: { usedAt: services.now() },
      });
      return used.count === 1;
    },
    SETTINGS_MSG.invalidRecoveryCode,
  );
}

export async function remainingRecoveryCodes(db: Db, userId: string): Promise<number> {
  return db.recoveryCode.count({ where: { userId, usedAt: null } });
}

// ---- recovery codes ----

/** 50 random bits as "xxxxx-xxxxx" (base32, lower case). */
function generateRecoveryCode(): string {
  const text = encodeBase32LowerCaseNoPadding(new Uint8Array(randomBytes(10))).slice(0, 10);
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

/** Recovery codes are random, so a plain SHA-256 suffices (no password hashing needed). */
const hashRecoveryCode = (code: string) => hashToken(normalizeRecoveryCode(code));

// ---- the second sign-in step, end to end ----

/**
 * Finishes a sign-in that waits for its second factor: checks a TOTP code or consumes a recovery
 * code, then swaps the waiting session for a new, complete one (a new id and cookie: whoever saw the
 * waiting session's cookie gains nothing) and records the sign-in. Returns the new session's id (the
 * procedure sets its cookie), or null for an already verified session, which passes as it is; and
 * whether this was the account's first completed sign-in.
 */
export async function completeTwoFactorSignIn(
  services: Pick<ApiServices, "db" | "config" | "now" | "lucia">,
  client: ClientInfo,
  session: { id: string; userId: string; twoFactorVerified: boolean; signInMethod: SignInMethod },
  proof: { kind: "totp" | "recovery"; code: string },
): Promise<{ sessionId: string | null; firstSignIn: boolean }> {
  // Already complete: its sign-in was recorded (and greeted) when it completed.
  if (session.twoFactorVerified) return { sessionId: null, firstSignIn: false };
  if (proof.kind === "totp") await verifyTwoFactorCode(services, session.userId, proof.code);
  else await useRecoveryCode(services, session.userId, proof.code);
  const complete = await services.lucia.createSession(session.userId, {
    twoFactorVerified: true,
    signInMethod: session.signInMethod,
    lastActiveAt: services.now(),
    userAgent: client.userAgent?.slice(0, 512) ?? null,
  });
  try {
    // The waiting session ends exactly when the sign-in is recorded.
    const { firstSignIn } = await services.db.$transaction(async (tx) => {
      // Ended meanwhile (signed out, or a parallel code already completed it): nothing to complete.
      const { count } = await tx.session.deleteMany({ where: { id: hashToken(session.id), twoFactorVerified: false } });
      if (count !== 1) fail("UNAUTHENTICATED", MSG.userNotAuthenticated);
      return recordSignIn({ db: tx, now: services.now }, session.userId, session.signInMethod, client);
    });
    return { sessionId: complete.id, firstSignIn };
  } catch (error) {
    await services.lucia.invalidateSession(complete.id).catch(() => undefined);
    throw error;
  }
}
