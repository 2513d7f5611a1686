// The evaluations' job queue: pg-boss on the app's PostgreSQL (schema `pgboss`), shared by every app
// process. One job per evaluation item, in one queue per provider connection, inserted in the
// transaction that creates the items. Each process runs a lane per connection with work: it holds
// slots of the connection's concurrency limit (session advisory locks, slot-locks.ts: a killed process
// lets go of its slots at once) and fetches as many jobs as it holds free slots (its own loop over
// fetch(), not pg-boss's work(), which sleeps its polling interval after every fetch). A job whose
// process died expires and is retried by pg-boss elsewhere; the item's write is `WHERE status =
// 'pending'`, so each item is recorded once. A cancel is heard by every process (NOTIFY) and aborts its
// provider calls for that evaluation at once.
import PgBoss from "pg-boss";
import type { Db, DbOrTx } from "@promptly/db";
import { listen, type Listener } from "@promptly/db/listen";
import { openSlotLocks, type SlotLocks } from "@promptly/db/slot-locks";
import type { ApiConfig, EvaluationJobs } from "../types.ts";
import { judgeAnswerLimitMs } from "@promptly/shared";
import { OnlineEvaluationWorker } from "./online.ts";
import {
  EvaluationCannotRun, failEvaluation, finishIfComplete, loadEvaluationContext, recordItems, sweepEvaluations, runEvaluationItem, type EvaluationContext, type PendingItem,
  type Recorded,
} from "./run-item.ts";
import { ensureQueue } from "../platform/job-queues.ts";

export const EVALUATION_CHANNEL = "promptly_evaluations";
/** Provider calls at once per connection, across every app process (EVALUATION_CONCURRENCY). */
const DEFAULT_EVALUATION_CONCURRENCY = 20;
const SCHEMA = "pgboss";

export interface EvaluationQueueOptions {
  databaseUrl: string;
  /** Provider calls at once per connection, across processes. */
  concurrency?: number;
  /** How long a job may stay taken before it is given to another process (its process died); at least the provider's timeout. */
  jobExpirySeconds?: number;
  /** How often pg-boss looks for expired jobs (any one process does it for all). */
  maintenanceIntervalSeconds?: number;
  /** The first wait after a 429 or a 5xx; doubled at each retry. */
  retryBaseMs?: number;
  /** How often sampled production generations are looked for (online evaluation). */
  onlineSweepMs?: number;
  onError?: (error: unknown) => void;
}

interface JobData {
  evaluationId: string;
  itemId: string;
  /** A retry's round: its items' context is read afresh, not the one kept from the earlier round. */
  round?: string;
}

const queueName = (connectionId: string) => `evaluations-${connectionId}`;

/** pg-boss's statements on a Prisma transaction, so its jobs commit with the items they run. */
const onTransaction = (tx: DbOrTx): PgBoss.Db => ({
  async executeSql(text, values) {
    return { rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values) };
  },
});

export class EvaluationQueue implements EvaluationJobs {
  readonly boss: PgBoss;
  readonly concurrency: number;
  readonly jobExpirySeconds: number;
  #started: Promise<void> | null = null;
  #queues = new Map<string, Promise<void>>();
  #worker: Worker | null = null;
  /** Online evaluation's jobs, run where the evaluations' worker runs. */
  online: OnlineEvaluationWorker | null = null;

  constructor(
    readonly options: EvaluationQueueOptions,
    private readonly config: ApiConfig,
  ) {
    this.concurrency = options.concurrency ?? DEFAULT_EVALUATION_CONCURRENCY;
    // The provider's timeout for the first call and its retries' waits, with room to spare.
    this.jobExpirySeconds = options.jobExpirySeconds ?? Math.ceil(judgeAnswerLimitMs(config.providerTimeoutMs ?? 60_000) / 1000) + 30;
    this.boss = new PgBoss({
      connectionString: options.databaseUrl,
      schema: SCHEMA,
      // Fetches, completions and a read of the items per batch: a few connections are enough.
      max: 4,
      application_name: "promptly-evaluations",
      schedule: false,
      supervise: true,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 15,
    });
    this.boss.on("error", (error) => options.onError?.(error));
  }

