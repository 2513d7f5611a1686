// The outbox: every email the product sends is a row written in the same transaction as the event
// that causes it, then sent by a worker with retries and growing delays. Several app processes may
// drain one outbox: a row is claimed with FOR UPDATE SKIP LOCKED and a lease, so each is sent once.
// Rows name what to send, not its text: emailed links are issued when the message goes out, so the
// table never holds a usable token, and a request's answer never depends on who the address is.
import { Prisma, type Db, type DbOrTx, type MailKind } from "@promptly/db";
import { listen, type Listener } from "@promptly/db/listen";
import type { Mailer } from "./mailer.ts";
import { renderOutboxMail, type MailRequest, type RenderedMail } from "./outbox-mail.ts";

export type { MailRequest } from "./outbox-mail.ts";

const OUTBOX_CHANNEL = "promptly_outbox";

/** Queues a message; pass the transaction of the event that causes it. Workers hear of it on commit. */
export async function enqueueMail(db: DbOrTx, mail: MailRequest, now: Date): Promise<void> {
  await db.outboxMessage.create({
    data: { kind: mail.kind, recipient: mail.to, payload: mail.payload, nextAttemptAt: now, createdAt: now },
    select: { id: true },
  });
  await db.$executeRaw`SELECT pg_notify(${OUTBOX_CHANNEL}, '')`;
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
  await finish(deps.db, row.id, lease, { lastError, lockedUntil: null, nextAttemptAt: new Date(deps.now().getTime() + delay) });
  return "retried";
}

/** Records the outcome, only while this worker still holds the row (its lease). */
const finish = (db: Db, id: string, lease: Date, data: Prisma.OutboxMessageUpdateManyMutationInput) =>
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
  /** Stops listening and polling; resolves once a drain in progress has finished. */
  stop(): Promise<void>;
}

/**
 * Drains on every notification (a commit that queued mail, in any process) and every `pollMs` (retries
 * that became due, notifications missed while the listening connection was down). Drains never overlap
 * within a process; a request to drain during one runs another pass after it.
 */
export function startOutboxWorker(
  deps: OutboxDeps,
  options: { databaseUrl?: string; pollMs?: number; onError?: (error: unknown) => void } = {},
): OutboxWorker {
  const onError = options.onError ?? ((error: unknown) => console.error("Outbox:", describeError(error)));
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let listener: Listener | null = null;
  let connecting: Promise<void> | null = null;

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

  const ensureListening = () => {
    if (!options.databaseUrl || stopped || listener?.alive || connecting) return;
    connecting = listen(options.databaseUrl, OUTBOX_CHANNEL, () => void drain(), onError)
      .then(async (opened) => {
        if (stopped) await opened.close();
        else listener = opened;
      }, onError)
      .finally(() => {
        connecting = null;
      });
  };

  ensureListening();
  const first = setTimeout(() => void drain(), 0);
  const timer = setInterval(() => {
    ensureListening();
    void drain();
  }, options.pollMs ?? 5_000);
  first.unref();
  timer.unref();

  return {
    drain,
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await connecting;
      await listener?.close();
      await running;
    },
  };
}
