// Housekeeping: rows that can never be used again are deleted, so the tables that grow with every
// sign-in and every emailed link stay small. Login events are kept: they are the account's history.
// Every app process schedules it; an advisory lock lets one process at a time run it. A run is many short
// transactions, not one: what locks generations as a whole (a month's partition made or dropped) commits
// at once, and what takes long (deleting old generations) never holds such a lock.
import { Prisma, rawTransaction, type Db } from "@promptly/db";
import { clearGenerationText } from "./generation-text.ts";

export interface PruneResult {
  sessions: number;
  tokens: number;
  outbox: number;
  rateLimits: number;
  playgroundDrafts: number;
  /** Generations deleted row by row, a batch a transaction (past their organization's retention, in a month not dropped whole). */
  generations: number;
  /** Monthly partitions of generations dropped whole (past every organization's retention). */
  generationPartitions: number;
  /** Generations whose input and output were cleared (their team stopped keeping text: see clearGenerationText). */
  generationTexts: number;
  /** Online evaluation's finished claims deleted (past their organization's retention, their generation gone). */
  onlineClaims: number;
  /** The partitions' work was left to the next run: a lock it needed was held past PARTITION_LOCK_TIMEOUT_MS. */
  partitionsPostponed: boolean;
}

/**
 * The advisory lock a run holds, so two processes never prune at once: taken by a transaction of its
 * own, on a connection of its own, that stays open (and does nothing else) until the run ends. A process
 * that dies or loses that connection lets go of it at once.
 */
const HOUSEKEEPING_LOCK = 7_253_018;
/** How long a run may hold it (its lock's transaction ends then, run or not). */
const LOCK_HOLD_MS = 60 * 60_000;

/**
 * How long making or dropping a partition waits for the lock it needs on generations (its default
 * partition or the table itself): every query on generations queues behind that wait, so it is short;
 * a run that does not get it leaves the partitions to the next one.
 */
const PARTITION_LOCK_TIMEOUT_MS = 2_000;
/** Moving the default partition's rows of a new month may take a while (the lock is already held then). */
const PARTITION_STATEMENT_TIMEOUT_MS = 5 * 60_000;

/** Generations whose text a run clears at the most (the next run goes on), in one transaction. */
const TEXT_CLEAR_BATCH = 5_000;
const TEXT_CLEAR_TIMEOUT_MS = 60_000;
/** Generations past their retention deleted a transaction at the most. */
const RETENTION_BATCH = 5_000;
const RETENTION_STATEMENT_TIMEOUT_MS = 60_000;
/** A run starts no other batch of them after this long (the next run goes on). */
const RETENTION_BUDGET_MS = 10 * 60_000;

/** Sent and skipped mail is kept a week (to answer "did it go out?"); failed mail until someone looks. */
const OUTBOX_KEEP_MS = 7 * 24 * 60 * 60_000;

/**
 * Deletes sessions past their absolute end or idle past their owner's session timeout (the same two
 * rules that end them on use), one-time tokens past their expiry, used or not, and rate-limit counters
 * whose window has ended (the PostgreSQL store; a new window overwrites its key's row anyway), and
 * staged playground drafts past their expiry. Then the generations' partitions (see
 * maintainPartitions), in transactions of their own that commit before anything else goes on; then
 * generations past their organization's retention go (their rollups stay, so the Production tab's
 * figures do not change): see pruneGenerations; and the online evaluation's finished claims of generations
 * gone: see pruneOnlineEvaluationClaims. And the text of teams that stopped keeping it is
 * cleared, a batch a run: see clearGenerationText. Every step commits on its own.
 */
export async function pruneExpired(db: Db, now: Date, options: { retentionBatch?: number } = {}): Promise<PruneResult> {
  const startedAt = performance.now();
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
  const partitions = await maintainPartitions(db, now);
  const generations = await pruneGenerations(db, now, { batch: options.retentionBatch ?? RETENTION_BATCH, budgetMs: RETENTION_BUDGET_MS, startedAt });
  const onlineClaims = await pruneOnlineEvaluationClaims(db, now, { batch: options.retentionBatch ?? RETENTION_BATCH, budgetMs: RETENTION_BUDGET_MS, startedAt });
  const generationTexts = await db.$transaction((tx) => clearGenerationText(tx, TEXT_CLEAR_BATCH), { timeout: TEXT_CLEAR_TIMEOUT_MS });
  return {
    sessions, tokens: tokens.count, outbox: outbox.count, rateLimits: rateLimits.count, playgroundDrafts: playgroundDrafts.count,
    generations, generationPartitions: partitions.dropped, generationTexts, onlineClaims, partitionsPostponed: partitions.postponed,
  };
}

/** A month's partition of generations, as production_ensure_generation_partition names it. */
const MONTH_PARTITION = /^generations_(\d{4})_(\d{2})$/;
const DAY_MS = 24 * 60 * 60_000;

/** PostgreSQL's lock_not_available: a lock wait ran past lock_timeout. */
const LOCK_NOT_AVAILABLE = "55P03";