  /** pg-boss started (its schema created or migrated on first use), once. */
  ready(): Promise<void> {
    this.#started ??= this.boss.start().then(() => undefined);
    return this.#started;
  }

  #queue(connectionId: string): Promise<void> {
    const name = queueName(connectionId);
    let created = this.#queues.get(name);
    if (!created) {
      created = (async () => {
        await this.ready();
        await ensureQueue(this.boss, name, { retryLimit: 20, retryDelay: 1, retryBackoff: true, expireInSeconds: this.jobExpirySeconds });
      })();
      created.catch(() => this.#queues.delete(name));
      this.#queues.set(name, created);
    }
    return created;
  }

  /** Queues a job per item in `tx` (the transaction that creates or requeues them); the workers hear of it on commit. */
  async enqueue(tx: DbOrTx, connectionId: string, evaluationId: string, itemIds: readonly string[], round?: string): Promise<void> {
    await this.#queue(connectionId);
    const name = queueName(connectionId);
    await this.boss.insert(
      itemIds.map((itemId) => ({ name, data: { evaluationId, itemId, ...(round ? { round } : {}) } satisfies JobData, expireInSeconds: this.jobExpirySeconds })),
      { db: onTransaction(tx) },
    );
    await tx.$executeRaw`SELECT pg_notify(${EVALUATION_CHANNEL}, ${`start:${connectionId}`})`;
  }

  /** Runs this process's lanes until stop(). */
  async startWorker(db: Db): Promise<void> {
    await this.ready();
    this.#worker = new Worker(this, db, this.config);
    await this.#worker.start();
    this.online = new OnlineEvaluationWorker(this.boss, db, this.config, {
      sweepMs: this.options.onlineSweepMs, expireInSeconds: this.jobExpirySeconds, onError: this.options.onError,
    });
    await this.online.start();
  }

  /** Each in-flight item is given until `graceMs` to finish, then aborted (its job is failed, to be retried at once elsewhere). */
  async stop(graceMs = 10_000): Promise<void> {
    await this.online?.stop();
    this.online = null;
    await this.#worker?.stop(graceMs);
    this.#worker = null;
    const started = this.#started;
    this.#started = null;
    if (started) {
      await started.catch(() => undefined);
      await this.boss.stop({ graceful: false, wait: true, close: true });
    }
  }

  /** One statement on pg-boss's own connections (node-postgres): the lanes' reads of a batch's items. */
  sql = (text: string, values: unknown[]) => this.boss.getDb().executeSql(text, values);

  /** Fetches up to `count` jobs of a connection. */
  fetch(connectionId: string, count: number): Promise<PgBoss.Job<JobData>[]> {
    return this.boss.fetch<JobData>(queueName(connectionId), { batchSize: count });
  }

  complete(connectionId: string, jobIds: string[]) {
    return this.boss.complete(queueName(connectionId), jobIds);
  }

  fail(connectionId: string, jobIds: string[]) {
    return this.boss.fail(queueName(connectionId), jobIds);
  }
}

/** How long a lane with nothing to do keeps its slots before it lets them go. */
const LANE_IDLE_MS = 1_000;
/** How often a process looks for connections with work it has no lane for (NOTIFY says it sooner). */
const DISCOVER_MS = 1_000;

class Worker {
  #lanes = new Map<string, Lane>();
  #stopping = false;
  #listener: Listener | null = null;
  #locks: SlotLocks | null = null;
  #timer: NodeJS.Timeout | null = null;
  /** In-flight items by evaluation: a cancel aborts them. */
  readonly inFlight = new Map<string, Set<AbortController>>();
  readonly contexts = new Map<string, { at: number; context: Promise<EvaluationContext | null> }>();
  readonly running = new Set<string>();
  /** Evaluations cancelled while this process listened: their items taken ahead are not begun. */
  readonly cancelled = new Set<string>();

  constructor(
    readonly queue: EvaluationQueue,
    readonly db: Db,
    readonly config: ApiConfig,
  ) {}

  onError = (error: unknown) => this.queue.options.onError?.(error);

