// The services layer's own types: what the process wires once at start-up, and the plain facts
// about a caller that services need. Nothing here knows of HTTP or tRPC.
import type { Db, DbOrTx } from "@promptly/db";
import type { Lucia } from "lucia";
import type { Mailer } from "./platform/mailer.ts";
import type { Storage } from "./platform/storage.ts";
import type { RateLimits } from "./platform/rate-limits.ts";
import type { RuntimeCache } from "./runtime/runtime-cache.ts";
import type { SessionCache } from "../auth/session-cache.ts";

export interface ApiConfig {
  /** Public origin of the app, e.g. http://localhost:3000: links in emails point here. */
  appUrl: string;
  /** 32+ byte secret; encrypts two-factor secrets at rest. */
  secret: string;
  /** Off in tests that exercise other rules many times in a row. */
  rateLimits: boolean;
  production: boolean;
  /** ALLOW_PRIVATE_PROVIDER_URLS: provider connections may point to private and loopback addresses (self-hosted models). */
  allowPrivateProviderUrls?: boolean;
  /** ALLOW_PRIVATE_WEBHOOK_URLS: webhooks may be sent to private and loopback addresses. */
  allowPrivateWebhookUrls?: boolean;
  /** PROVIDER_TIMEOUT_MS: how long one call to a model provider may take. */
  providerTimeoutMs?: number;
  /** PROVIDER_MAX_CONCURRENT_RUNS: runs of one organization at once, per app process; over it a run is refused. */
  providerMaxConcurrentRuns?: number;
}

/** The evaluations' job queue as the services use it (services/evaluations/queue.ts). */
export interface EvaluationJobs {
  /**
   * Queues a job per item in `tx`, the transaction that creates (or requeues) the items. `round`: a
   * retry's, so the workers read the evaluation's connection and versions afresh for its items.
   */
  enqueue(tx: DbOrTx, connectionId: string, evaluationId: string, itemIds: readonly string[], round?: string): Promise<void>;
  /** Runs this process's share of the work until stop(). */
  startWorker(db: Db): Promise<void>;
  /** In-flight items get `graceMs` to finish, then go back to the queue. */
  stop(graceMs?: number): Promise<void>;
}

/** The webhooks' job queue as the services use it (services/webhooks/queue.ts). */
export interface WebhookJobs {
  /** The queue exists (created on first use): deliveries written from now on are queued at once. */
  ready(): Promise<void>;
  /** Sends this process's share of the deliveries until stop(). */
  startWorker(db: Db): Promise<void>;
  stop(): Promise<void>;
}

/** Process-wide services, created once at start-up. */
export interface ApiServices {
  db: Db;
  mailer: Mailer;
  storage: Storage;
  lucia: Lucia;
  /** Counters of the rate limits, shared by every app process (PostgreSQL, or Redis with REDIS_URL). */
  rateLimits: RateLimits;
  /** This process's memory of the runtime API (prompts, keys, usage counts); serves only while startRuntimeSync listens. */
  runtime: RuntimeCache;
  /** This process's memory of signed-in sessions with their users; serves only while startRuntimeSync listens. */
  sessions: SessionCache;
  config: ApiConfig;
  /** The evaluations' job queue (pg-boss, shared by every app process); its worker runs only where started (the app host). */
  evaluations: EvaluationJobs;
  /** The webhooks' deliveries (pg-boss, shared by every app process); sent only where the worker runs (the app host). */
  webhooks: WebhookJobs;
  /** The clock; tests replace it to move time. */
  now: () => Date;
}

/** Who is calling, as plain values: rate limits count the address, sessions and login history record the device. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}
