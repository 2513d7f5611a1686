// Starts the whole product from a validated Env: embedded services where no external one is
// configured, migrations, the API services and the HTTP server. Returns a stop() that undoes it all.
import type { Server } from "node:http";
import { createServer } from "node:net";
import { migrate } from "@promptly/db/migrate";
import {
  closeServices, configureNotificationMail, createServices, runsRecorded, scheduleHousekeeping, startOutboxWorker, startRuntimeSync, warmStoredProviderSdks, type ApiServices,
} from "@promptly/api";
import type { RequestHandler } from "express";
import { createApp } from "./app.ts";
import { startMerging } from "./ingest-merge-thread.ts";
import { warmRunPath } from "./warm-up.ts";
import { createHttpDrain } from "./drain.ts";
import { createLogger, logDestination, type Logger } from "./logger.ts";
import { openedPorts, type Env } from "./env.ts";
import { claimDataDir, startEmbeddedPostgres, startEmbeddedS3, startMailCatcher, stopLeftoverPostgres, type EmbeddedService } from "./embedded.ts";

/** How long past SHUTDOWN_TIMEOUT_MS the records of runs cut at it may still take (their statement, not another answer). */
const RUN_RECORDS_AFTER_LIMIT_MS = 2_000;

export interface Running {
  services: ApiServices;
  logger: Logger;
  server: Server;
  urls: { app: string; mailbox?: string };
  stop(): Promise<void>;
}

/** Fails with a clear message when a port we are about to open is taken (e.g. Promptly is already running). */
async function assertPortsFree(ports: { port: number; host: string; variable: string }[]) {
  for (const { port, host, variable } of ports) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, host, () => probe.close(() => resolve(true)));
    });
    if (!free) {
      throw new Error(`port ${port} (${variable}) is already in use. Is Promptly already running? Stop it, or set ${variable} to another port.`);
    }
  }
}

