// Secrets at rest (two-factor secrets, provider keys): AES-256-GCM under a key derived from the app
// secret for one purpose, with the owning row's id as authenticated data, so a stored value can be
// neither read without the app secret nor moved to another row or purpose. And links only this server
// can write (an invitation's): an HMAC of the link's id under a key of their own.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/** Each purpose has a key of its own, derived from the app secret (never the app secret itself). */
export type SecretPurpose = "two-factor secret v1" | "provider key v1" | "webhook secret v1";

const encryptionKey = (appSecret: string, purpose: SecretPurpose) => Buffer.from(hkdfSync("sha256", appSecret, "promptly", purpose, 32));

/** "v1.<base64 iv|tag|ciphertext>", bound to `ownerId`. */
export function sealSecret(appSecret: string, purpose: SecretPurpose, ownerId: string, secret: Uint8Array): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(appSecret, purpose), iv);
  cipher.setAAD(Buffer.from(ownerId));
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64")}`;
}

/** The secret `sealSecret` stored for `ownerId`; throws when it was sealed for another owner, purpose or app secret. */
export function openSecret(appSecret: string, purpose: SecretPurpose, ownerId: string, stored: string): Uint8Array {
  const [version, payload] = stored.split(".");
  if (version !== "v1" || !payload) throw new Error("Unknown secret format");
  const bytes = Buffer.from(payload, "base64");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(appSecret, purpose), bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(ownerId));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return new Uint8Array(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]));
}

/** Links whose holder the server must be able to recognise without storing anything (an invitation's). */
export type LinkPurpose = "invite link v1";

const linkKey = (appSecret: string, purpose: LinkPurpose) => Buffer.from(hkdfSync("sha256", appSecret, "promptly", purpose, 32));

/**
 * A link's proof that this server wrote it for `value` (HMAC-SHA256 under a key derived for the
 * purpose, base64url): only the app secret makes it, so knowing `value` (an invitation's id, which
 * admins see) is not enough.
 */
export function linkToken(appSecret: string, purpose: LinkPurpose, value: string): string {
  return createHmac("sha256", linkKey(appSecret, purpose)).update(value).digest("base64url");
}

/** Whether `token` is `linkToken(…, value)`, compared in constant time. */
export function linkTokenMatches(appSecret: string, purpose: LinkPurpose, value: string, token: string): boolean {
  const expected = Buffer.from(linkToken(appSecret, purpose, value));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
