// Rate limits shared by every app process: rate-limiter-flexible counters kept in the app's
// own PostgreSQL (the default: the embedded mode needs nothing else), or in Redis when REDIS_URL is
// set. Each rule is a fixed window that starts with its key's first request, as before.
//
// A rule counted with `hitReconciled` (an API key's requests, the hot path of every tool) is counted
// in process first: a request makes no round trip to the store; each process adds its counts to the
// shared counter in batches (a batch's worth, or every RECONCILE_MS) and learns the shared total from
// the answer. Within one process the limit is exact; across processes it may be passed by at most
// RECONCILE_TOLERANCE of the limit per process (see reconcileBatch).
//
// A store that fails (Redis down, PostgreSQL unreachable) does not refuse everyone nor fail requests:
// each limiter has an in-memory insurance limiter, so limits are counted per process until the store
// answers again, and the outage is reported once (and its end once).
import { createPool, type Pool } from "@promptly/db";
import { createRequire } from "node:module";
import type { Redis as RedisClient } from "ioredis";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { rateLimitRefusals } from "./metrics.ts";

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export type RateLimitOutcome = { allowed: true } | { allowed: false; retryAfterMs: number };

export type RateLimitStoreConfig =
  | { store: "postgres"; databaseUrl: string }
  | { store: "redis"; redisUrl: string };

export interface RateLimitsOptions {
  /** Prepended to every counter's key; tests give each run its own. */
  keyPrefix?: string;
  /** Told when the store fails and when it answers again. */
  warn?: (line: string) => void;
  /** How often counts kept in process are added to the shared store, at the latest (ms); tests shorten it. */
  reconcileMs?: number;
}

/** At the latest, how long a count kept in process waits before it is added to the shared store. */
const RECONCILE_MS = 250;
/**
 * The share of a rule's limit one process may admit beyond it, before it hears of the others' use:
 * with N processes hammering one key, the combined allowance over a window stays under
 * limit × (1 + RECONCILE_TOLERANCE × N). Within one process the limit is exact.
 */
export const RECONCILE_TOLERANCE = 0.02;

/**
 * Requests of a key a process counts before it adds them to the store: half the tolerance (once the
 * shared total passes the limit, a process may still have a batch on its way and a batch kept before
 * it hears so). A limit whose tolerance is under two requests is not batched (see hitReconciled).
 */
const reconcileBatch = (limit: number) => Math.max(1, Math.floor((limit * RECONCILE_TOLERANCE) / 2));

/** The id of one key's count under one rule. */
const countId = (name: string, rule: RateLimitRule, key: string) => `${name}/${rule.limit}/${rule.windowMs}\n${key}`;

/** One key's count under one rule, as this process knows it. */
interface LocalCount {
  name: string;
  rule: RateLimitRule;
  key: string;
  /** The shared total as the store last answered it (this process's batches included). */
  shared: number;
  /** When the store's window ends (epoch ms); null until the store has answered. */
  windowEndsAt: number | null;
  /** Counted here, on their way to the store. */
  sending: number;
  /** Counted here, not yet sent. */
  pending: number;
  /** The batch on its way, if one is. */
  reconciling: Promise<void> | null;
}

/** The table of migration 20261123072552_rate_limits (never created at run time). */
const TABLE = "rate_limits";
/** Connections of the counters' own pool: each statement is one short upsert (measured: 2 halve the throughput under load, 8 add little). */
const POOL_SIZE = 4;
/** A Redis that hangs must not hold requests: past this the insurance limiter answers. */
const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/** Reports a store's failure once, and its recovery once, instead of once per request. */
function outageReporter(store: string, warn: (line: string) => void) {
  let down = false;
  return {
    failed(error: unknown) {
      if (down) return;
      down = true;
      warn(`rate limits: ${store} failed (${(error as Error).message}); each process counts on its own until it answers again`);
    },
    recovered() {
      if (!down) return;
      down = false;
      warn(`rate limits: ${store} answers again; limits are shared across processes again`);
    },
  };
}

type Outage = ReturnType<typeof outageReporter>;

interface LimiterOptions {
  keyPrefix: string;
  points: number;
  duration: number;
  /** Once a key is refused, this process refuses it from memory until its window ends (no store round trip). */
  inMemoryBlockOnConsumed: number;
  insuranceLimiter: RateLimiterMemory;
}

