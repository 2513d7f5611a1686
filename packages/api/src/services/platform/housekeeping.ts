// Housekeeping: rows that can never be used again are deleted, so the tables that grow with every
// sign-in and every emailed link stay small. Login events are kept: they are the account's history.
// Every app process schedules it; an advisory lock lets one process at a time run it.
import type { Db, DbOrTx } from "@promptly/db";
import { clearGenerationText } from "./generation-text.ts";

export interface PruneResult {
  sessions: number;
  tokens: number;
  outbox: number;
  rateLimits: number;
  playgroundDrafts: number;
  /** Generations deleted row by row (an organization keeping them fewer days than the longest). */
  generations: number;
  /** Monthly partitions of generations dropped whole (past every organization's retention). */
  generationPartitions: number;
  /** Generations whose input and output were cleared (their team stopped keeping text: see clearGenerationText). */
  generationTexts: number;
}

/** The advisory lock a run holds (its transaction's), so two processes never prune at once. */
const HOUSEKEEPING_LOCK = 7_253_018;
/** A run deletes in one transaction: allow it far longer than Prisma's default of 5 s. */
const RUN_TIMEOUT_MS = 10 * 60_000;

/** Generations whose text a run clears at the most (the next run goes on): a run is one transaction. */
const TEXT_CLEAR_BATCH = 5_000;

/** Sent and skipped mail is kept a week (to answer "did it go out?"); failed mail until someone looks. */
const OUTBOX_KEEP_MS = 7 * 24 * 60 * 60_000;

/**
 * Deletes sessions past their absolute end or idle past their owner's session timeout (the same two
 * rules that end them on use), one-time tokens past their expiry, used or not, and rate-limit counters
 * whose window has ended (the PostgreSQL store; a new window overwrites its key's row anyway), and
 * staged playground drafts past their expiry. Also makes sure the generations table has its partitions
 * for this month and the next two (the migration's function: a no-op for a month that has one), so
 * generations rarely land in the default partition. And generations past their organization's retention
 * go (their rollups stay, so the Production tab's figures do not change): see pruneGenerations. And the
 * text of teams that stopped keeping it is cleared, a batch a run: see clearGenerationText.
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
  const rateLimits = await db.rateLimitCounter.deleteMany({ where: { expire: { lt: BigInt(now.getTime()) } } });
  const playgroundDrafts = await db.playgroundDraft.deleteMany({ where: { expiresAt: { lte: now } } });
  await db.$queryRaw`SELECT production_ensure_generation_partition(${now}::timestamptz + m * interval '1 month')::text FROM generate_series(0, 2) AS m`;
  const pruned = await pruneGenerations(db, now);
  const generationTexts = await clearGenerationText(db, TEXT_CLEAR_BATCH);
  return { sessions, tokens: tokens.count, outbox: outbox.count, rateLimits: rateLimits.count, playgroundDrafts: playgroundDrafts.count, ...pruned, generationTexts };
}

/** A month's partition of generations, as production_ensure_generation_partition names it. */
const MONTH_PARTITION = /^generations_(\d{4})_(\d{2})$/;
const DAY_MS = 24 * 60 * 60_000;

/**
 * Generations kept past their organization's retention (generation_retention_days, 90 by default)
 * are deleted. A month whose every row is past every organization's retention is dropped whole
 * (its partition: no row-by-row delete, no dead rows to vacuum); in the months left, the rows of an
 * organization keeping them fewer days are deleted one by one. Scores and rollups are kept.
 */
async function pruneGenerations(db: DbOrTx, now: Date): Promise<{ generations: number; generationPartitions: number }> {
  const [{ longest, shortest }] = await db.$queryRaw<[{ longest: number | null; shortest: number | null }]>`
    SELECT max(generation_retention_days) AS longest, min(generation_retention_days) AS shortest FROM organizations`;
  if (longest === null || shortest === null) return { generations: 0, generationPartitions: 0 };
  const everyoneDone = now.getTime() - longest * DAY_MS;
  const partitions = await db.$queryRaw<{ name: string }[]>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'generations'::regclass`;
  let generationPartitions = 0;
  for (const { name } of partitions) {
    const month = MONTH_PARTITION.exec(name);
    if (!month) continue;
    const monthEnd = Date.UTC(Number(month[1]), Number(month[2]), 1);
    if (monthEnd > everyoneDone) continue;
    // The name matched the pattern above: nothing else reaches the statement.
    await db.$executeRawUnsafe(`DROP TABLE "${name}"`);
    generationPartitions += 1;
  }
  // Only partitions holding rows older than the shortest retention are read (a constant bound on started_at prunes the rest).
  const generations = await db.$executeRaw`
    DELETE FROM generations g USING organizations o
     WHERE o.id = g.organization_id
       AND g.started_at < ${new Date(now.getTime() - shortest * DAY_MS)}::timestamptz
       AND g.started_at < ${now}::timestamptz - o.generation_retention_days * interval '1 day'`;
  return { generations, generationPartitions };
}

/** One run, unless another process's run holds the lock: its result, or null when skipped. */
function pruneExpiredOnce(db: Db, now: Date): Promise<PruneResult | null> {
  return db.$transaction(
    async (tx) => {
      const [{ locked }] = await tx.$queryRaw<[{ locked: boolean }]>`SELECT pg_try_advisory_xact_lock(${HOUSEKEEPING_LOCK}::bigint) AS locked`;
      return locked ? pruneExpired(tx, now) : null;
    },
    { timeout: RUN_TIMEOUT_MS },
  );
}

/**
 * Prunes now and then every `everyMs` (default hourly) for as long as the server runs; a failed run
 * is reported and the next one tries again. Runs never overlap, in this process nor across processes
 * (a run finding another one in progress skips: `onRun` hears null). stop() cancels the schedule and
 * resolves once a run in progress has finished, so the database can be closed after it.
 */
export function scheduleHousekeeping(
  services: { db: Db; now: () => Date },
  options: { everyMs?: number; onError?: (error: unknown) => void; onRun?: (result: PruneResult | null) => void } = {},
): () => Promise<void> {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= pruneExpiredOnce(services.db, services.now())
      .then((result) => options.onRun?.(result), (error: unknown) => options.onError?.(error))
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
