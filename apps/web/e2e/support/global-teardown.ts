// After the whole run: no secret a test used may appear in the server's log. Fails the run naming
// which kinds leaked (with a few characters of each, never the whole secret).
import { existsSync, readFileSync } from "node:fs";
import { PASSWORD } from "./accounts.ts";
import { E2E } from "./env.ts";
import { SECRETS_FILE, SERVER_LOG, type SecretKind } from "./secrets.ts";

/** Passwords typed by specs besides PASSWORD (wrong, new and mistyped ones are secrets too). */
const TYPED_PASSWORDS = ["a-brand-new-password", "not-the-password", "wrong-password", "something-else", "Abcdefghi1!x", "Abcdefghi1!y"];

interface Secret {
  kind: SecretKind | "emailed token";
  value: string;
}

function recordedSecrets(): Secret[] {
  if (!existsSync(SECRETS_FILE)) return [];
  return readFileSync(SECRETS_FILE, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Secret);
}

/** Every token in every link the mail catcher holds: confirmation, magic-link and reset links. */
async function emailedTokens(): Promise<Secret[]> {
  const response = await fetch(`${E2E.mailboxUrl}/email`);
  if (!response.ok) throw new Error(`The mail catcher did not list its mail (${response.status})`);
  const mails = (await response.json()) as { text?: string; html?: string }[];
  const tokens = mails.flatMap((mail) => [...`${mail.text ?? ""} ${mail.html ?? ""}`.matchAll(/[?&](?:amp;)?token=([^\s&"'<>]+)/g)]);
  return [...new Set(tokens.map((match) => decodeURIComponent(match[1]!)))].map((value) => ({ kind: "emailed token", value }));
}

/** The forms a secret can take in a log line: as is, URL-encoded, JSON-escaped. */
const spellings = (value: string) => [...new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])];

export default async function globalTeardown() {
  if (!existsSync(SERVER_LOG)) throw new Error(`No server log at ${SERVER_LOG}: the log-secrets check cannot run`);
  const log = readFileSync(SERVER_LOG, "utf8");
  if (!log.includes('"requestId"')) throw new Error(`${SERVER_LOG} holds no request log lines: the log-secrets check cannot run`);
  const secrets: Secret[] = [
    ...[PASSWORD, ...TYPED_PASSWORDS].map((value) => ({ kind: "password" as const, value })),
    ...recordedSecrets(),
    ...(await emailedTokens()),
  ];
  const leaked = secrets.filter(({ value }) => spellings(value).some((spelling) => log.includes(spelling)));
  const perKind = new Map<string, number>();
  for (const { kind } of secrets) perKind.set(kind, (perKind.get(kind) ?? 0) + 1);
  const counts = [...perKind].map(([kind, count]) => `${count} ${kind}`);
  if (leaked.length) {
    const lines = leaked.map(({ kind, value }) => `  ${kind}: ${value.slice(0, 3)}… (${value.length} characters)`);
    throw new Error(`Secrets the tests used appear in the server log ${SERVER_LOG}:\n${[...new Set(lines)].join("\n")}`);
  }
  console.log(`Log-secrets check: none of ${secrets.length} secrets (${counts.join(", ")}) in the server log.`);
}
