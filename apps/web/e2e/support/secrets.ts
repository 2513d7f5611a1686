// Secrets the end-to-end tests use, recorded so the global teardown can prove none of them reached
// the server's log (scripts/e2e-server.mjs writes it to the e2e data folder). Tokens that arrive by
// mail are read from the mail catcher at teardown; what only a test sees (session cookies, API keys,
// TOTP secrets, typed passwords, model provider keys) is recorded here by the support code and specs that see it.
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext } from "@playwright/test";
import { E2E } from "./env.ts";

export const SECRETS_FILE = join(E2E.dataDir, "e2e-secrets.jsonl");
export const SERVER_LOG = join(E2E.dataDir, "server.log");
const SESSION_COOKIE = "promptly_session";

export type SecretKind = "password" | "session cookie" | "API key" | "TOTP secret" | "recovery code" | "provider key" | "webhook secret";

export function recordSecret(kind: SecretKind, value: string | null | undefined) {
  if (value) appendFileSync(SECRETS_FILE, `${JSON.stringify({ kind, value })}\n`);
}

/** The context's session cookie, once it is signed in. */
export async function recordSessionCookie(context: BrowserContext) {
  const cookies = await context.cookies();
  recordSecret("session cookie", cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value);
}
