// The shape of one benchmark: `npm run bench -- <name>` loads scripts/bench/<name>.ts.
import type pg from "pg";

export interface BaselineQuery {
  sql: string;
  params?: unknown[];
}

export interface Scenario {
  name: string;
  /** A tRPC query (GET) or mutation (POST), e.g. "organizations.list". */
  procedure?: string;
  input?: unknown;
  type?: "query" | "mutation";
  /** Or a plain HTTP GET path, e.g. "/api/health". */
  path?: string;
  /** Sign in as this account first (its password is BENCH_PASSWORD). */
  as?: string;
  /** What a plain Express + pg handler runs for the same answer (sequentially, one connection). */
  baseline: BaselineQuery[];
  /** Override of connections / duration for slow scenarios (e.g. sign-in, bound by argon2). */
  connections?: number;
  /** Ask for a gzip answer, as browsers do (the baseline answers uncompressed either way). */
  gzip?: boolean;
  /** Extra request headers, e.g. an API key's Authorization. */
  headers?: Record<string, string>;
}

export interface SeedContext {
  db: pg.Pool;
  /** The variant being seeded, when the benchmark has variants (e.g. a data size). */
  variant?: string;
  /** Creates a verified account with password BENCH_PASSWORD; returns its id. */
  createAccount(email: string, options?: { superUser?: boolean; role?: "administrator" | "team_lead" | "user"; fullName?: string }): Promise<string>;
  log(line: string): void;
}

/** The running server, for a benchmark that measures it in its own way (Benchmark.measure). */
export interface RunningServer {
  base: string;
  db: pg.Pool;
  /** Signs in as an account seeded with createAccount: its session cookie. */
  signIn(email: string): Promise<string>;
  /**
   * Stops the server and starts a fresh process on the same database, port and folder; resolves when
   * its health endpoint answers (as a load balancer would send it requests) and, with `until`, it has
   * printed that text on stdout: the ms from its spawn to each. RSS and CPU are then the new process's.
   */
  restart(until?: string): Promise<{ healthMs: number; printedMs?: number }>;
  /** `work`'s result and the server's highest RSS (MB) while it ran, sampled every 50 ms. */
  peakRss<T>(work: () => Promise<T>): Promise<[T, number]>;
  /** The server's CPU time so far (user + system, ms). */
  cpuMs(): number;
}

export interface Benchmark {
  description: string;
  /**
   * Run everything once per variant (e.g. data sizes "1k", "100k"), each on a fresh database of its
   * own with its own server, so one table shows how the figures change with the data.
   */
  variants?: readonly string[];
  /** Environment of the server for a variant, over the harness's own (which turns RATE_LIMITS off). */
  serverEnv?(variant?: string): Record<string, string>;
  /** Seconds per load when BENCH_DURATION is not set (the harness's default is 10). */
  duration?: number;
  /**
   * Also measure a bare node:http server answering each scenario's bytes as ours answered them, from
   * memory, in the same rounds (its req/s, latency and our ratio to it beside the baseline's).
   */
  bare?: boolean;
  /** Seconds of unmeasured load before each measured one (JIT, caches, pools): default 0. */
  warmup?: number;
  seed?(ctx: SeedContext): Promise<void>;
  scenarios?(ctx: { db: pg.Pool; variant?: string }): Promise<Scenario[]> | Scenario[];
  /**
   * Instead of scenarios against the Express + pg baseline: measures the running server in its own way
   * (e.g. streamed runs against calling a model provider directly, in the same run) and returns the
   * report's lines (its table and targets).
   */
  measure?(server: RunningServer): Promise<string[]>;
  /** Measurements of its own against the running server (e.g. a client's cache): lines for the report. */
  after?(ctx: { base: string; db: pg.Pool }): Promise<string[]>;
}

export const BENCH_PASSWORD = "bench-password-1";
