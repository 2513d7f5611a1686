import { createDb } from "@promptly/db";
import { createLucia } from "../auth/lucia.ts";
import type { ApiConfig, ApiServices } from "./types.ts";
import { createSmtpMailer, type SmtpConfig } from "./platform/mailer.ts";
import { RateLimits } from "./platform/rate-limits.ts";
import { RuntimeCache } from "./runtime/runtime-cache.ts";
import { createS3Storage, type S3Config } from "./platform/storage.ts";

export interface ServicesConfig extends ApiConfig {
  databaseUrl: string;
  smtp: SmtpConfig;
  s3: S3Config;
  /** REDIS_URL: shared state (rate limits) in Redis instead of PostgreSQL. */
  redisUrl?: string;
  now?: () => Date;
  /** Where warnings of the services go (e.g. a rate-limit store that stopped answering); console.warn by default. */
  warn?: (line: string) => void;
}

/** Wires the process-wide services from configuration. */
export function createServices(config: ServicesConfig): ApiServices {
  const db = createDb({ url: config.databaseUrl });
  const now = config.now ?? (() => new Date());
  return {
    db,
    mailer: createSmtpMailer(config.smtp),
    storage: createS3Storage(config.s3),
    lucia: createLucia(db),
    rateLimits: new RateLimits(
      config.redisUrl ? { store: "redis", redisUrl: config.redisUrl } : { store: "postgres", databaseUrl: config.databaseUrl },
      { warn: config.warn },
    ),
    runtime: new RuntimeCache(),
    config: {
      appUrl: config.appUrl,
      secret: config.secret,
      rateLimits: config.rateLimits,
      production: config.production,
      allowPrivateProviderUrls: config.allowPrivateProviderUrls ?? false,
      providerTimeoutMs: config.providerTimeoutMs,
      providerMaxConcurrentRuns: config.providerMaxConcurrentRuns,
    },
    now,
  };
}

export async function closeServices(services: ApiServices) {
  services.mailer.close();
  await services.rateLimits.close();
  await services.db.$disconnect();
}