/**
 * One change of generations' partitions, in a transaction of its own (its locks end at its commit)
 * that waits for them at most PARTITION_LOCK_TIMEOUT_MS: false when it did not get them (rolled back).
 */
async function partitionChange(db: Db, ...changes: Prisma.Sql[]): Promise<boolean> {
  try {
    await rawTransaction(
      db,
      async (tx) => {
        await tx.query(Prisma.sql`SELECT set_config('lock_timeout', ${`${PARTITION_LOCK_TIMEOUT_MS}ms`}, true)`);
        for (const change of changes) await tx.query(change);
      },
      { timeoutMs: PARTITION_STATEMENT_TIMEOUT_MS },
    );
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return false;
    throw error;
  }
}

/**
 * Makes sure the generations table has its partitions for this month and the next two (the
 * migration's function: a no-op for a month that has one), so generations rarely land in the default
 * partition; then drops whole each month whose every row is past every organization's retention
 * (generation_retention_days, 90 by default): no row-by-row delete, no dead rows to vacuum. Every
 * organization's generations_pruned_before becomes at least the month's end in the drop's transaction (any
 * of them could have had rows there), so ingest never writes one of them again (see writeIn). Making a
 * partition locks the default one, dropping one locks generations, against every query: each is its own
 * short transaction, and the first that cannot get its lock in time leaves the rest to the next run.
 */
