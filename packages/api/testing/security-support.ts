// Accounts, signed-in callers and TOTP codes for the settings integration tests (profile, security,
// the second sign-in step). Accounts are written straight into the test database; sessions are real.
import { generateHOTP } from "@oslojs/otp";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { createAccount, type Harness, type TestAccount, type TestClient } from "./harness.ts";

export const PASSWORD = "old-password-123";

export type { TestAccount } from "./harness.ts";

/** The harness's createAccount, with PASSWORD unless told otherwise (these tests sign in and change it). */
export async function createAccountWithPassword(h: Harness, options: { password?: string | null; fullName?: string | null } = {}): Promise<TestAccount> {
  return createAccount(h, { ...options, password: options.password === undefined ? PASSWORD : options.password });
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

export { outcome } from "./harness.ts";
