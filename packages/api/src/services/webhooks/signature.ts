// How a delivery is signed (the README's "Webhooks" section, and verifyWebhookSignature in
// @promptly/client, are the other side): `Promptly-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "<t>.<body>" under the subscription's secret>`. The timestamp inside the signed text lets the
// receiver refuse an old delivery replayed by someone who captured it.
import { createHmac } from "node:crypto";

export const signatureHeader = (secret: string, body: string, timestampSeconds: number) =>
  `t=${timestampSeconds},v1=${createHmac("sha256", secret).update(`${timestampSeconds}.${body}`).digest("hex")}`;