async function maintainPartitions(db: Db, now: Date): Promise<{ dropped: number; postponed: boolean }> {
  const made = await partitionChange(
    db,
    Prisma.sql`SELECT production_ensure_generation_partition(${now}::timestamptz + m * interval '1 month')::text FROM generate_series(0, 2) AS m`,
  );
  if (!made) return { dropped: 0, postponed: true };
  const [{ longest }] = await db.$queryRaw<[{ longest: number | null }]>`SELECT max(generation_retention_days) AS longest FROM organizations`;
  if (longest === null) return { dropped: 0, postponed: false };
  const everyoneDone = now.getTime() - longest * DAY_MS;
  const partitions = await db.$queryRaw<{ name: string }[]>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'generations'::regclass`;
  let dropped = 0;
  for (const { name } of partitions) {
    const month = MONTH_PARTITION.exec(name);
    if (!month) continue;
    const monthEnd = Date.UTC(Number(month[1]), Number(month[2]), 1);
    if (monthEnd > everyoneDone) continue;
    // The watermark first: the organizations' rows are not locked while the drop holds generations' lock.
    const pruned = Prisma.sql`
      UPDATE organizations SET generations_pruned_before = ${new Date(monthEnd)}::timestamptz
       WHERE generations_pruned_before IS NULL OR generations_pruned_before < ${new Date(monthEnd)}::timestamptz`;
    // The name matched the pattern above: nothing else reaches the statement.
    if (!(await partitionChange(db, pruned, Prisma.raw(`DROP TABLE "${name}"`)))) return { dropped, postponed: true };
    dropped += 1;
  }
  return { dropped, postponed: false };
}

/**
 * Generations kept past their organization's retention are deleted (the months past everyone's
 * retention were dropped whole by maintainPartitions), organization by organization, oldest first,
 * `batch` rows a transaction: lowering a retention from 90 days to 7 is many short deletes, never one
 * long one. Once `budgetMs` has passed since `startedAt` no other batch starts (the next run goes on).
 * Scores and rollups are kept. Each delete's transaction raises the organization's generations_pruned_before
 * to its cutoff (it only grows), so a generation deleted here and sent again is not written again even once
 * the retention is raised past it (see writeIn). How many were deleted.
 */
async function pruneGenerations(db: Db, now: Date, { batch, budgetMs, startedAt }: { batch: number; budgetMs: number; startedAt: number }): Promise<number> {
  // Only organizations with some: a probe of the index on (organization_id, started_at) each (LIMIT keeps the
  // lateral read a probe per organization, never a join reading every generation).
  const due = await db.$queryRaw<{ id: string; cutoff: Date }[]>`
    SELECT o.id::text AS id, c.cutoff
      FROM organizations o
     CROSS JOIN LATERAL (SELECT ${now}::timestamptz - o.generation_retention_days * interval '1 day' AS cutoff) c
     CROSS JOIN LATERAL (SELECT 1 FROM generations g WHERE g.organization_id = o.id AND g.started_at < c.cutoff LIMIT 1) past`;
  let deleted = 0;
  for (const { id, cutoff } of due) {
    for (;;) {
      if (performance.now() - startedAt > budgetMs) return deleted;
      // The delete reads the organization's rows up to the batch's newest through the same index (never a join
      // the planner could turn into a scan of whole months), and only the partitions they may be in.
      const [{ n }] = (await rawTransaction(
        db,
        async (tx) => {
          // Before the delete: the organization's row is locked first, as deleting the organization locks it (no deadlock).
          await tx.query(Prisma.sql`
            UPDATE organizations SET generations_pruned_before = ${cutoff}::timestamptz
             WHERE id = ${id}::uuid AND (generations_pruned_before IS NULL OR generations_pruned_before < ${cutoff}::timestamptz)`);
          return tx.query<{ n: number }>(Prisma.sql`
            WITH doomed AS (
              SELECT id, started_at FROM generations
               WHERE organization_id = ${id}::uuid AND started_at < ${cutoff}::timestamptz
               ORDER BY started_at LIMIT ${batch}),
            d AS (
              DELETE FROM generations g
               WHERE g.organization_id = ${id}::uuid AND g.started_at < ${cutoff}::timestamptz
                 AND g.started_at <= (SELECT max(started_at) FROM doomed) AND g.id = ANY (ARRAY(SELECT id FROM doomed))
              RETURNING 1)
            SELECT count(*)::int AS n FROM d`);
        },
        { timeoutMs: RETENTION_STATEMENT_TIMEOUT_MS },
      )) as [{ n: number }];
      deleted += n;
      if (n < batch) break;
    }
  }
  return deleted;
}

/**
 * The online evaluation's claims (online_evaluation_runs) finished (`done` or `skipped`) and past their
 * organization's retention, created and finished before its cutoff, are deleted `batch` a transaction, once
 * their generation is gone (a claim is what keeps a generation from being judged twice: while its generation
 * is stored, even one started in the future, it stays). Within the same budget as pruneGenerations. How many.
 */
async function pruneOnlineEvaluationClaims(db: Db, now: Date, { batch, budgetMs, startedAt }: { batch: number; budgetMs: number; startedAt: number }): Promise<number> {
  let deleted = 0;
  for (;;) {
    if (performance.now() - startedAt > budgetMs) return deleted;
    const [{ n }] = (await rawTransaction(
      db,
      (tx) =>
        tx.query<{ n: number }>(Prisma.sql`
          WITH d AS (
            DELETE FROM online_evaluation_runs WHERE generation_id IN (
              SELECT r.generation_id
                FROM online_evaluation_runs r
                JOIN prompts p ON p.id = r.prompt_id
                JOIN organizations o ON o.id = p.organization_id
               CROSS JOIN LATERAL (SELECT ${now}::timestamptz - o.generation_retention_days * interval '1 day' AS cutoff) c
               WHERE r.status IN ('done', 'skipped') AND r.created_at < c.cutoff AND r.finished_at < c.cutoff
                 AND NOT EXISTS (SELECT 1 FROM generations g WHERE g.id = r.generation_id)
               LIMIT ${batch})
            RETURNING 1)
          SELECT count(*)::int AS n FROM d`),
      { timeoutMs: RETENTION_STATEMENT_TIMEOUT_MS },
    )) as [{ n: number }];
    deleted += n;
    if (n < batch) return deleted;
  }
}

/**
 * One run, unless another process's run holds the lock: its result, or null when skipped. The lock's
 * transaction only holds the lock (it reads nothing, so it keeps no snapshot); the run's own
 * transactions are on other connections.
 */
function pruneExpiredOnce(db: Db, now: Date): Promise<PruneResult | null> {
  return db.$transaction(
    async (lock) => {
      // It sits idle in its transaction for the whole run: a database whose idle_in_transaction_session_timeout
      // is shorter would end it, letting another process's run start beside this one.
      await lock.$queryRaw`SELECT set_config('idle_in_transaction_session_timeout', '0', true)`;
      const [{ locked }] = await lock.$queryRaw<[{ locked: boolean }]>`SELECT pg_try_advisory_xact_lock(${HOUSEKEEPING_LOCK}::bigint) AS locked`;
      return locked ? pruneExpired(db, now) : null;
    },
    { timeout: LOCK_HOLD_MS },
  );
}

/**
 * Prunes now and then every `everyMs` (default hourly) for as long as the server runs; a failed run
 * is reported and the next one tries again. Runs never overlap, in this process nor across processes
 * (a run finding another one in progress skips: `onRun` hears null). A run that left the partitions to
 * the next one (their lock was busy) is told to `onWarning` (`onError` when not given), and still runs
 * the rest. stop() cancels the schedule and resolves once a run in progress has finished, so the
 * database can be closed after it.
 */
export function scheduleHousekeeping(
  services: { db: Db; now: () => Date },
  options: {
    everyMs?: number;
    onError?: (error: unknown) => void;
    onWarning?: (error: unknown) => void;
    onRun?: (result: PruneResult | null) => void;
  } = {},
): () => Promise<void> {
  let running: Promise<void> | null = null;
  const warn = options.onWarning ?? options.onError;
  const ran = (result: PruneResult | null) => {
    if (result?.partitionsPostponed) {
      warn?.(new Error(`generations' partitions left to the next run: their lock was busy for ${PARTITION_LOCK_TIMEOUT_MS} ms`));
    }
    options.onRun?.(result);
  };
  const run = () => {
    running ??= pruneExpiredOnce(services.db, services.now())
      .then(ran, (error: unknown) => options.onError?.(error))
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
