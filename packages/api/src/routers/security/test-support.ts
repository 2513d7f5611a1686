// Accounts, signed-in callers and TOTP codes for the settings integration tests (profile, security,
// the second sign-in step). Accounts are written straight into the test database; sessions are real.
import { randomBytes } from "node:crypto";
import { ZodError } from "zod";
import { hash } from "@node-rs/argon2";
import { generateHOTP } from "@oslojs/otp";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import type { Harness, TestClient } from "../../testing.ts";

export const PASSWORD = "old-password-123";

export interface TestAccount {
  id: string;
  email: string;
}

export async function createAccount(h: Harness, options: { password?: string | null; fullName?: string | null } = {}): Promise<TestAccount> {
  const password = options.password === undefined ? PASSWORD : options.password;
  return h.database.db.user.create({
    data: {
      email: `settings-${randomBytes(5).toString("hex")}@example.test`,
      passwordHash: password === null ? null : await hash(password),
      emailVerifiedAt: new Date(),
      profile: { create: { fullName: options.fullName === undefined ? "Test Person" : options.fullName } },
      appRole: { create: { role: "user" } },
    },
    select: { id: true, email: true },
  });
}

/** A browser-like client with a real session for `account` (verified unless `twoFactorVerified: false`). */
export async function signedIn(h: Harness, account: TestAccount, options: { twoFactorVerified?: boolean } = {}): Promise<TestClient> {
  return h.signedInClient(account.id, options);
}

/** The authenticator's code for `secret` (base32, as shown) at the harness clock, `offsetSteps` 30 s steps away. */
export function totp(h: Harness, secret: string, offsetSteps = 0): string {
  const step = BigInt(Math.floor(h.clock.now().getTime() / 30_000) + offsetSteps);
  return generateHOTP(decodeBase32IgnorePadding(secret), step, 6);
}

/** Moves the clock to the start of the next 30-second step, so a fresh code exists. */
export function nextStep(h: Harness) {
  const ms = h.clock.now().getTime();
  h.clock.advance(30_000 - (ms % 30_000) + 1);
}

/** The TRPC error code a call failed with, or "OK". */
export async function outcome(call: Promise<unknown>): Promise<{ code: string; message?: string; value?: unknown }> {
  try {
    return { code: "OK", value: await call };
  } catch (error) {
    const e = error as { code?: string; message?: string; cause?: unknown };
    if (!e.code) throw error;
    // The HTTP error formatter shows a zod failure as its first issue's message; callers see the same here.
    const message = e.cause instanceof ZodError ? e.cause.issues[0]?.message : e.message;
    return { code: e.code, message };
  }
}
