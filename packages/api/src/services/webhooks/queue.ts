// The webhooks' worker: pg-boss on the app's PostgreSQL (schema `pgboss`, queue `webhooks`), shared by
// every app process; each attempt of a delivery is one job (jobs.ts), claimed FOR UPDATE SKIP LOCKED so
// processes share them. A process hears of a new delivery on commit (NOTIFY) and otherwise polls, and
// either way wakes one idle slot (wake-ups below); a sweep queues again any pending delivery whose job
// was lost (written before the queue existed, or its worker died past pg-boss's retries).
import PgBoss from "pg-boss";
import { within } from "@promptly/shared";
import type { Db } from "@promptly/db";
import { listen, type Listener } from "@promptly/db/listen";
import type { ApiConfig, WebhookJobs } from "../types.ts";
import { attemptDelivery, DEFAULT_DELIVERY_TIMINGS, type DeliveryTimings } from "./deliver.ts";
import { PGBOSS_SCHEMA, queueDeliveryJobs, WEBHOOK_CHANNEL, WEBHOOK_QUEUE, type DeliveryJob } from "./jobs.ts";
import { ensureQueue } from "../platform/job-queues.ts";

export interface WebhookQueueOptions extends Partial<DeliveryTimings> {
  databaseUrl: string;
  /** How often an idle slot looks for due jobs (a retry's, or one it did not hear of), in seconds, at least 0.5. */
  pollingIntervalSeconds?: number;
  /** How often pending deliveries without a job are looked for. */
  sweepMs?: number;
  /** How long one attempt may hold its slot (its HTTP call and its database steps) before its job is failed, to be retried; the attempt's time limit and a margin by default. */
  attemptLimitMs?: number;
  /** The deliveries this process sends at once. */
  slots?: number;
  onError?: (error: unknown) => void;
}

/**
 * The deliveries a process sends at once. Each slot takes one job at a time: a worker taking a batch
 * would wait for the batch's slowest receiver (up to the attempt's time limit) before taking more, so
 * one receiver that never answers held up every team's deliveries behind it.
 */
const DELIVERY_SLOTS = 20;

/** An attempt's time beyond its HTTP call's limit (its claim and its settling) before its job is failed: well within the job's expiry. */
const ATTEMPT_MARGIN_MS = 15_000;

/** A job a slot holds: whoever ends it first (the slot, its time limit, stop()) completes or fails it, once. */
interface Held {
  jobId: string;
  /** Frees the slot at once; the attempt, if it still runs, is left to end on its own. */
  abandon: () => void;
}

/**
 * Wake-ups handed to idle slots one at a time. A NOTIFY or a poll wakes one slot; a slot that claims a
 * job wakes the next (a burst fans out to every slot), one that finds none sleeps again and wakes
 * nobody: one new delivery costs two claims, not one per slot. A wake-up that finds every slot busy is
 * kept for the first to finish, so what the slots could not take at once is taken without the poll.
 */