/** The counters' store: builds a limiter per rule, deletes counters, closes its connection. */
interface CounterStore {
  limiter(options: LimiterOptions): RateLimiterAbstract;
  deleteAll(keyPrefix: string): Promise<void>;
  /** Resolves once the store answers (until then the insurance limiter counts). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

function postgresStore(databaseUrl: string, outage: Outage): CounterStore {
  const pool: Pool = createPool({ url: databaseUrl, max: POOL_SIZE }, (error) => outage.failed(error));
  // The library's statements go through here, so a failure (and the recovery after it) is seen.
  const client = {
    async query(query: { text: string; values?: unknown[]; name?: string }) {
      try {
        const result = await pool.query(query);
        outage.recovered();
        return result;
      } catch (error) {
        outage.failed(error);
        throw error;
      }
    },
  };
  return {
    limiter: (options) =>
      new RateLimiterPostgres({
        ...options,
        storeClient: client,
        storeType: "pool",
        tableName: TABLE,
        tableCreated: true,
        // Housekeeping deletes expired counters, in one process at a time.
        clearExpiredByTimeout: false,
      }),
    async deleteAll(keyPrefix) {
      await pool.query(`DELETE FROM ${TABLE} WHERE starts_with(key, $1)`, [keyPrefix]);
    },
    ready: async () => {
      await pool.query("SELECT 1");
    },
    close: () => pool.end(),
  };
}

/** ioredis, loaded only by a process that keeps its limits in Redis (about 10 MB of memory the others do without). */
const loadRedis = () => (createRequire(import.meta.url)("ioredis") as typeof import("ioredis")).Redis;

function redisStore(redisUrl: string, outage: Outage): CounterStore {
  const Redis = loadRedis();
  const redis: RedisClient = new Redis(redisUrl, {
    // While disconnected, commands fail at once (the insurance limiter answers) instead of queueing.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
  redis.on("error", (error: Error) => outage.failed(error));
  redis.on("ready", () => outage.recovered());
  return {
    limiter: (options) => new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true }),
    async deleteAll(keyPrefix) {
      let cursor = "0";
      do {
        const [next, keys] = await redis.scan(cursor, "MATCH", `${keyPrefix.replace(/[*?[\]\\]/g, "\\$&")}*`, "COUNT", 500);
        if (keys.length) await redis.unlink(...keys);
        cursor = next;
      } while (cursor !== "0");
    },
    ready: () => (redis.status === "ready" ? Promise.resolve() : new Promise((resolve) => redis.once("ready", () => resolve()))),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/**
 * The process's rate limits: one limiter per rule (its name, limit and window), counting in the
 * shared store. A refusal is counted in the `promptly_rate_limit_refusals_total` metric by rule name.
 */
export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  private readonly store: CounterStore;
  private readonly keyPrefix: string;
  private readonly reconcileMs: number;
  private readonly warn: (line: string) => void;
  private readonly counts = new Map<string, LocalCount>();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(config: RateLimitStoreConfig, options: RateLimitsOptions = {}) {
    const warn = options.warn ?? ((line: string) => console.warn(line));
    this.warn = warn;
    this.reconcileMs = options.reconcileMs ?? RECONCILE_MS;
    this.store = config.store === "redis"
      ? redisStore(config.redisUrl, outageReporter("Redis", warn))
      : postgresStore(config.databaseUrl, outageReporter("PostgreSQL", warn));
    this.keyPrefix = options.keyPrefix ?? (config.store === "redis" ? "promptly:rl:" : "");
  }

  /** Counts `requests` requests (one by default) of `key` under rule `name`; refused past the rule's limit until its window ends. */
  async hit(name: string, rule: RateLimitRule, key: string, requests = 1): Promise<RateLimitOutcome> {
    try {
      await this.limiter(name, rule).consume(key, requests);
      return { allowed: true };
    } catch (rejection) {
      // Without a RateLimiterRes both the store and the insurance limiter failed: a real error.
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      rateLimitRefusals.inc({ rule: name });
      return { allowed: false, retryAfterMs: rejection.msBeforeNext };
    }
  }

  /**
   * Counts `requests` requests (one by default; a batch's calls) of `key` under rule `name` in this
   * process, all allowed or all refused: refused when they would pass the limit, as `hit` refuses; the
   * count reaches the shared store in batches (see RECONCILE_TOLERANCE). A request waits for the store
   * only when a batch is already on its way and another one is full, or to learn when the window of a
   * key it refuses ends.
   */
  async hitReconciled(name: string, rule: RateLimitRule, key: string, requests = 1): Promise<RateLimitOutcome> {
    // Under 100 a window the tolerance is less than two requests: counted in the store at each request, exactly.
    if (rule.limit * RECONCILE_TOLERANCE < 2) return this.hit(name, rule, key, requests);
    const id = countId(name, rule, key);
    let count = this.counts.get(id);
    if (!count) {
      count = { name, rule, key, shared: 0, windowEndsAt: null, sending: 0, pending: 0, reconciling: null };
      this.counts.set(id, count);
      this.sweeper ??= setInterval(() => this.sweep(), this.reconcileMs).unref();
    }
    const batch = reconcileBatch(rule.limit);
    // At most a batch on its way and a batch kept: what other processes may not know of yet.
    while (count.pending >= batch && count.reconciling) await count.reconciling;
    if (count.pending >= batch) void this.reconcile(count);
    this.rollWindow(count);
    if (count.shared + count.sending + count.pending + requests > rule.limit) {
      // Refused: when the window ends is the store's word, so it is asked once if not yet known.
      if (count.windowEndsAt === null) await this.reconcile(count);
      this.rollWindow(count);
      if (count.windowEndsAt !== null && count.shared + count.sending + count.pending + requests > rule.limit) {
        rateLimitRefusals.inc({ rule: name });
        return { allowed: false, retryAfterMs: Math.max(0, count.windowEndsAt - Date.now()) };
      }
    }
    this.admit(count, batch, requests);
    return { allowed: true };
  }

  /**
   * hitReconciled's answer when it can be given at once: true when the request is counted and
   * allowed without waiting for anything; false when nothing was counted and hitReconciled must
   * answer (a key not counted yet, a batch to wait for, a possible refusal).
   */
  hitNow(name: string, rule: RateLimitRule, key: string): boolean {
    if (rule.limit * RECONCILE_TOLERANCE < 2) return false;
    const count = this.counts.get(countId(name, rule, key));
    const batch = reconcileBatch(rule.limit);
    if (!count || (count.pending >= batch && count.reconciling)) return false;
    if (count.pending >= batch) void this.reconcile(count);
    this.rollWindow(count);
    if (count.shared + count.sending + count.pending >= rule.limit) return false;
    this.admit(count, batch);
    return true;
  }

  /** Allowed requests, counted here; a full batch leaves for the store. */
  private admit(count: LocalCount, batch: number, requests = 1) {
    count.pending += requests;
    if (count.pending >= batch && !count.reconciling) void this.reconcile(count);
  }

  /** Whether `key` has used all of rule `name` in its current window, without counting a request. */
  async isLimited(name: string, rule: RateLimitRule, key: string): Promise<boolean> {
    const counted = await this.limiter(name, rule).get(key);
    return counted !== null && counted.consumedPoints >= rule.limit;
  }

  /** Forgets every counter of this instance's key prefix, in the store and in this process. */
  async reset(): Promise<void> {
    await Promise.all([...this.counts.values()].map((count) => count.reconciling));
    this.counts.clear();
    await this.store.deleteAll(this.keyPrefix);
    this.limiters.clear();
  }

  /** Adds every count kept in process to the store now (and at shutdown). */
  async reconcileAll(): Promise<void> {
    await Promise.all([...this.counts.values()].map((count) => this.reconcile(count)));
  }

  /** Resolves once the store answers: a Redis still connecting leaves the first requests to the insurance limiter. */
  ready(): Promise<void> {
    return this.store.ready();
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    await this.reconcileAll();
    await this.store.close();
  }

  /** Once the window the store named has ended, the count starts again from what is still unsent. */
  private rollWindow(count: LocalCount) {
    if (count.windowEndsAt !== null && count.windowEndsAt <= Date.now()) {
      count.shared = 0;
      count.windowEndsAt = null;
    }
  }

  /**
   * Sends what the process counted (after the batch on its way, if any) and learns the shared total
   * and the window's end from the store's answer. A failure keeps the counts for the next batch.
   */
  private async reconcile(count: LocalCount): Promise<void> {
    while (count.reconciling) await count.reconciling;
    const points = count.pending;
    if (points === 0 && count.windowEndsAt !== null) return;
    count.pending = 0;
    count.sending = points;
    const sent = (async () => {
      let answer: RateLimiterRes;
      let refused = false;
      try {
        answer = await this.limiter(count.name, count.rule).consume(count.key, points);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) {
          count.pending += points;
          this.warn(`rate limits: a batch of counts failed (${(rejection as Error).message}); kept for the next one`);
          return;
        }
        answer = rejection;
        refused = true;
      }
      // Over the limit, a key the store blocks in memory answers no total, only the time left.
      count.shared = refused ? Math.max(answer.consumedPoints, count.rule.limit) : answer.consumedPoints;
      count.windowEndsAt = Date.now() + answer.msBeforeNext;
    })().finally(() => {
      count.sending = 0;
      count.reconciling = null;
    });
    count.reconciling = sent;
    await sent;
  }

  /** Sends the counts waiting for their batch to fill, and forgets keys idle since their window ended. */
  private sweep() {
    for (const [id, count] of this.counts) {
      if (count.pending > 0 && !count.reconciling) void this.reconcile(count);
      else if (count.pending === 0 && !count.reconciling && (count.windowEndsAt === null || count.windowEndsAt <= Date.now())) this.counts.delete(id);
    }
  }

  private limiter(name: string, rule: RateLimitRule): RateLimiterAbstract {
    const id = `${name}/${rule.limit}/${rule.windowMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const options = { keyPrefix: `${this.keyPrefix}${name}`, points: rule.limit, duration: rule.windowMs / 1000 };
      limiter = this.store.limiter({ ...options, inMemoryBlockOnConsumed: rule.limit + 1, insuranceLimiter: new RateLimiterMemory(options) });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}
