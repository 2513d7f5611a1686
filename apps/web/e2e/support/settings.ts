// Helpers of the account-settings suites: the authenticator app's codes.
import { generateHOTP } from "@oslojs/otp";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";

/**
 * What an authenticator app shows for `secret` (base32, spaces ignored), `offsetSteps` 30-second
 * steps from now. The server accepts one step either side, never a step it already accepted.
 */
export function totpCode(secret: string, offsetSteps = 0): string {
  const key = decodeBase32IgnorePadding(secret.replace(/\s+/g, "").toUpperCase());
  return generateHOTP(key, BigInt(Math.floor(Date.now() / 30_000) + offsetSteps), 6);
}

/** A 6-digit code that no step from -1 to +1 accepts. */
export function wrongTotpCode(secret: string): string {
  const valid = new Set([-1, 0, 1].map((offset) => totpCode(secret, offset)));
  for (let n = 314_159; ; n = (n + 1) % 1_000_000) {
    const code = String(n).padStart(6, "0");
    if (!valid.has(code)) return code;
  }
}

