// The outbox: every email the product sends is a row written in the same transaction as the event
// that causes it, with a job on pg-boss (schema `pgboss`, queue `mail`, beside the evaluations' and
// webhooks' queues) that sends it when due: now, after the notification digest's wait, or after a
// failed attempt's delay. The row is the message's record (its status, attempts and last error: the
// health endpoint's figures); the job is when and by whom it is sent. A worker's job sends every
// message due (each claimed with FOR UPDATE SKIP LOCKED and a lease, so several processes send each
// once); a job of a process that died is given to another by pg-boss, and a sweep queues a job for
// any waiting message that has none (mail queued before the queue existed, or before an upgrade).
// Rows name what to send, not its text: emailed links are issued when the message goes out, so the
// table never holds a usable token, and a request's answer never depends on who the address is.
import PgBoss from "pg-boss";
import { MailKind, Prisma, type Db, type DbOrTx } from "@promptly/db";
import { listen, type Listener } from "@promptly/db/listen";
import type { Mailer } from "./mailer.ts";
import { registeredMailKinds, renderOutboxMail, type MailRequest, type RenderedMail } from "./outbox-mail.ts";
import { ensureQueue } from "./job-queues.ts";

export type { MailRequest } from "./outbox-mail.ts";

const OUTBOX_CHANNEL = "promptly_outbox";

const MAIL_QUEUE = "mail";
const PGBOSS_SCHEMA = "pgboss";

/** pg-boss's statements on a Prisma client or transaction. */
const onTransaction = (tx: DbOrTx): PgBoss.Db => ({
  async executeSql(text, values) {
    return { rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values) };
  },
});

// Only pg-boss's insert statement is used from this instance (on the caller's transaction): it never starts or connects.
const inserter = new PgBoss({
  schema: PGBOSS_SCHEMA,
  db: { executeSql: () => Promise.reject(new Error("mail jobs are inserted on a transaction")) },
});

/**
 * Queues the job that sends what is due at `due` (a message just queued, a digest's end, a retry), in
 * `tx`; due now, workers hear of it on commit. Nothing when the queue does not exist yet in this
 * database (no worker ever started here): the first worker's sweep queues it.
 */
export async function queueMailJob(tx: DbOrTx, messageId: string, due: Date, now: Date): Promise<void> {
  // A missing table would abort the caller's transaction: asked first.
  const [{ ready } = { ready: false }] = await tx.$queryRaw<{ ready: boolean }[]>`SELECT to_regclass('pgboss.queue') IS NOT NULL AS ready`;
  if (!ready) return;
  const [{ exists } = { exists: false }] = await tx.$queryRaw<{ exists: boolean }[]>`SELECT EXISTS (SELECT 1 FROM pgboss.queue WHERE name = ${MAIL_QUEUE}) AS exists`;
  if (!exists) return;
  const later = due.getTime() > now.getTime();
  await inserter.insert([{ name: MAIL_QUEUE, data: { messageId }, ...(later ? { startAfter: due } : {}) }], { db: onTransaction(tx) });
  if (!later) await tx.$executeRaw`SELECT pg_notify(${OUTBOX_CHANNEL}, '')`;
}

/** Queues a message; pass the transaction of the event that causes it. Workers hear of it on commit. */
export async function enqueueMail(db: DbOrTx, mail: MailRequest, now: Date): Promise<void> {
  const row = await db.outboxMessage.create({
    data: { kind: mail.kind, recipient: mail.to, payload: mail.payload, nextAttemptAt: now, createdAt: now },
    select: { id: true },
  });
  await queueMailJob(db, row.id, now, now);
}

/** Waits after the 1st, 2nd, ... failed attempt: about eight hours in all before a message fails for good. */
const RETRY_DELAYS_MS = [10_000, 30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 60 * 60_000, 2 * 60 * 60_000, 4 * 60 * 60_000];
/**
 * How long a worker may take over one claimed message before another may claim it again: well above
 * the SMTP client's own timeouts (mailer.ts), so a slow server cannot make two workers send one message.
 */
const LEASE_MS = 2 * 60_000;

export interface OutboxDeps {
  db: Db;
  mailer: Mailer;
  config: { appUrl: string; secret: string };
  now: () => Date;
}

interface ClaimedRow {
  id: string;
  kind: MailKind;
  recipient: string;
  payload: unknown;
  attempts: number;
  created_at: Date;
}

export interface DrainResult {
  sent: number;
  skipped: number;
  retried: number;
  failed: number;
}

/**
 * Claims due messages one at a time (each with its own lease) and sends them, until none is due or
 * `stopping()` says the process shuts down (the message being sent is finished; the rest wait in the outbox).
 */
