// Housekeeping: rows that can never be used again are deleted, so the tables that grow with every
// sign-in and every emailed link stay small. Login events are kept: they are the account's history.
import type { DbOrTx } from "@promptly/db";

export interface PruneResult {
  sessions: number;
  tokens: number;
  outbox: number;
}

/** Sent and skipped mail is kept a week (to answer "did it go out?"); failed mail until someone looks. */
const OUTBOX_KEEP_MS = 7 * 24 * 60 * 60_000;

/**
 * Deletes sessions past their absolute end or idle past their owner's session timeout (the same two
 * rules that end them on use), and one-time tokens past their expiry, used or not.
 */
export async function pruneExpired(db: DbOrTx, now: Date): Promise<PruneResult> {
  const sessions = await db.$executeRaw`
    DELETE FROM sessions s USING users u
    WHERE u.id = s.user_id
      AND (s.expires_at <= ${now} OR s.last_active_at < ${now}::timestamptz - u.session_timeout_minutes * interval '1 minute')`;
  const tokens = await db.oneTimeToken.deleteMany({ where: { expiresAt: { lte: now } } });
  const outbox = await db.outboxMessage.deleteMany({
    where: { status: { in: ["sent", "skipped"] }, createdAt: { lt: new Date(now.getTime() - OUTBOX_KEEP_MS) } },
  });
  return { sessions, tokens: tokens.count, outbox: outbox.count };
}

/**
 * Prunes now and then every `everyMs` (default hourly) for as long as the server runs; a failed run
 * is reported and the next one tries again. Runs never overlap. stop() cancels the schedule and
 * resolves once a run in progress has finished, so the database can be closed after it.
 */
export function scheduleHousekeeping(
  services: { db: DbOrTx; now: () => Date },
  options: { everyMs?: number; onError?: (error: unknown) => void } = {},
): () => Promise<void> {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= pruneExpired(services.db, services.now())
      .then(() => undefined, (error: unknown) => options.onError?.(error))
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(run, 0);
  const timer = setInterval(run, options.everyMs ?? 60 * 60_000);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
