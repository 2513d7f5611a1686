// Observability: JSON request logs with request ids and no secrets in them, Prometheus
// metrics behind METRICS_TOKEN, and the liveness and readiness probes.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@promptly/db";
import {
  createAccount, createHarness, createOrganization, createS3Storage, createSmtpMailer, createTeam, uniqueEmail, type Harness,
} from "@promptly/api/testing";
import { createApp } from "./app.ts";
import { createLogger, errorForLog, pathForLog, requestId } from "./logger.ts";
import { listenForTests, type TestServer } from "../test/test-server.ts";
import { freePort } from "../../../test/free-port.ts";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const PASSWORD = "log-secret-Password-91!";

let h: Harness;
let server: TestServer;
const lines: string[] = [];

beforeAll(async () => {
  h = await createHarness();
  const logger = createLogger("info", { write: (line: string) => void lines.push(line) });
  server = await listenForTests(createApp({ services: h.services, logger, metricsToken: METRICS_TOKEN }));
});
afterAll(async () => {
  await server.close();
  await h.close();
});

/** A browser over HTTP: tRPC calls with the superjson envelope, keeping the cookies the server sets. */
function browser(base: string) {
  const cookies = new Map<string, string>();
  const requestIds: string[] = [];
  async function call(path: string, input: unknown, init: { method?: "GET" | "POST"; headers?: Record<string, string> } = {}) {
    const method = init.method ?? "POST";
    const query = method === "GET" ? `?input=${encodeURIComponent(JSON.stringify({ json: input }))}` : "";
    const response = await fetch(`${base}/trpc/${path}${query}`, {
      method,
      headers: {
        "content-type": "application/json",
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
        ...init.headers,
      },
      body: method === "POST" ? JSON.stringify({ json: input }) : undefined,
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      cookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    requestIds.push(response.headers.get("x-request-id") ?? "");
    const body = (await response.json()) as { result?: { data: { json: unknown } }; error?: unknown };
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body.error)}`);
    return body.result?.data.json as never;
  }
  return { call, cookies, requestIds };
}

const tokenIn = (text: string) => /[?&]token=([^\s&"<>]+)/.exec(text)![1]!;

/** RFC 6238 with the app's settings (SHA-1, 30 s, 6 digits), from the secret as shown (base32). */
function totpCode(secret: string, at = h.clock.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of secret.replace(/=+$/, "")) bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at.getTime() / 30_000)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

describe("request logs", () => {
  it("carry the request id, and no password, token, key, cookie or TOTP secret of a whole sign-up to API-key journey", async () => {
    const secrets: Record<string, string> = { password: PASSWORD };
    const me = browser(server.base);
    const email = uniqueEmail("logs");

    // Sign up with a password, confirm the address from the mail, sign in with the password.
    await me.call("auth.signUp", { email, password: PASSWORD });
    secrets.verificationToken = tokenIn((await h.mail.waitFor(email, /Confirm your email address/)).text);
    await me.call("auth.verifyEmail", { token: secrets.verificationToken });
    await me.call("auth.signIn", { email, password: PASSWORD });
    secrets.sessionCookie = me.cookies.get("promptly_session")!;
    expect(secrets.sessionCookie).toBeTruthy();
    // A query sends its input in the URL: the log keeps the name `input` only.
    await me.call("auth.me", { probe: PASSWORD }, { method: "GET" });

    // A magic link, used in another browser.
    const other = browser(server.base);
    await other.call("auth.sendMagicLink", { email });
    secrets.magicLinkToken = tokenIn((await h.mail.waitFor(email, /Your Promptly sign-in link/)).text);
    await other.call("auth.signInWithMagicLink", { token: secrets.magicLinkToken });
    secrets.magicLinkSession = other.cookies.get("promptly_session")!;

    // Two-factor: the TOTP secret and a code made from it.
    const setup: { secret: string } = await me.call("security.setupTwoFactor", undefined);
    secrets.totpSecret = setup.secret;
    secrets.totpCode = totpCode(secrets.totpSecret);
    await me.call("security.enableTwoFactor", { code: secrets.totpCode });

    // An API key of a team, used on the REST API and on tRPC.
    const admin = await createAccount(h, { role: "administrator", password: PASSWORD });
    const organization = await createOrganization(h, [{ userId: admin.id, role: "admin" }]);
    const team = await createTeam(h, organization.id, [{ userId: admin.id, role: "admin" }]);
    const adminBrowser = browser(server.base);
    await adminBrowser.call("auth.signIn", { email: admin.email, password: PASSWORD });
    secrets.adminSession = adminBrowser.cookies.get("promptly_session")!;
    const created: { key: string } = await adminBrowser.call("apiKeys.create", { teamId: team.id, name: "Logs" });
    secrets.apiKey = created.key;
    const rest = await fetch(`${server.base}/api/v1/prompts`, { headers: { authorization: `Bearer ${secrets.apiKey}` } });
    expect(rest.status).toBe(200);
    await fetch(`${server.base}/trpc/auth.me`, { headers: { authorization: `Bearer ${secrets.apiKey}` } });
    // A page link with a token in it (the SPA's reset page) is logged without the token too.
    await fetch(`${server.base}/auth/reset-password?token=${secrets.magicLinkToken}`);

    const log = lines.join("");
    const leaked = Object.entries(secrets).filter(([, secret]) => log.includes(secret)).map(([kind]) => kind);
    expect(leaked).toEqual([]);

    const entries = lines.map((line) => JSON.parse(line) as { requestId?: string; req?: { url: string }; res?: { statusCode: number }; responseTimeMs?: number });
    const ids = [...me.requestIds, ...other.requestIds, ...adminBrowser.requestIds];
    for (const id of ids) expect(entries.some((entry) => entry.requestId === id)).toBe(true);
    const meLine = entries.find((entry) => entry.req?.url.startsWith("/trpc/auth.me?"));
    expect(meLine).toMatchObject({ req: { url: "/trpc/auth.me?input=…" }, res: { statusCode: 200 } });
    expect(meLine?.responseTimeMs).toEqual(expect.any(Number));
    expect(log).not.toContain("user-agent\":"); // headers are not logged, only the user agent by name
  });

  it("log a failed procedure with its request id and error, never its input", async () => {
    const captured: string[] = [];
    const logger = createLogger("info", { write: (line: string) => void captured.push(line) });
    const broken = await listenForTests(createApp({ services: { ...h.services, db: createDb({ url: "postgresql://nobody@127.0.0.1:1/none" }) }, logger }));
    try {
      const response = await browser(broken.base).call("auth.signIn", { email: "someone@example.test", password: PASSWORD }).catch((error: Error) => error);
      expect(String(response)).toContain("500");
      const failure = captured.map((line) => JSON.parse(line)).find((entry) => entry.msg === "tRPC auth.signIn failed");
      expect(failure).toMatchObject({ level: 50, requestId: expect.any(String), err: { type: "PrismaClientKnownRequestError", message: "Can't reach database server at 127.0.0.1:1", stack: expect.any(String) } });
      expect(captured.filter((line) => line.includes(failure.requestId))).toHaveLength(2); // the failure and the request's line
      expect(captured.join("")).not.toContain(PASSWORD);
    } finally {
      await broken.close();
    }
  });

  it("keep a safe incoming X-Request-Id and replace anything else", async () => {
    const kept = await fetch(`${server.base}/api/health/live`, { headers: { "x-request-id": "lb-7f3a.1_x" } });
    expect(kept.headers.get("x-request-id")).toBe("lb-7f3a.1_x");
    const replaced = await fetch(`${server.base}/api/health/live`, { headers: { "x-request-id": "evil\" value {x}" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.some((line) => line.includes('"requestId":"lb-7f3a.1_x"'))).toBe(true);
    expect(requestId("a".repeat(65))).not.toBe("a".repeat(65));
    expect(pathForLog("/auth/magic-link?token=abc&redirectTo=%2Fx")).toBe("/auth/magic-link?token=…&redirectTo=…");
  });

  it("redact credential headers and secret fields at the top level and one level down", () => {
    const captured: string[] = [];
    const logger = createLogger("info", { write: (line: string) => void captured.push(line) });
    logger.info({
      req: { headers: { cookie: "promptly_session=s3cret-cookie", authorization: "Bearer s3cret-bearer" } },
      res: { headers: { "set-cookie": "promptly_session=s3cret-set" } },
      password: "s3cret-password",
      input: { token: "s3cret-token", totp: "s3cret-totp", key: "s3cret-key", code: "s3cret-code", apiKey: "s3cret-api-key" },
      secret: "s3cret-secret",
    }, "redaction");
    expect(captured).toHaveLength(1);
    expect(captured[0]).not.toMatch(/s3cret/);
    expect(captured[0]).toContain("[redacted]");
  });

  it("log a Prisma error by its reason, not by the arguments it quotes", async () => {
    const error = await h.services.db.user
      .create({ data: { email: 42 as unknown as string, passwordHash: "s3cret-argument-hash" } })
      .catch((caught: unknown) => caught);
    expect(String((error as Error).message)).toContain("s3cret-argument-hash"); // Prisma does quote it
    const logged = JSON.stringify(errorForLog(error));
    expect(logged).not.toContain("s3cret-argument-hash");
    expect(errorForLog(error)).toMatchObject({ type: "PrismaClientValidationError", message: expect.stringContaining("email") });
  });
});

describe("/metrics", () => {
  it("is not found without METRICS_TOKEN, and refuses a missing or wrong token", async () => {
    const plain = await listenForTests(createApp({ services: h.services }));
    try {
      expect((await fetch(`${plain.base}/metrics`)).status).toBe(404);
    } finally {
      await plain.close();
    }
    expect((await fetch(`${server.base}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } })).status).toBe(401);
    expect((await fetch(`${server.base}/metrics`, { headers: { authorization: METRICS_TOKEN } })).status).toBe(401);
  });

  it("counts procedures (batches split), routes by pattern, and reports the pool, the outbox and the runtime cache", async () => {
    const scrape = async () => {
      const response = await fetch(`${server.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/plain");
      return response.text();
    };
    const count = (text: string, procedure: string, status: string) =>
      Number(new RegExp(`^promptly_http_requests_total\\{procedure="${procedure.replace(/[.*:()]/g, "\\$&")}",status="${status}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0);

    const before = await scrape();
    for (let i = 0; i < 3; i++) await fetch(`${server.base}/trpc/health.check`);
    await fetch(`${server.base}/trpc/health.check,auth.me?batch=1&input=${encodeURIComponent("{}")}`);
    await fetch(`${server.base}/trpc/no.such.procedure${"x".repeat(10)}`);
    await fetch(`${server.base}/api/v1/prompts/some-name`);
    await fetch(`${server.base}/api/health/live?token=abc`);
    const after = await scrape();

    expect(count(after, "health.check", "200") - count(before, "health.check", "200")).toBe(4);
    expect(count(after, "auth.me", "200") - count(before, "auth.me", "200")).toBe(1);
    expect(count(after, "trpc:unknown", "404") - count(before, "trpc:unknown", "404")).toBe(1);
    expect(after).not.toContain("no.such.procedure");
    // Refused before its route matched (no key): counted by the area, never by the raw URL.
    expect(count(after, "/api/v1/*", "401") - count(before, "/api/v1/*", "401")).toBe(1);
    expect(count(after, "/api/health/live", "200") - count(before, "/api/health/live", "200")).toBe(1);
    expect(after).not.toContain("some-name");
    expect(after).toMatch(/promptly_http_request_duration_seconds_bucket\{le="0.005",procedure="health.check",status="200"\}/);
    for (const name of [
      'promptly_db_pool_connections{state="total"}', 'promptly_db_pool_connections{state="idle"}', 'promptly_db_pool_connections{state="waiting"}',
      "promptly_outbox_depth", "promptly_runtime_cache_lookups_total", "promptly_rate_limit_refusals_total", "promptly_process_cpu_seconds_total",
    ]) {
      expect(after).toContain(name);
    }
    expect(Number(/^promptly_db_pool_connections\{state="total"\} (\d+)$/m.exec(after)?.[1])).toBeGreaterThan(0);
  });
});

describe("health probes", () => {
  it("live answers while the process is up; ready reports the parts, and 503 while draining", async () => {
    let draining = false;
    const app = await listenForTests(createApp({ services: h.services, isDraining: () => draining }));
    try {
      const live = await fetch(`${app.base}/api/health/live`);
      expect([live.status, await live.json()]).toEqual([200, { status: "ok" }]);
      const ready = await fetch(`${app.base}/api/health/ready`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: "ok", db: "ok", storage: "ok", mail: "ok" }]);
      draining = true;
      const drained = await fetch(`${app.base}/api/health/ready`);
      expect([drained.status, await drained.json()]).toEqual([503, { status: "draining" }]);
      expect((await fetch(`${app.base}/api/health/live`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it.each([
    ["database", () => ({ db: createDb({ url: "postgresql://nobody@127.0.0.1:1/none" }) }), { db: "error", storage: "ok", mail: "ok" }],
    ["storage", () => ({ storage: createS3Storage({ endpoint: "http://127.0.0.1:1", accessKey: "x", secretKey: "y", region: "us-east-1" }) }), { db: "ok", storage: "error", mail: "ok" }],
    ["mail", async () => ({ mailer: createSmtpMailer({ host: "127.0.0.1", port: await freePort(), secure: false, allowSelfSigned: true, from: "x <x@y.z>" }) }), { db: "ok", storage: "ok", mail: "error" }],
  ] as const)("ready answers 503 when the %s is down, while live still answers 200", async (_part, broken, parts) => {
    const app = await listenForTests(createApp({ services: { ...h.services, ...(await broken()) } }));
    try {
      const ready = await fetch(`${app.base}/api/health/ready`);
      expect([ready.status, await ready.json()]).toEqual([503, { status: "error", ...parts }]);
      expect((await fetch(`${app.base}/api/health/live`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
