// Rate limits shared across app processes, against both stores: the app's PostgreSQL
// (migrated test database) and the machine's Redis (a key prefix of this run's own). Two RateLimits
// instances with clients of their own stand for two app processes.
import { randomBytes } from "node:crypto";
import { EventEmitter, once } from "node:events";
import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@promptly/db/testing";
import { withClockAhead } from "../../../testing/harness.ts";
import { rateLimitRefusals } from "./metrics.ts";
import { RECONCILE_TOLERANCE, RateLimits, type RateLimitRule, type RateLimitStoreConfig } from "./rate-limits.ts";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const RUN = randomBytes(4).toString("hex");

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase(inject("databaseServerUrl"));
});
afterAll(() => database.drop());

/** The store at `port` (for a store that is down). */
type StoreAt = (port: number) => RateLimitStoreConfig;
const stores: [name: string, config: () => RateLimitStoreConfig, at: StoreAt][] = [
  ["PostgreSQL", () => ({ store: "postgres", databaseUrl: database.url }), (port) => ({ store: "postgres", databaseUrl: `postgresql://postgres@127.0.0.1:${port}/nothing` })],
  ["Redis", () => ({ store: "redis", redisUrl: REDIS_URL }), (port) => ({ store: "redis", redisUrl: `redis://127.0.0.1:${port}` })],
];

