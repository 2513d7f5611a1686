// Prometheus metrics (prom-client), one registry for the process. Served at /metrics when
// METRICS_TOKEN is set. Each metric is defined here once; the code that observes it imports it.
import { isMainThread } from "node:worker_threads";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { dbPoolUse, type Db } from "@promptly/db";

export const metricsRegistry = new Registry();
// The process's own (CPU, memory, event loop lag, sampled every 10 ms): not again in the merge thread, whose registry is never read.
if (isMainThread) collectDefaultMetrics({ register: metricsRegistry, prefix: "promptly_" });

/** Every answered HTTP request: procedure is the tRPC path, or the route for other endpoints. */
export const httpRequests = new Counter({
  name: "promptly_http_requests_total",
  help: "HTTP requests answered, by procedure (tRPC path or route) and status code",
  labelNames: ["procedure", "status"] as const,
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: "promptly_http_request_duration_seconds",
  help: "Time to answer an HTTP request, by procedure and status code",
  labelNames: ["procedure", "status"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

/** Runtime API answers from this process's memory (hit) or from the database (miss). */
export const runtimeCacheLookups = new Counter({
  name: "promptly_runtime_cache_lookups_total",
  help: "Runtime API cache lookups, by result (hit or miss)",
  labelNames: ["result"] as const,
  registers: [metricsRegistry],
});

/** Requests refused by a rate limit, by rule (sign-in, api-key, invite, …). */
export const rateLimitRefusals = new Counter({
  name: "promptly_rate_limit_refusals_total",
  help: "Requests refused by a rate limit, by rule",
  labelNames: ["rule"] as const,
  registers: [metricsRegistry],
});

/**
 * Production signals sent in, one unit a signal: a generation (however many events of it one request
 * holds), a score, or a span dropped. Set aside and put back count the same units, so what is aside now
 * is set_aside minus put_back.
 */
export const productionIngested = new Counter({
  name: "promptly_production_ingested_total",
  help: "Production signals received, by source (otel, langfuse, api) and result; one unit is a generation (its events in one request count once), a score or a dropped span. generation, score: written; dropped: spans that named no prompt or were not kept; failed: the signals of an accepted request given up after failing to merge; set_aside: those of a request set aside for an operator after failing to merge again and again, each time it is; put_back: those of a set-aside request put back (ingest-retry), counted when it is next merged or fails, so set_aside minus put_back is what is aside now",
  labelNames: ["source", "result"] as const,
  registers: [metricsRegistry],
});

/** Set when scraped: mail waiting in the outbox (queued or being retried). */
const outboxDepth = new Gauge({
  name: "promptly_outbox_depth",
  help: "Mail waiting in the outbox, by status",
  labelNames: ["status"] as const,
  registers: [metricsRegistry],
});

/** Set when scraped: production signals answered but not merged yet (every process's), and how long the oldest has waited. */
const ingestPending = new Gauge({
  name: "promptly_ingest_pending",
  help: "Production signals accepted and not merged yet (all processes): requests, generation events, the oldest's age in seconds, and requests set aside (kept, not merged) after failing again and again",
  labelNames: ["what"] as const,
  registers: [metricsRegistry],
});

/** Set when scraped: the database pool's connections. */
const dbPool = new Gauge({
  name: "promptly_db_pool_connections",
  help: "Database pool connections, by state (total, idle, waiting clients)",
  labelNames: ["state"] as const,
  registers: [metricsRegistry],
});

/** Sets the gauges read at scrape time (database pool, outbox, pending ingestion), then renders every metric in Prometheus's text format. */
export async function renderMetrics(services: { db: Db }): Promise<string> {
  const pool = dbPoolUse(services.db);
  if (pool) {
    dbPool.set({ state: "total" }, pool.total);
    dbPool.set({ state: "idle" }, pool.idle);
    dbPool.set({ state: "waiting" }, pool.waiting);
  }
  // A scrape while the database is down still answers: the outbox figure is then left out.
  outboxDepth.reset();
  const rows = await services.db.$queryRaw<{ status: string; count: bigint }[]>`
    SELECT status::text, count(*) AS count FROM outbox WHERE status IN ('pending', 'failed') GROUP BY status`.catch(() => null);
  for (const row of rows ?? []) outboxDepth.set({ status: row.status }, Number(row.count));
  // A backlog that grows (or an oldest that ages) is ingestion the merges do not keep up with, or a request that keeps failing.
  ingestPending.reset();
  const [pending] = (await services.db.$queryRaw<{ requests: number; generations: number; oldest: number; setAside: number }[]>`
    SELECT count(*) FILTER (WHERE set_aside_at IS NULL)::int AS requests, coalesce(sum(generations) FILTER (WHERE set_aside_at IS NULL), 0)::int AS generations,
           coalesce(extract(epoch FROM now() - min(received_at) FILTER (WHERE set_aside_at IS NULL)), 0)::float8 AS oldest,
           count(*) FILTER (WHERE set_aside_at IS NOT NULL)::int AS "setAside" FROM ingest_pending`.catch(() => null)) ?? [];
  if (pending) {
    ingestPending.set({ what: "requests" }, pending.requests);
    ingestPending.set({ what: "generations" }, pending.generations);
    ingestPending.set({ what: "oldest_seconds" }, pending.oldest);
    ingestPending.set({ what: "set_aside" }, pending.setAside);
  }
  return metricsRegistry.metrics();
}