export async function boot(env: Env, opts: { viteMiddleware?: RequestHandler; logger?: Logger } = {}): Promise<Running> {
  const logger = opts.logger ?? createLogger(env.LOG_LEVEL, logDestination(env.LOG_FORMAT));
  const log = (line: string) => logger.info(line);
  const warn = (message: string) => (error: unknown) => logger.warn({ err: error }, message);
  const ports = openedPorts(env);
  // The app's own port first: taken means Promptly itself is running, and its database is in use.
  await assertPortsFree(ports.filter((p) => p.variable === "PORT"));
  // Embedded services keep their data in DATA_DIR: one live Promptly per folder. With the folder
  // claimed, a PostgreSQL still running on it was left by a crashed start, and is stopped.
  const releaseDataDir = env.DATABASE_URL ? () => {} : claimDataDir(env.DATA_DIR);
  try {
    if (!env.DATABASE_URL) await stopLeftoverPostgres(env.DATA_DIR, log);
    await assertPortsFree(ports.filter((p) => p.variable !== "PORT"));
  } catch (error) {
    releaseDataDir();
    throw error;
  }
  const embedded: EmbeddedService[] = [];
  const stopEmbedded = async () => {
    for (const service of embedded.reverse()) await service.stop().catch(() => undefined);
  };
  try {
    const [database, s3, mail] = await Promise.all([
      env.DATABASE_URL ? { url: env.DATABASE_URL } : startEmbeddedPostgres({ dataDir: env.DATA_DIR, port: env.EMBEDDED_POSTGRES_PORT }),
      env.S3_ENDPOINT
        ? { config: { endpoint: env.S3_ENDPOINT, accessKey: env.S3_ACCESS_KEY!, secretKey: env.S3_SECRET_KEY! } }
        : startEmbeddedS3({ dataDir: env.DATA_DIR, port: env.EMBEDDED_S3_PORT }),
      env.SMTP_HOST
        ? { smtp: { host: env.SMTP_HOST, port: env.SMTP_PORT } }
        : startMailCatcher({ dataDir: env.DATA_DIR, smtpPort: env.SMTP_PORT, webPort: env.MAILBOX_PORT }),
    ].map(async (started) => {
      const value = await started;
      if ("service" in value) embedded.push(value.service);
      return value;
    })) as [{ url: string }, { config: { endpoint: string; accessKey: string; secretKey: string } }, { smtp: { host: string; port: number }; webUrl?: string }];

    const { applied } = await migrate(database.url);
    if (applied.length) logger.info({ migrations: applied }, `Applied migrations: ${applied.join(", ")}`);

    const services = createServices({
      databaseUrl: database.url,
      smtp: {
        ...mail.smtp,
        allowSelfSigned: !env.SMTP_HOST,
        secure: env.SMTP_SECURE,
        user: env.SMTP_USER,
        password: env.SMTP_PASSWORD,
        from: env.SMTP_FROM,
      },
      s3: { ...s3.config, region: env.S3_REGION, bucket: env.S3_BUCKET },
      redisUrl: env.REDIS_URL,
      runtimeCacheMaxBytes: env.RUNTIME_CACHE_MAX_MB * 1024 * 1024,
      appUrl: env.APP_URL,
      secret: env.APP_SECRET,
      rateLimits: env.RATE_LIMITS,
      production: env.NODE_ENV === "production",
      allowPrivateProviderUrls: env.ALLOW_PRIVATE_PROVIDER_URLS,
      allowPrivateWebhookUrls: env.ALLOW_PRIVATE_WEBHOOK_URLS,
      providerTimeoutMs: env.PROVIDER_TIMEOUT_MS,
      providerMaxConcurrentRuns: env.PROVIDER_MAX_CONCURRENT_RUNS,
      warn: (line) => logger.warn(line),
      webhooks: { onError: warn("webhook queue") },
      evaluations: { concurrency: env.EVALUATION_CONCURRENCY, jobExpirySeconds: env.EVALUATION_JOB_EXPIRY_SECONDS, onError: warn("evaluation queue") },
    });
    configureNotificationMail({ digestSeconds: env.NOTIFICATION_DIGEST_SECONDS });
    // The model providers' SDKs the stored connections call through load now, beside the rest of the
    // start (readiness waits for them, with the rest of the run path's warm-up): the first run does not
    // wait for a module load (one that starts while they are still loading waits for the same load).
    const sdksStarted = Date.now();
    const sdksLoaded = warmStoredProviderSdks(services.db).then(
      (modules) => {
        if (modules.length) logger.info({ modules, ms: Date.now() - sdksStarted }, `Provider SDKs loaded ahead of the first run: ${modules.join(", ")}`);
        return modules;
      },
      (error: unknown) => {
        warn("provider SDKs not loaded ahead of the first run")(error);
        return [];
      },
    );
    await services.storage.ensureBucket().catch(warn("avatar bucket not ready"));

    if (env.TEST_FAULTS) logger.warn("TEST_FAULTS is on: requests may ask for API failures (for the end-to-end tests only)");
    const http = createHttpDrain();
    // Readiness answers "starting" until the end of this start: the workers below started and the run path warmed.
    let starting = true;
    const app = createApp({
      services, webDist: env.WEB_DIST, viteMiddleware: opts.viteMiddleware, trustProxy: env.TRUST_PROXY, allowedHosts: env.ALLOWED_HOSTS,
      testFaults: env.TEST_FAULTS, apiRateLimitPerMinute: env.API_RATE_LIMIT_PER_MINUTE, logger, metricsToken: env.METRICS_TOKEN,
      isDraining: http.isDraining, isStarting: () => starting,
    });
    const server = await new Promise<Server>((resolve, reject) => {
      const listening = app.listen(env.PORT, env.HOST, () => resolve(listening));
      listening.once("error", reject);
    });
    http.attach(server);
    // Dead sessions and expired emailed links are deleted while the server runs.
    const stopHousekeeping = scheduleHousekeeping(services, {
      onError: warn("housekeeping failed"),
      // Partitions whose lock was busy: made or dropped by the next run, not a failure.
      onWarning: warn("housekeeping postponed"),
    });
    // Production signals accepted (appended) but not merged yet, by this process or one that stopped, are merged
    // (on a thread of their own in the built server).
    const stopIngestMerges = startMerging(services.db, { databaseUrl: database.url, onError: warn("production signals not merged yet") });
    // Mail goes out from its queue (pg-boss, shared by every app process): mail queued by an earlier run,
    // another process or an earlier version too.
    const outbox = startOutboxWorker(services, {
      databaseUrl: database.url,
      onError: warn("mail not sent yet"),
    });
    // Evaluations run from the queue shared by every app process; jobs of a process that died too.
    await services.evaluations.startWorker(services.db);
    // Webhook deliveries go out from their queue, shared by every app process.
    await services.webhooks.startWorker(services.db);
    // The runtime API answers from memory only while this process hears every change (and counts usage).
    const runtimeSync = startRuntimeSync(services, {
      databaseUrl: database.url,
      onError: warn("runtime cache"),
    });
    // A first run costs what the later ones do: the run path is warmed (reads only) before readiness
    // says ready; and mail queued from then on gets its job at once: the mail queue's worker takes jobs.
    await Promise.all([
      warmRunPath(services, { sdks: sdksLoaded, logger }),
      outbox.ready,
    ]);
    starting = false;
    return {
      services,
      logger,
      server,
      urls: { app: env.APP_URL, mailbox: mail.webUrl },
      async stop() {
        // New connections are refused at once; requests in flight finish (up to SHUTDOWN_TIMEOUT_MS)
        // while the background work ends its current step (a mail being sent is sent, not cut).
        // Cases being run get the same time; those cut are given back to the queue at once for another process.
        const deadline = Date.now() + env.SHUTDOWN_TIMEOUT_MS;
        const [{ cut }] = await Promise.all([http.drain(env.SHUTDOWN_TIMEOUT_MS), stopHousekeeping(), outbox.stop(), services.evaluations.stop(env.SHUTDOWN_TIMEOUT_MS), services.webhooks.stop()]);
        if (cut) logger.warn({ cut, limitMs: env.SHUTDOWN_TIMEOUT_MS }, "requests still running at the shutdown limit were cut");
        // The runs those requests had (a provider may answer longer than the limit) were stopped with
        // them: their records are written before the database closes, not left in insertRun's queue, within
        // what is left of the same limit, or RUN_RECORDS_AFTER_LIMIT_MS past it for those cut at the limit.
        const recordsMs = Math.max(deadline - Date.now(), RUN_RECORDS_AFTER_LIMIT_MS);
        if (!(await runsRecorded(recordsMs))) logger.warn({ limitMs: recordsMs }, "runs not recorded by the shutdown limit are lost");
        // After the last request's append: its merge (rows left unmerged wait for the next start's).
        await stopIngestMerges();
        // After the server: the last requests' usage is counted, then flushed.
        await runtimeSync.stop();
        await closeServices(services);
        await stopEmbedded();
        releaseDataDir();
      },
    };
  } catch (error) {
    await stopEmbedded();
    releaseDataDir();
    throw error;
  }
}