/** A store that is down: a port that resets every connection at once, counting the client's attempts. */
async function storeDown() {
  const attempted = new EventEmitter();
  let attempts = 0;
  const server = createServer((socket) => {
    attempts++;
    socket.resetAndDestroy();
    attempted.emit("attempt");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    attempts: () => attempts,
    /** Resolves once the client has tried to connect `count` times in all. */
    async attemptsReach(count: number) {
      const signal = AbortSignal.timeout(10_000);
      while (attempts < count) await once(attempted, "attempt", { signal });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const refusalsOf = async (rule: string) => (await rateLimitRefusals.get()).values.find((v) => v.labels.rule === rule)?.value ?? 0;

describe.each(stores)("rate limits in %s", (storeName, config, storeAt) => {
  const keyPrefix = `promptly-test:${RUN}:${storeName}:`;
  const opened: RateLimits[] = [];
  /** One app process's rate limits: its own client to the store. */
  const startProcess = async (options: { reconcileMs?: number } = {}) => {
    const limits = new RateLimits(config(), { keyPrefix, ...options });
    opened.push(limits);
    await limits.ready();
    return limits;
  };
  let key = 0;
  const freshKey = () => `key-${++key}`;
  /**
   * Runs `work` once the window of `name`'s counter of `k` has ended, `retryAfterMs` after a refusal.
   * PostgreSQL's counters end on this process's clock (rate-limiter-flexible compares them with
   * Date.now()): the clock moves past the end. Redis expires the key on its own clock: the test waits
   * until the store no longer holds the key at its limit, and this process's clock moves past the end
   * it was told (it refuses the key from memory until then).
   */
  const afterWindow = async <T>(name: string, rule: RateLimitRule, k: string, retryAfterMs: number, work: () => Promise<T>) => {
    if (storeName === "Redis") {
      const other = await startProcess();
      await expect.poll(() => other.isLimited(name, rule, k), { timeout: 10_000, interval: 20 }).toBe(false);
    }
    return withClockAhead(retryAfterMs + 1, work);
  };
  afterAll(async () => {
    // Every process's unsent counts first, so the reset leaves nothing behind.
    await Promise.all(opened.map((limits) => limits.reconcileAll()));
    await opened[0]?.reset();
    for (const limits of opened) await limits.close();
  });

  it("allows the limit, then refuses with the time until the window ends, and counts the refusal by rule", async () => {
    const limits = await startProcess();
    const rule: RateLimitRule = { limit: 3, windowMs: 60_000 };
    const name = `sign-in-${storeName}`;
    const k = freshKey();
    for (let i = 0; i < 3; i++) expect(await limits.hit(name, rule, k)).toEqual({ allowed: true });
    const before = await refusalsOf(name);
    const refused = await limits.hit(name, rule, k);
    expect(refused.allowed).toBe(false);
    const retryAfterMs = refused.allowed ? 0 : refused.retryAfterMs;
    expect(retryAfterMs).toBeGreaterThan(55_000);
    expect(retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(await refusalsOf(name)).toBe(before + 1);
    // Another key, and the same key under another rule, have budgets of their own.
    expect(await limits.hit(name, rule, freshKey())).toEqual({ allowed: true });
    expect(await limits.hit(`${name}-other`, rule, k)).toEqual({ allowed: true });
  });

  it("isLimited says whether the key has used its limit, without counting", async () => {
    const limits = await startProcess();
    const rule: RateLimitRule = { limit: 2, windowMs: 60_000 };
    const k = freshKey();
    expect(await limits.isLimited("guess", rule, k)).toBe(false);
    await limits.hit("guess", rule, k);
    for (let i = 0; i < 5; i++) expect(await limits.isLimited("guess", rule, k)).toBe(false);
    await limits.hit("guess", rule, k);
    expect(await limits.isLimited("guess", rule, k)).toBe(true);
  });

  it("allows the key again once its window has ended", async () => {
    const limits = await startProcess();
    const rule: RateLimitRule = { limit: 2, windowMs: 1_000 };
    const k = freshKey();
    await limits.hit("short", rule, k);
    await limits.hit("short", rule, k);
    const refused = await limits.hit("short", rule, k);
    if (refused.allowed) throw new Error("the third hit of a limit of 2 was allowed");
    expect(refused.retryAfterMs).toBeLessThanOrEqual(1_000);
    expect(await afterWindow("short", rule, k, refused.retryAfterMs, () => limits.hit("short", rule, k))).toEqual({ allowed: true });
  });

  it("two processes share one limit: alternating and concurrent hits are counted once, together", async () => {
    const [first, second] = [await startProcess(), await startProcess()];
    const rule: RateLimitRule = { limit: 4, windowMs: 60_000 };
    const k = freshKey();
    for (const limits of [first, second, first, second]) expect((await limits.hit("shared", rule, k)).allowed).toBe(true);
    expect((await first.hit("shared", rule, k)).allowed).toBe(false);
    expect((await second.hit("shared", rule, k)).allowed).toBe(false);
    expect(await second.isLimited("shared", rule, k)).toBe(true);

    // 40 requests at once, half in each process, against a limit of 10: exactly 10 get through.
    const burst = freshKey();
    const wide: RateLimitRule = { limit: 10, windowMs: 60_000 };
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? first : second).hit("burst", wide, burst)));
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(10);
  });

  it("reset forgets the counters in the store, for every process", async () => {
    const [first, second] = [await startProcess(), await startProcess()];
    const rule: RateLimitRule = { limit: 1, windowMs: 60_000 };
    const k = freshKey();
    await first.hit("reset", rule, k);
    expect((await second.hit("reset", rule, k)).allowed).toBe(false);
    await second.reset();
    expect(await first.isLimited("reset", rule, k)).toBe(false);
    expect((await second.hit("reset", rule, k)).allowed).toBe(true);
  });

  describe("counted in process, reconciled in batches (hitReconciled)", () => {
    it("a hit makes no round trip to the store: the counts arrive in a batch, at the latest after reconcileMs", async () => {
      // A timer that never fires during the test: what the store holds is what this process sent.
      const [counting, other] = [await startProcess({ reconcileMs: 600_000 }), await startProcess()];
      const rule: RateLimitRule = { limit: 10_000, windowMs: 60_000 };
      const k = freshKey();
      const seen = (points: number) => other.isLimited("batched", { limit: points, windowMs: 60_000 }, k);
      // A batch is 1% of the limit (100): 60 hits stay in process.
      for (let i = 0; i < 60; i++) expect(await counting.hitReconciled("batched", rule, k)).toEqual({ allowed: true });
      expect(await seen(1), "nothing in the store yet").toBe(false);
      await counting.reconcileAll();
      expect(await seen(60)).toBe(true);
      expect(await seen(61)).toBe(false);
      // And the timer sends what is kept without being asked.
      const timed = await startProcess({ reconcileMs: 100 });
      const t = freshKey();
      for (let i = 0; i < 30; i++) await timed.hitReconciled("batched", rule, t);
      await expect.poll(() => other.isLimited("batched", { limit: 30, windowMs: 60_000 }, t), { timeout: 5_000, interval: 50 }).toBe(true);
    });

    it("within one process the limit is exact: refused past it with the store's time until the window ends, and again allowed after it", async () => {
      const limits = await startProcess();
      // Batched (a tolerance of 4 requests); the window leaves the burst seconds to spare on a loaded machine.
      const rule: RateLimitRule = { limit: 200, windowMs: 4_000 };
      const k = freshKey();
      const name = `reconciled-${storeName}`;
      const outcomes = await Promise.all(Array.from({ length: 230 }, () => limits.hitReconciled(name, rule, k)));
      expect(outcomes.filter((o) => o.allowed)).toHaveLength(200);
      const before = await refusalsOf(name);
      const refused = await limits.hitReconciled(name, rule, k);
      if (refused.allowed) throw new Error("the 201st hit of a limit of 200 was allowed");
      expect(refused.retryAfterMs).toBeGreaterThan(0);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(4_000);
      expect(await refusalsOf(name)).toBe(before + 1);
      expect(await afterWindow(name, rule, k, refused.retryAfterMs, () => limits.hitReconciled(name, rule, k))).toEqual({ allowed: true });
    });

    it("a limit under 100 is counted in the store at each request, exactly, across processes", async () => {
      const processes = [await startProcess(), await startProcess()];
      const rule: RateLimitRule = { limit: 5, windowMs: 60_000 };
      const k = freshKey();
      const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => processes[i % 2]!.hitReconciled("small", rule, k)));
      expect(outcomes.filter((o) => o.allowed)).toHaveLength(5);
      expect(await processes[0]!.isLimited("small", rule, k)).toBe(true);
    });

    it("two processes hammering one key share its limit: together within the tolerance of it, and not below it", async () => {
      const processes = [await startProcess({ reconcileMs: 50 }), await startProcess({ reconcileMs: 50 })];
      const rule: RateLimitRule = { limit: 400, windowMs: 60_000 };
      const k = freshKey();
      // Each process: 8 callers at once, as fast as answers come, until each has been refused 20 times.
      const allowed = await Promise.all(processes.flatMap((limits) => Array.from({ length: 8 }, async () => {
        let [passed, refused] = [0, 0];
        while (refused < 20) {
          if ((await limits.hitReconciled("hammered", rule, k)).allowed) passed++;
          else refused++;
        }
        return passed;
      })));
      const total = allowed.reduce((sum, passed) => sum + passed, 0);
      expect(total).toBeGreaterThanOrEqual(rule.limit);
      expect(total).toBeLessThanOrEqual(rule.limit * (1 + RECONCILE_TOLERANCE * processes.length));
    });
  });

  it("with the store down, each process counts on its own (no error, no refusal of everyone) and says so once", async () => {
    const down = await storeDown();
    const warnings: string[] = [];
    let warned!: () => void;
    const told = new Promise<void>((resolve) => (warned = resolve));
    const limits = new RateLimits(storeAt(down.port), {
      keyPrefix,
      warn: (line) => {
        warnings.push(line);
        warned();
      },
    });
    try {
      const rule: RateLimitRule = { limit: 2, windowMs: 60_000 };
      const k = freshKey();
      expect(await limits.hit("insured", rule, k)).toEqual({ allowed: true });
      expect(await limits.hit("insured", rule, k)).toEqual({ allowed: true });
      expect((await limits.hit("insured", rule, k)).allowed).toBe(false);
      expect(await limits.hit("insured", rule, freshKey())).toEqual({ allowed: true });
      // The failure is told when the client hears of it; later failures (another request's, an ioredis
      // reconnect's) are not told again. The client has failed an attempt before it makes the next (and
      // a request's before it is answered): once two more attempts came, at least one more failed unheard.
      await told;
      const seen = down.attempts();
      expect((await limits.hit("insured", rule, k)).allowed).toBe(false);
      expect((await limits.hit("insured", rule, k)).allowed).toBe(false);
      await down.attemptsReach(seen + 2);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(new RegExp(`rate limits: ${storeName} failed .*each process counts on its own`));
    } finally {
      await limits.close().catch(() => undefined);
      await down.close();
    }
  });
});