export async function drainOutbox(deps: OutboxDeps, stopping: () => boolean = () => false): Promise<DrainResult> {
  const result: DrainResult = { sent: 0, skipped: 0, retried: 0, failed: 0 };
  while (!stopping()) {
    const now = deps.now();
    const lease = new Date(now.getTime() + LEASE_MS);
    const [row] = await deps.db.$queryRaw<ClaimedRow[]>`
      UPDATE outbox SET locked_until = ${lease}, attempts = attempts + 1
      WHERE id = (
        SELECT id FROM outbox
        WHERE status = 'pending' AND next_attempt_at <= ${now} AND (locked_until IS NULL OR locked_until <= ${now})
        ORDER BY next_attempt_at, created_at
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
      RETURNING id, kind, recipient, payload, attempts, created_at`;
    if (!row) return result;
    result[await deliverRow(deps, row, lease)] += 1;
  }
  return result;
}

async function deliverRow(deps: OutboxDeps, row: ClaimedRow, lease: Date): Promise<keyof DrainResult> {
  const now = deps.now();
  let rendered: RenderedMail;
  try {
    // Rendered (and its link issued) under a lock on the row: a change of credentials that cancels
    // the message (revokeEmailedLinks) waits for it, then revokes the link it issued.
    rendered = await deps.db.$transaction(async (tx) => {
      const [held] = await tx.$queryRaw<{ status: string }[]>`
        SELECT status::text AS status FROM outbox WHERE id = ${row.id}::uuid AND locked_until = ${lease} FOR UPDATE`;
      if (held?.status !== "pending") return { skip: "Cancelled or taken over while being sent" };
      const mail = { kind: row.kind, to: row.recipient, payload: row.payload } as MailRequest;
      return renderOutboxMail({ db: tx, config: deps.config }, mail, { createdAt: row.created_at, now });
    });
  } catch (error) {
    return retryLater(deps, row, lease, error);
  }
  if ("skip" in rendered) {
    await finish(deps.db, row.id, lease, { status: "skipped", lastError: rendered.skip, lockedUntil: null });
    return "skipped";
  }
  try {
    await deps.mailer.send({ to: row.recipient, ...rendered });
  } catch (error) {
    return retryLater(deps, row, lease, error);
  }
  // Sent: a failure to record it must not schedule a second send. The lease keeps other workers off
  // for two minutes; the record is tried again meanwhile.
  for (let attempt = 0; ; attempt++) {
    try {
      await finish(deps.db, row.id, lease, { status: "sent", sentAt: deps.now(), lastError: null, lockedUntil: null });
      return "sent";
    } catch (error) {
      if (attempt >= 4) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
    }
  }
}

async function retryLater(deps: OutboxDeps, row: ClaimedRow, lease: Date, error: unknown): Promise<keyof DrainResult> {
  const lastError = describeError(error);
  const delay = RETRY_DELAYS_MS[row.attempts - 1];
  if (delay === undefined) {
    await finish(deps.db, row.id, lease, { status: "failed", lastError, lockedUntil: null });
    return "failed";
  }
  const now = deps.now();
  const next = new Date(now.getTime() + delay);
  // The next attempt's job with it: a retry recorded is a retry queued.
  await deps.db.$transaction(async (tx) => {
    const { count } = await finish(tx, row.id, lease, { lastError, lockedUntil: null, nextAttemptAt: next });
    if (count) await queueMailJob(tx, row.id, next, now);
  });
  return "retried";
}

/** Records the outcome, only while this worker still holds the row (its lease). */
const finish = (db: DbOrTx, id: string, lease: Date, data: Prisma.OutboxMessageUpdateManyMutationInput) =>
  db.outboxMessage.updateMany({ where: { id, lockedUntil: lease }, data });

/** The log line of a failure, kept on the row: a message, never a stack. */
const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

export interface OutboxStats {
  /** Messages waiting to be sent (including those waiting for a retry). */
  depth: number;
  /** Age of the oldest waiting message, in seconds; 0 when none waits. */
  oldestAgeSeconds: number;
  /** Messages that failed for good (kept with their last error). */
  failed: number;
}

export async function outboxStats(db: DbOrTx, now: Date): Promise<OutboxStats> {
  const [row] = await db.$queryRaw<{ depth: bigint; oldest: Date | null; failed: bigint }[]>`
    SELECT count(*) FILTER (WHERE status = 'pending') AS depth,
           min(created_at) FILTER (WHERE status = 'pending') AS oldest,
           count(*) FILTER (WHERE status = 'failed') AS failed
    FROM outbox WHERE status IN ('pending', 'failed')`;
  return {
    depth: Number(row?.depth ?? 0),
    oldestAgeSeconds: row?.oldest ? Math.max(0, Math.round((now.getTime() - row.oldest.getTime()) / 1000)) : 0,
    failed: Number(row?.failed ?? 0),
  };
}