class WakeUps {
  #sleeping: (() => void)[] = [];
  #owed = false;
  #closed = false;
  #onClose!: () => void;
  /** Resolves when the worker stops. */
  readonly whenClosed = new Promise<void>((resolve) => (this.#onClose = resolve));

  wakeOne(): void {
    const slot = this.#sleeping.shift();
    if (slot) slot();
    else this.#owed = true;
  }

  /** Resolves when this slot is to look for a job; at once when closed. */
  sleep(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#owed) {
      this.#owed = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#sleeping.push(resolve));
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Every slot wakes to stop. */
  close(): void {
    this.#closed = true;
    this.#onClose();
    for (const slot of this.#sleeping.splice(0)) slot();
  }
}

export class WebhookQueue implements WebhookJobs {
  readonly boss: PgBoss;
  readonly timings: DeliveryTimings;
  readonly attemptLimitMs: number;
  #started: Promise<void> | null = null;
  #wakeUps: WakeUps | null = null;
  #slots: Promise<void>[] = [];
  #held = new Set<Held>();
  #listener: Listener | null = null;
  #poller: NodeJS.Timeout | null = null;
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
      ...(options.claimTimeoutMs === undefined ? {} : { claimTimeoutMs: options.claimTimeoutMs }),
    };
    this.attemptLimitMs = options.attemptLimitMs ?? this.timings.timeoutMs + ATTEMPT_MARGIN_MS;
    this.boss = new PgBoss({
      connectionString: options.databaseUrl,
      schema: PGBOSS_SCHEMA,
      max: 2,
      application_name: "promptly-webhooks",
      schedule: false,
      supervise: true,
    });
    this.boss.on("error", (error) => this.#report(error));
  }

  /** The error to options.onError; one that throws there is dropped (it must not end a slot or pg-boss's loop). */
  #report(error: unknown): void {
    try {
      this.options.onError?.(error);
    } catch {
      // Nowhere left to say it.
    }
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
    const wakeUps = new WakeUps();
    this.#wakeUps = wakeUps;
    for (let slot = 0; slot < (this.options.slots ?? DELIVERY_SLOTS); slot++) this.#slots.push(this.#slot(db, wakeUps));
    // Jobs queued while no process listened.
    wakeUps.wakeOne();
    await this.#listen();
    await this.sweep();
    this.#poller = setInterval(() => wakeUps.wakeOne(), Math.max(0.5, this.options.pollingIntervalSeconds ?? 2) * 1000);
    this.#sweeper = setInterval(() => void this.sweep().catch((error: unknown) => this.#report(error)), this.options.sweepMs ?? 60_000);
  }

  /** Takes one job at a time until stop(); no job ends it (each one's error fails that job only). */
  async #slot(db: Db, wakeUps: WakeUps): Promise<void> {
    const deps = { db, config: this.config, timings: this.timings };
    for (;;) {
      await wakeUps.sleep();
      if (wakeUps.closed) return;
      let job: PgBoss.Job<DeliveryJob> | undefined;
      try {
        [job] = await this.boss.fetch<DeliveryJob>(WEBHOOK_QUEUE, { batchSize: 1 });
      } catch (error) {
        this.#report(error);
        continue;
      }
      if (!job) continue;
      // Fetched as stop() began (it may have taken its list of held jobs already): not run, retried by pg-boss.
      if (wakeUps.closed) {
        await this.boss.fail(WEBHOOK_QUEUE, job.id, failure(new Error("The webhook worker stopped before the delivery attempt"))).catch((error: unknown) => this.#report(error));
        return;
      }
      // There may be more: the next idle slot looks.
      wakeUps.wakeOne();
      try {
        await this.#run(deps, job, wakeUps);
      } catch (error) {
        this.#report(error);
      }
    }
  }

  /**
   * One job: its attempt, raced against the attempt's time limit as pg-boss's work() raced a handler
   * against its job's expiry. The attempt settles its own delivery, so its job completes; one that throws
   * or runs past the limit (a statement stuck on a lock) fails its job, retried by pg-boss. An abandoned
   * attempt that ends later touches neither the job (it is no longer held) nor a delivery claimed since
   * (its writes are for its own claim only, and the claim's lease keeps a retry from sending meanwhile).
   * The slot is given back only when the abandoned attempt ends (or the worker stops): it still holds a
   * database connection, and attempts are abandoned when the database stalls, so a slot that took the
   * next job would pile up stalled attempts until the app's connection pool ran dry.
   */
  async #run(deps: Parameters<typeof attemptDelivery>[0], job: PgBoss.Job<DeliveryJob>, wakeUps: WakeUps): Promise<void> {
    let abandon!: () => void;
    const abandoned = new Promise<{ error: unknown; abandoned?: true }>((resolve) =>
      (abandon = () => resolve({ error: new Error(`The webhook delivery attempt was abandoned after ${this.attemptLimitMs} ms`), abandoned: true })));
    const held: Held = { jobId: job.id, abandon };
    this.#held.add(held);
    const limit = setTimeout(abandon, this.attemptLimitMs);
    // A throw before the attempt starts (a job without data) is this job's error too.
    const attempt = (async () => attemptDelivery(deps, job.data.deliveryId))();
    const ended: { error: unknown; abandoned?: true } = await Promise.race([attempt.then(() => ({ error: null as unknown }), (error: unknown) => ({ error: error ?? new Error("The webhook delivery attempt failed") })), abandoned]);
    clearTimeout(limit);
    // An abandoned attempt's own error, should it end with one later, is still said.
    if (ended.abandoned) void attempt.catch((error: unknown) => this.#report(error));
    try {
      // Ended by stop() already.
      if (!this.#held.delete(held)) return;
      if (ended.error === null) {
        await this.boss.complete(WEBHOOK_QUEUE, job.id);
        return;
      }
      this.#report(ended.error);
      await this.boss.fail(WEBHOOK_QUEUE, job.id, failure(ended.error));
    } finally {
      if (ended.abandoned) await Promise.race([attempt.then(noop, noop), wakeUps.whenClosed]);
    }
  }

  async #listen() {
    this.#listener = await listen(this.options.databaseUrl, WEBHOOK_CHANNEL, () => this.#wakeUps?.wakeOne(), (error) => this.#report(error));
  }

  /** Queues again the pending deliveries overdue by more than the time an attempt may hold one. */
  async sweep(): Promise<void> {
    const db = this.#db;
    if (!db) return;
    if (this.#listener && !this.#listener.alive) await this.#listen().catch((error: unknown) => this.#report(error));
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
    if (this.#poller) clearInterval(this.#poller);
    this.#poller = null;
    // No slot takes a job from here on (one fetched meanwhile is failed, not run).
    this.#wakeUps?.close();
    this.#wakeUps = null;
    await this.#listener?.close();
    this.#listener = null;
    // The attempts under way are given their HTTP call's time limit to end; the jobs of those still
    // running then are failed, retried by pg-boss after its retry delay (as its own stop() did for
    // work()'s jobs), rather than left active until they expire and maintenance notices.
    const slots = Promise.all(this.#slots.splice(0));
    await within(slots, this.timings.timeoutMs + 1_000);
    const held = [...this.#held];
    this.#held.clear();
    if (held.length) {
      const stopped = failure(new Error("The webhook worker stopped during the delivery attempt"));
      await Promise.all(held.map((h) => this.boss.fail(WEBHOOK_QUEUE, h.jobId, stopped).catch((error: unknown) => this.#report(error))));
    }
    for (const h of held) h.abandon();
    await slots;
    const started = this.#started;
    this.#started = null;
    if (started) {
      await started.catch(() => undefined);
      await this.boss.stop({ graceful: true, wait: true, close: true });
    }
  }
}

const noop = () => undefined;

/** A failed job's output, as pg-boss's work() records a handler's error. */
const failure = (error: unknown) => (error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) });
