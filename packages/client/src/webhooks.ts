// Verifying a Promptly webhook on the receiving side (the README's "Webhooks" section explains it).
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Whether `body` (the raw request body, exactly as received, before any JSON parsing) was signed by
 * Promptly with `secret` (the subscription's `whsec_…` secret) less than `toleranceSeconds` ago.
 * `header` is the `Promptly-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`.
 * The timestamp is signed too, so an old delivery replayed later fails the window even with its
 * signature intact; keep the delivery ids (`Promptly-Delivery`) of the window to refuse a replay within it.
 */
export function verifyWebhookSignature(secret: string, header: string | null | undefined, body: string | Uint8Array, toleranceSeconds = 300, now: Date = new Date()): boolean {
  if (!header) return false;
  const parts = new Map<string, string[]>();
  for (const part of header.split(",")) {
    const index = part.indexOf("=");
    if (index <= 0) continue;
    const key = part.slice(0, index).trim();
    parts.set(key, [...(parts.get(key) ?? []), part.slice(index + 1).trim()]);
  }
  const timestamp = Number(parts.get("t")?.[0]);
  if (!Number.isInteger(timestamp)) return false;
  if (Math.abs(Math.floor(now.getTime() / 1000) - timestamp) > toleranceSeconds) return false;
  const text = typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body);
  const expected = createHmac("sha256", secret).update(`${timestamp}.`).update(text).digest();
  // Several v1 signatures may be present (while a secret is replaced): one match is enough.
  return (parts.get("v1") ?? []).some((signature) => {
    const given = Buffer.from(signature, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
