import { createDb } from "@promptly/db";
import { createLucia } from "../auth/lucia.ts";
import type { ApiConfig, ApiServices } from "./types.ts";
import { createSmtpMailer, type SmtpConfig } from "./platform/mailer.ts";
import { RateLimits } from "./platform/rate-limits.ts";
import { RuntimeCache } from "./runtime/runtime-cache.ts";
import { SessionCache } from "../auth/session-cache.ts";
import { createS3Storage, type S3Config } from "./platform/storage.ts";
import { EvaluationQueue, type EvaluationQueueOptions } from "./evaluations/queue.ts";
import { WebhookQueue, type WebhookQueueOptions } from "./webhooks/queue.ts";
import "./hooks.ts";

export interface ServicesConfig extends ApiConfig {
  databaseUrl: string;
  smtp: SmtpConfig;
  s3: S3Config;
  /** REDIS_URL: shared state (rate limits) in Redis instead of PostgreSQL. */
  redisUrl?: string;
  /** RUNTIME_CACHE_MAX_MB, in bytes: the estimated size of the prompts the runtime cache may hold together. */
  runtimeCacheMaxBytes?: number;
  now?: () => Date;
  /** Where warnings of the services go (e.g. a rate-limit store that stopped answering); console.warn by default. */
  warn?: (line: string) => void;
  /** The evaluations' queue: EVALUATION_CONCURRENCY (provider calls at once per connection, across processes) and its timings. */
  evaluations?: Omit<EvaluationQueueOptions, "databaseUrl">;
  /** The webhooks' queue: its timings and where its errors go. */
  webhooks?: Omit<WebhookQueueOptions, "databaseUrl">;
}

/** Wires the process-wide services from configuration. */
export function createServices(config: ServicesConfig): ApiServices {
  const db = createDb({ url: config.databaseUrl, warn: config.warn });
  const now = config.now ?? (() => new Date());
  const apiConfig: ApiConfig = {
    appUrl: config.appUrl,
    secret: config.secret,
    rateLimits: config.rateLimits,
    production: config.production,
    allowPrivateProviderUrls: config.allowPrivateProviderUrls ?? false,
    allowPrivateWebhookUrls: config.allowPrivateWebhookUrls ?? false,
    providerTimeoutMs: config.providerTimeoutMs,
    providerMaxConcurrentRuns: config.providerMaxConcurrentRuns,
  };
  return {
    db,
    mailer: createSmtpMailer(config.smtp),
    storage: createS3Storage(config.s3),
    lucia: createLucia(db),
    rateLimits: new RateLimits(
      config.redisUrl ? { store: "redis", redisUrl: config.redisUrl } : { store: "postgres", databaseUrl: config.databaseUrl },
      { warn: config.warn },
    ),
    runtime: new RuntimeCache({ maxPromptBytes: config.runtimeCacheMaxBytes }),
    sessions: new SessionCache(),
    config: apiConfig,
    evaluations: new EvaluationQueue({ ...config.evaluations, databaseUrl: config.databaseUrl }, apiConfig),
    webhooks: new WebhookQueue({ ...config.webhooks, databaseUrl: config.databaseUrl }, apiConfig),
    now,
  };
}

export async function closeServices(services: ApiServices) {
  await services.evaluations.stop();
  await services.webhooks.stop();
  services.mailer.close();
  await services.rateLimits.close();
  await services.db.$disconnect();
}
