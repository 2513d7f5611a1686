// Promptly as a cluster. Two app processes share the machine's PostgreSQL (a fresh database
// of this file), its Redis, the test run's S3 and SMTP, and APP_SECRET; a round-robin proxy
// (test/round-robin-proxy.ts) stands in front of them, as nginx does in docker-compose.yml.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword, AUTH_RATE_LIMITS } from "@promptly/api/testing";
import { createDb, type Db } from "@promptly/db";
import { migrate } from "@promptly/db/migrate";
import { createEmptyDatabase } from "@promptly/db/testing";
import { freePort } from "../../../test/free-port.ts";
import { sharedServicesEnv, startServerProcess, type ServerProcess } from "../test/server-process.ts";
import { startRoundRobinProxy, type RoundRobinProxy } from "../test/round-robin-proxy.ts";

const MACHINE_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres";
const MACHINE_REDIS = "redis://127.0.0.1:6379";
const PASSWORD = "cluster-test-password-1";
const EMAIL = `cluster-${Date.now()}@example.test`;

let database: { url: string; drop(): Promise<unknown> };
let db: Db;
let proxy: RoundRobinProxy;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  database = await createEmptyDatabase(MACHINE_POSTGRES);
  await migrate(database.url);
  db = createDb({ url: database.url, max: 2 });
  // A super user (organizations.create is theirs), written straight into the database.
  await db.user.create({
    data: {
      email: EMAIL,
      passwordHash: await hashPassword(PASSWORD),
      emailVerifiedAt: new Date(),
      profile: { create: { fullName: "Cluster Tester", superUser: true } },
      appRole: { create: { role: "user" } },
    },
  });
  // The proxy's port first: it is APP_URL, the public address both processes answer to.
  const proxyPort = await freePort();
  const env = {
    ...sharedServicesEnv(database.url),
    REDIS_URL: MACHINE_REDIS,
    APP_URL: `http://127.0.0.1:${proxyPort}`,
    TRUST_PROXY: "loopback",
    RATE_LIMITS: "on",
  };
  [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  proxy = await startRoundRobinProxy([a.port, b.port], proxyPort);
}, 90_000);

afterAll(async () => {
  await proxy?.close();
  for (const server of [a, b]) await server?.dispose();
  await db?.$disconnect();
  await database?.drop();
});

interface Answer {
  status: number;
  json: unknown;
  setCookie: string[];
}

/** A tRPC call as a tool makes it (no Origin header), from the client address `from` (X-Forwarded-For, trusted from loopback). */
async function trpc(base: string, path: string, { input, cookie, from }: { input?: unknown; cookie?: string; from?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (cookie) headers["cookie"] = cookie;
  if (from) headers["x-forwarded-for"] = from;
  const response =
    input === undefined
      ? await fetch(`${base}/trpc/${path}`, { headers })
      : await fetch(`${base}/trpc/${path}`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ json: input }) });
  const text = await response.text();
  return { status: response.status, json: text.startsWith("{") ? JSON.parse(text) : text, setCookie: response.headers.getSetCookie() };
}

async function signIn(base: string, email = EMAIL, password = PASSWORD, from?: string) {
  const answer = await trpc(base, "auth.signIn", { input: { email, password }, from });
  expect(answer.status).toBe(200);
  return answer.setCookie.map((cookie) => cookie.split(";")[0]).join("; ");
}

/**
 * A client address of this run only: Redis keeps counters between runs, and a rerun within a
 * window would otherwise start on an address with attempts already counted.
 */
const address = () => `2001:db8::${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;

const emailOf = (answer: Answer) => (answer.json as { result: { data: { json: { user: { email: string } } | null } } }).result.data.json?.user.email ?? null;

describe("two app processes on one database and one Redis", () => {
  it("a session made on one process works on the other, and signing out on the other ends it on both", async () => {
    const cookie = await signIn(a.base, EMAIL, PASSWORD, address());
    expect(emailOf(await trpc(b.base, "auth.me", { cookie }))).toBe(EMAIL);
    expect(emailOf(await trpc(proxy.base, "auth.me", { cookie }))).toBe(EMAIL);
    expect((await trpc(b.base, "auth.signOut", { input: {}, cookie })).status).toBe(200);
    expect(emailOf(await trpc(a.base, "auth.me", { cookie }))).toBeNull();
  });

  /** Failed sign-ins for one (unknown) address, the n-th on targets[n % targets.length]: the attempt first refused. */
  async function firstRefusedAttempt(targets: string[], from: string) {
    const email = `guess-${Math.random().toString(36).slice(2)}@example.test`;
    for (let attempt = 1; attempt <= 2 * AUTH_RATE_LIMITS.signIn.email.limit + 2; attempt++) {
      const answer = await trpc(targets[(attempt - 1) % targets.length]!, "auth.signIn", { input: { email, password: "wrong-password-1" }, from });
      if (answer.status === 429) return attempt;
      expect(answer.status).toBe(400); // wrong email or password
    }
    return null;
  }

  it("failed sign-ins count against one limit across both processes: refused at the same attempt as with one", async () => {
    const single = await firstRefusedAttempt([a.base], address());
    expect(single).toBe(AUTH_RATE_LIMITS.signIn.email.limit + 1);
    // Another client address, so only the email's counter can refuse.
    expect(await firstRefusedAttempt([a.base, b.base], address())).toBe(single);
  });

  it("kill -9 of one process under load loses no write that was answered 200; the other process keeps answering", async () => {
    const cookie = await signIn(proxy.base, EMAIL, PASSWORD, address());
    const stamp = Date.now();
    const committed: string[] = [];
    const failed: number[] = [];
    const answeredBefore = proxy.upstreams.map((upstream) => upstream.answered);
    let sent = 0;
    let killed = false;
    const TOTAL = 240;
    const worker = async () => {
      while (sent < TOTAL) {
        const name = `Load ${stamp} ${sent++}`;
        const answer = await trpc(proxy.base, "organizations.create", { input: { name }, cookie });
        if (answer.status === 200) committed.push(name);
        else failed.push(answer.status);
        // Mid-load: a third of the writes are done and 20 are in flight.
        if (!killed && committed.length >= TOTAL / 3) {
          killed = true;
          b.child.kill("SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: 20 }, worker));
    expect(killed).toBe(true);
    expect(await b.exited).toBeNull(); // ended by the signal, not by itself
    // Both processes took writes before the kill.
    expect(proxy.upstreams.map((upstream, i) => upstream.answered - answeredBefore[i]!).every((n) => n > 0)).toBe(true);
    expect(failed.every((status) => status === 502)).toBe(true); // only writes cut by the kill
    expect(committed.length + failed.length).toBe(TOTAL);

    const stored = await db.organization.findMany({ where: { name: { startsWith: `Load ${stamp} ` } }, select: { name: true } });
    const storedNames = new Set(stored.map((row) => row.name));
    expect(committed.filter((name) => !storedNames.has(name))).toEqual([]);

    // The survivor answers directly and through the proxy (which now skips the dead upstream).
    expect(emailOf(await trpc(a.base, "auth.me", { cookie }))).toBe(EMAIL);
    for (let i = 0; i < 6; i++) expect(emailOf(await trpc(proxy.base, "auth.me", { cookie }))).toBe(EMAIL);
    expect((await trpc(proxy.base, "organizations.create", { input: { name: `After ${stamp}` }, cookie })).status).toBe(200);
  }, 60_000);
});