export interface OutboxWorker {
  /** Sends everything due now; resolves when this process has nothing due left. */
  drain(): Promise<void>;
  /** Stops taking jobs; resolves once the drain in progress has finished (the rest wait for another process). */
  stop(): Promise<void>;
  /** Resolves once the queue exists and the worker takes jobs (mail queued from then on gets its job at once). */
  ready: Promise<void>;
}

/**
 * A job of a process that died is given to another after this long: above the lease of the message it
 * was sending (which keeps others off it until then), so the next worker finds it free.
 */
const JOB_EXPIRY_SECONDS = Math.ceil(LEASE_MS / 1000) + 30;

/**
 * Queues a job for each waiting message that has none waiting or running: mail queued before the
 * queue existed (an outbox of an earlier version, a database no worker had started on) or whose job
 * ended without sending it (a lease of a process that died). Each due when the message is.
 */
async function sweep(db: Db, now: Date): Promise<void> {
  await db.$transaction(async (tx) => {
    const orphans = await tx.$queryRaw<{ id: string; due: Date }[]>`
      SELECT o.id::text AS id, greatest(o.next_attempt_at, coalesce(o.locked_until, o.next_attempt_at)) AS due
      FROM outbox o
      WHERE o.status = 'pending'
        AND NOT EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = ${MAIL_QUEUE} AND j.state IN ('created', 'retry', 'active') AND j.data->>'messageId' = o.id::text)
      LIMIT 1000`;
    for (const orphan of orphans) await queueMailJob(tx, orphan.id, orphan.due, now);
  });
}

/**
 * This process's share of the mail, on pg-boss: a job that comes due (a message queued now, a digest's
 * end, a retry) sends every message due; workers hear of mail queued in any process on commit, and
 * poll every `pollMs` otherwise. Drains never overlap within a process; a request to drain during one
 * runs another pass after it. `sweepMs`: how often waiting messages without a job are looked for.
 */
export function startOutboxWorker(
  deps: OutboxDeps,
  options: { databaseUrl: string; pollMs?: number; sweepMs?: number; onError?: (error: unknown) => void },
): OutboxWorker {
  const unwritten = Object.values(MailKind).filter((kind) => !registeredMailKinds().includes(kind));
  if (unwritten.length) throw new Error(`The outbox has no renderer for ${unwritten.join(", ")}: load the services' hooks (services/hooks.ts) first`);
  const onError = options.onError ?? ((error: unknown) => console.error("Outbox:", describeError(error)));
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let listener: Listener | null = null;
  let workerId: string | null = null;
  let sweeper: NodeJS.Timeout | null = null;

  const drain = (): Promise<void> => {
    if (stopped) return running ?? Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await drainOutbox(deps, () => stopped);
        } catch (error) {
          onError(error);
        }
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
    return running;
  };

  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    schema: PGBOSS_SCHEMA,
    max: 2,
    application_name: "promptly-mail",
    schedule: false,
    supervise: true,
  });
  boss.on("error", onError);

  const listenForMail = async () => {
    listener = await listen(options.databaseUrl, OUTBOX_CHANNEL, () => {
      if (workerId) boss.notifyWorker(workerId);
    }, onError);
    if (stopped) await listener.close();
  };

  const started = (async () => {
    await boss.start();
    await ensureQueue(boss, MAIL_QUEUE, { retryLimit: 10, retryDelay: 5, expireInSeconds: JOB_EXPIRY_SECONDS });
    if (stopped) return;
    workerId = await boss.work(MAIL_QUEUE, { batchSize: 10, pollingIntervalSeconds: Math.max(0.5, (options.pollMs ?? 2_000) / 1000) }, async () => {
      await drain();
      // Cut short by the shutdown: the job goes back to the queue (for another process, or this one's next start).
      if (stopped) throw new Error("The process stopped before its mail was sent");
    });
    await listenForMail();
    await sweep(deps.db, deps.now());
    const sweepAgain = async () => {
      if (listener && !listener.alive) await listenForMail();
      await sweep(deps.db, deps.now());
    };
    sweeper = setInterval(() => void sweepAgain().catch(onError), options.sweepMs ?? 60_000);
    sweeper.unref();
  })();
  started.catch(onError);

  return {
    drain,
    ready: started.catch(() => undefined),
    async stop() {
      stopped = true;
      if (sweeper) clearInterval(sweeper);
      await started.catch(() => undefined);
      await listener?.close();
      await running;
      await boss.stop({ graceful: true, wait: true, close: true, timeout: LEASE_MS });
    },
  };
}