  async start() {
    this.#locks = await openSlotLocks(this.queue.options.databaseUrl, this.onError);
    await this.#listen();
    this.#timer = setInterval(() => void this.discover().catch(this.onError), DISCOVER_MS);
    await this.discover();
  }

  async #listen() {
    this.#listener = await listen(this.queue.options.databaseUrl, EVALUATION_CHANNEL, (payload) => {
      const [kind, id] = payload.split(":");
      if (kind === "start" && id) this.lane(id);
      if (kind === "cancel" && id) {
        this.cancelled.add(id);
        for (const controller of this.inFlight.get(id) ?? []) controller.abort();
      }
    }, this.onError);
  }

  /** Slot locks, reopened when their connection was lost (every slot it held is free then). */
  async locks(): Promise<SlotLocks> {
    if (!this.#locks?.alive) {
      for (const lane of this.#lanes.values()) lane.slots = [];
      await this.#locks?.close();
      this.#locks = await openSlotLocks(this.queue.options.databaseUrl, this.onError);
    }
    return this.#locks;
  }

  async discover() {
    if (this.#stopping) return;
    if (this.#listener && !this.#listener.alive) await this.#listen().catch(this.onError);
    const rows = await this.db.$queryRaw<{ connectionId: string }[]>`
      SELECT DISTINCT connection_id::text AS "connectionId" FROM evaluations WHERE status IN ('queued', 'running') AND connection_id IS NOT NULL`;
    for (const row of rows) this.lane(row.connectionId);
    if (rows.length) await sweepEvaluations(this.db);
    // A cancel this process did not hear (its listener was reconnecting) still stops its calls within a second or so.
    if (this.inFlight.size) {
      const ended = await this.db.evaluation.findMany({ where: { id: { in: [...this.inFlight.keys()] }, status: { notIn: ["queued", "running"] } }, select: { id: true } });
      for (const { id } of ended) {
        this.cancelled.add(id);
        for (const controller of this.inFlight.get(id) ?? []) controller.abort();
      }
    }
    const now = Date.now();
    for (const [id, kept] of this.contexts) if (now - kept.at > 60_000) this.contexts.delete(id);
    if (this.running.size > 10_000) this.running.clear();
    if (this.cancelled.size > 10_000) this.cancelled.clear();
  }

  lane(connectionId: string) {
    if (this.#stopping) return;
    const existing = this.#lanes.get(connectionId);
    if (existing) return existing.wake();
    const lane = new Lane(this, connectionId);
    this.#lanes.set(connectionId, lane);
    void lane.run().catch(this.onError).finally(() => this.#lanes.delete(connectionId));
  }

  get stopping() {
    return this.#stopping;
  }

  /** The evaluation's context, kept a minute per round (a retry's items read it afresh). */
  context(evaluationId: string, round: string | undefined): Promise<EvaluationContext | null> {
    const key = round ? `${evaluationId}:${round}` : evaluationId;
    let kept = this.contexts.get(key);
    if (!kept) {
      kept = { at: Date.now(), context: loadEvaluationContext(this.db, this.config, evaluationId) };
      kept.context.catch(() => this.contexts.delete(key));
      this.contexts.set(key, kept);
    }
    return kept.context;
  }

  async stop(graceMs: number) {
    this.#stopping = true;
    if (this.#timer) clearInterval(this.#timer);
    const lanes = [...this.#lanes.values()];
    for (const lane of lanes) lane.wake();
    const settled = Promise.all(lanes.map((lane) => lane.done));
    const grace = setTimeout(() => {
      for (const controllers of this.inFlight.values()) for (const controller of controllers) controller.abort();
    }, graceMs);
    await settled;
    clearTimeout(grace);
    await this.#listener?.close();
    await this.#locks?.close();
  }
}

type Taken = { jobId: string; round: string | undefined; item: (PendingItem & { status: string; evaluationStatus: string }) | undefined };

/** Items ran and not yet written: written together once this many wait, or the oldest waited this long (ms). */
const RECORD_BATCH = 10;
const RECORD_WAIT_MS = 20;

type Ran = { jobId: string; item: PendingItem; data: Recorded };

/**
 * A connection's work in this process: as many items at once as it holds slots, taken from the queue
 * up to one batch ahead (one fetch and one read of the items per batch, not per item), their results
 * written in batches (one statement for up to RECORD_BATCH items; an item's slot is free once its call
 * ended, the write does not hold it), their jobs completed in batches once written (a job completed
 * late is harmless: its item's write happened once; a process killed before the write leaves the item
 * pending and its job to expire, as a kill during the call does).
 */
class Lane {
  slots: number[] = [];
  #active = 0;
  #buffer: Taken[] = [];
  #wake: (() => void) | null = null;
  #finished!: () => void;
  readonly done = new Promise<void>((resolve) => (this.#finished = resolve));
  #completed: string[] = [];
  #failed: string[] = [];
  #ran: Ran[] = [];
  #ranSince = 0;
  #writing = new Set<Promise<void>>();
  #flushedAt = 0;
  /** Evaluations whose items this lane ran since it last had nothing to do. */
  #touched = new Set<string>();

  constructor(
    readonly worker: Worker,
    readonly connectionId: string,
  ) {}

  wake() {
    this.#wake?.();
  }

  #sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = null;
        resolve();
      }, ms);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = null;
        resolve();
      };
    });
  }

  async run() {
    const { queue } = this.worker;
    const key = `evaluations:${this.connectionId}`;
    let idleSince = Date.now();
    let lastAcquire = 0;
    try {
      while (!this.worker.stopping) {
        if (this.#ran.length >= RECORD_BATCH || (this.#ran.length && Date.now() - this.#ranSince >= RECORD_WAIT_MS)) this.#write();
        if (this.#completed.length >= 10 || this.#failed.length || (this.#completed.length && Date.now() - this.#flushedAt > 100)) await this.#flush();
        if (this.slots.length < queue.concurrency && Date.now() - lastAcquire > 200) {
          lastAcquire = Date.now();
          const locks = await this.worker.locks();
          this.slots.push(...(await locks.acquire(key, queue.concurrency, queue.concurrency - this.slots.length)));
        }
        while (this.#active < this.slots.length && this.#buffer.length) this.#start(this.#buffer.shift()!);
        // Refilled at half: the next batch arrives before the slots run dry.
        const wanted = this.slots.length * 2 - this.#active - this.#buffer.length;
        if (this.slots.length && this.#buffer.length <= this.slots.length / 2 && wanted > 0) {
          const taken = await this.#take(wanted);
          if (taken) {
            idleSince = Date.now();
            continue;
          }
        }
        if (this.#active === 0 && !this.#buffer.length) {
          // Out of work: what ran is written now (and the finish below sees it).
          this.#write();
          await this.#written();
          if (this.#touched.size) await finishIfComplete(queue.sql, [...this.#touched]);
          this.#touched.clear();
          if (Date.now() - idleSince > LANE_IDLE_MS) break;
        }
        await this.#sleep(this.#ran.length ? RECORD_WAIT_MS : this.#buffer.length || !this.slots.length ? 1_000 : 100);
      }
      // Shutting down: what was taken but not begun goes back to the queue for another process.
      this.#failed.push(...this.#buffer.splice(0).map((taken) => taken.jobId));
      while (this.#active > 0) await this.#sleep(50);
      this.#write();
      await this.#written();
      await this.#flush();
    } finally {
      const locks = await this.worker.locks().catch(() => null);
      await locks?.release(key, this.slots).catch(() => undefined);
      this.slots = [];
      this.#finished();
    }
  }

  /** Takes up to `count` jobs and reads their items in one statement; false when there were none. */
  async #take(count: number): Promise<boolean> {
    const jobs = await this.worker.queue.fetch(this.connectionId, count);
    if (!jobs.length) return false;
    try {
      const { rows: items } = (await this.worker.queue.sql(
        `SELECT i.id::text, i.evaluation_id::text AS "evaluationId", i.version, i.variables, i.placeholders, i.expected, i.assertions, i.status::text, e.status::text AS "evaluationStatus"
         FROM evaluation_items i JOIN evaluations e ON e.id = i.evaluation_id
         WHERE i.id = ANY($1::uuid[])`,
        [jobs.map((job) => job.data.itemId)],
      )) as { rows: (PendingItem & { status: string; evaluationStatus: string })[] };
      const byId = new Map(items.map((item) => [item.id, item]));
      this.#buffer.push(...jobs.map((job) => ({ jobId: job.id, round: job.data.round, item: byId.get(job.data.itemId) })));
    } catch (error) {
      this.worker.onError(error);
      this.#failed.push(...jobs.map((job) => job.id));
    }
    return true;
  }

  /** Writes the items ran so far in one statement, without waiting for it; their jobs are completed once it committed. */
  #write() {
    const ran = this.#ran.splice(0);
    if (!ran.length) return;
    const writing = (async () => {
      const { queue } = this.worker;
      try {
        await recordItems(queue.sql, ran);
        this.#completed.push(...ran.map((one) => one.jobId));
      } catch {
        // One item's write failed (e.g. its output is not storable): each alone, so only its job fails (and is retried).
        for (const one of ran) {
          try {
            await recordItems(queue.sql, [one]);
            this.#completed.push(one.jobId);
          } catch (error) {
            this.worker.onError(error);
            this.#failed.push(one.jobId);
          }
        }
      }
    })();
    this.#writing.add(writing);
    void writing.finally(() => {
      this.#writing.delete(writing);
      this.wake();
    });
  }

  async #written() {
    while (this.#writing.size) await Promise.all([...this.#writing]);
  }

  async #flush() {
    this.#flushedAt = Date.now();
    const completed = this.#completed.splice(0);
    const failed = this.#failed.splice(0);
    if (completed.length) await this.worker.queue.complete(this.connectionId, completed);
    if (failed.length) await this.worker.queue.fail(this.connectionId, failed);
  }

  #start({ jobId, round, item }: Taken) {
    this.#active++;
    void (async () => {
      try {
        const runnable = item && item.status === "pending" && (item.evaluationStatus === "queued" || item.evaluationStatus === "running") && !this.worker.cancelled.has(item.evaluationId);
        if (runnable) {
          this.#touched.add(item.evaluationId);
          await this.#runItem(item, jobId, round);
        }
        else this.#completed.push(jobId);
      } catch (error) {
        this.worker.onError(error);
        this.#failed.push(jobId);
      } finally {
        this.#active--;
        this.wake();
      }
    })();
  }

  async #runItem(item: PendingItem, jobId: string, round: string | undefined) {
    const { worker } = this;
    let context: EvaluationContext | null;
    try {
      context = await worker.context(item.evaluationId, round);
    } catch (error) {
      if (!(error instanceof EvaluationCannotRun)) throw error;
      await failEvaluation(worker.db, item.evaluationId, error.message);
      this.#completed.push(jobId);
      return;
    }
    if (!context) return void this.#completed.push(jobId);
    if (!worker.running.has(item.evaluationId)) {
      await worker.db.evaluation.updateMany({ where: { id: item.evaluationId, status: "queued" }, data: { status: "running" } });
      worker.running.add(item.evaluationId);
    }
    const controller = new AbortController();
    let controllers = worker.inFlight.get(item.evaluationId);
    if (!controllers) worker.inFlight.set(item.evaluationId, (controllers = new Set()));
    controllers.add(controller);
    try {
      const deps = { config: worker.config, retryBaseMs: worker.queue.options.retryBaseMs ?? 500, retryBudgetMs: (worker.queue.jobExpirySeconds * 1000) / 2 };
      const data = await runEvaluationItem(deps, context, item, controller.signal);
      if (data) {
        if (!this.#ran.length) this.#ranSince = Date.now();
        this.#ran.push({ jobId, item, data });
      }
      // Shut down mid-call: given back, for another process (or this one, restarted) to run again. Cancelled: nothing more to do.
      else if (worker.stopping) this.#failed.push(jobId);
      else this.#completed.push(jobId);
    } finally {
      controllers.delete(controller);
      if (!controllers.size) worker.inFlight.delete(item.evaluationId);
    }
  }
}
