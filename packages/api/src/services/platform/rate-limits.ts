// Rate limits shared by every app process: rate-limiter-flexible counters kept in the app's
// own PostgreSQL (the default: the embedded mode needs nothing else), or in Redis when REDIS_URL is
// set. Each rule is a fixed window that starts with its key's first request, as before.
//
// A store that fails (Redis down, PostgreSQL unreachable) does not refuse everyone nor fail requests:
// each limiter has an in-memory insurance limiter, so limits are counted per process until the store
// answers again, and the outage is reported once (and its end once).
import { createPool, type Pool } from "@promptly/db";
import { Redis } from "ioredis";
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

function redisStore(redisUrl: string, outage: Outage): CounterStore {
  const redis = new Redis(redisUrl, {
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

  constructor(config: RateLimitStoreConfig, options: RateLimitsOptions = {}) {
    const warn = options.warn ?? ((line: string) => console.warn(line));
    this.store = config.store === "redis"
      ? redisStore(config.redisUrl, outageReporter("Redis", warn))
      : postgresStore(config.databaseUrl, outageReporter("PostgreSQL", warn));
    this.keyPrefix = options.keyPrefix ?? (config.store === "redis" ? "promptly:rl:" : "");
  }

  /** Counts one request of `key` under rule `name`; refused past the rule's limit until its window ends. */
  async hit(name: string, rule: RateLimitRule, key: string): Promise<RateLimitOutcome> {
    try {
      await this.limiter(name, rule).consume(key);
      return { allowed: true };
    } catch (rejection) {
      // Without a RateLimiterRes both the store and the insurance limiter failed: a real error.
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      rateLimitRefusals.inc({ rule: name });
      return { allowed: false, retryAfterMs: rejection.msBeforeNext };
    }
  }

  /** Whether `key` has used all of rule `name` in its current window, without counting a request. */
  async isLimited(name: string, rule: RateLimitRule, key: string): Promise<boolean> {
    const counted = await this.limiter(name, rule).get(key);
    return counted !== null && counted.consumedPoints >= rule.limit;
  }

  /** Forgets every counter of this instance's key prefix, in the store and in this process. */
  async reset(): Promise<void> {
    await this.store.deleteAll(this.keyPrefix);
    this.limiters.clear();
  }

  /** Resolves once the store answers: a Redis still connecting leaves the first requests to the insurance limiter. */
  ready(): Promise<void> {
    return this.store.ready();
  }

  async close(): Promise<void> {
    await this.store.close();
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
