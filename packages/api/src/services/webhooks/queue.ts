// The webhooks' worker: pg-boss on the app's PostgreSQL (schema `pgboss`, queue `webhooks`), shared by
// every app process; each attempt of a delivery is one job (jobs.ts). Workers hear of a new delivery on
// commit (NOTIFY) and otherwise poll; a sweep queues again any pending delivery whose job was lost
// (written before the queue existed, or its worker died past pg-boss's retries).
import PgBoss from "pg-boss";
import type { Db } from "@promptly/db";
import { listen, type Listener } from "@promptly/db/listen";
import type { ApiConfig, WebhookJobs } from "../types.ts";
import { attemptDelivery, DEFAULT_DELIVERY_TIMINGS, type DeliveryTimings } from "./deliver.ts";
import { PGBOSS_SCHEMA, queueDeliveryJobs, WEBHOOK_CHANNEL, WEBHOOK_QUEUE, type DeliveryJob } from "./jobs.ts";
import { ensureQueue } from "../platform/job-queues.ts";

export interface WebhookQueueOptions extends Partial<DeliveryTimings> {
  databaseUrl: string;
  /** How often a worker looks for due jobs when it heard of none (seconds, at least 0.5). */
  pollingIntervalSeconds?: number;
  /** How often pending deliveries without a job are looked for. */
  sweepMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * The deliveries a process sends at once. Each has its own pg-boss worker taking one job at a time: a
 * worker taking a batch would wait for the batch's slowest receiver (up to the attempt's time limit)
 * before taking more, so one receiver that never answers held up every team's deliveries behind it.
 */
const DELIVERY_SLOTS = 20;

export class WebhookQueue implements WebhookJobs {
  readonly boss: PgBoss;
  readonly timings: DeliveryTimings;
  #started: Promise<void> | null = null;
  #workerIds: string[] = [];
  #listener: Listener | null = null;
  #sweeper: NodeJS.Timeout | null = null;
  #db: Db | null = null;

  constructor(
    readonly options: WebhookQueueOptions,
    private readonly config: ApiConfig,
  ) {
    this.timings = {
      retryBaseMs: options.retryBaseMs ?? DEFAULT_DELIVERY_TIMINGS.retryBaseMs,
      maxAttempts: options.maxAttempts ?? DEFAULT_DELIVERY_TIMINGS.maxAttempts,
      timeoutMs: options.timeoutMs ?? DEFAULT_DELIVERY_TIMINGS.timeoutMs,
    };
    this.boss = new PgBoss({
      connectionString: options.databaseUrl,
      schema: PGBOSS_SCHEMA,
      max: 2,
      application_name: "promptly-webhooks",
      schedule: false,
      supervise: true,
    });
    this.boss.on("error", (error) => options.onError?.(error));
  }

  /** pg-boss started and the queue created, once: deliveries can be queued from then on. */
  ready(): Promise<void> {
    this.#started ??= (async () => {
      await this.boss.start();
      // A job whose worker died is given to another after the attempt's time limit and a margin.
      const seconds = Math.ceil(this.timings.timeoutMs / 1000) + 30;
      await ensureQueue(this.boss, WEBHOOK_QUEUE, { retryLimit: 5, retryDelay: seconds, expireInSeconds: seconds });
    })();
    this.#started.catch(() => (this.#started = null));
    return this.#started;
  }

  /** Sends this process's share of the deliveries until stop(). */
  async startWorker(db: Db): Promise<void> {
    await this.ready();
    this.#db = db;
    const deps = { db, config: this.config, timings: this.timings };
    const work = { batchSize: 1, pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2 };
    for (let slot = 0; slot < DELIVERY_SLOTS; slot++) {
      this.#workerIds.push(
        await this.boss.work<DeliveryJob>(WEBHOOK_QUEUE, work, async (jobs) => {
          // The attempt settles its own delivery: the job always completes.
          for (const job of jobs) await attemptDelivery(deps, job.data.deliveryId).catch((error: unknown) => this.options.onError?.(error));
        }),
      );
    }
    await this.#listen();
    await this.sweep();
    this.#sweeper = setInterval(() => void this.sweep().catch((error: unknown) => this.options.onError?.(error)), this.options.sweepMs ?? 60_000);
  }

  async #listen() {
    this.#listener = await listen(this.options.databaseUrl, WEBHOOK_CHANNEL, () => {
      for (const id of this.#workerIds) this.boss.notifyWorker(id);
    }, (error) => this.options.onError?.(error));
  }

  /** Queues again the pending deliveries overdue by more than the time an attempt may hold one. */
  async sweep(): Promise<void> {
    const db = this.#db;
    if (!db) return;
    if (this.#listener && !this.#listener.alive) await this.#listen().catch((error: unknown) => this.options.onError?.(error));
    const graceMs = this.timings.timeoutMs + 60_000;
    await db.$transaction(async (tx) => {
      const overdue = await tx.$queryRaw<{ id: string }[]>`
        UPDATE webhook_deliveries SET next_attempt_at = now(), updated_at = now()
        WHERE id IN (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at < now() - ${graceMs} * interval '1 millisecond' LIMIT 500 FOR UPDATE SKIP LOCKED)
        RETURNING id::text`;
      await queueDeliveryJobs(tx, overdue.map((row) => row.id));
    });
  }

  async stop(): Promise<void> {
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#sweeper = null;
    await this.#listener?.close();
    this.#listener = null;
    const started = this.#started;
    this.#started = null;
    this.#workerIds = [];
    if (started) {
      await started.catch(() => undefined);
      await this.boss.stop({ graceful: true, wait: true, close: true, timeout: this.timings.timeoutMs + 1_000 });
    }
  }
}
