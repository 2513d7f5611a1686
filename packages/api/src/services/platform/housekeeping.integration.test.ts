// Housekeeping deletes only what can never be used again: dead sessions, expired emailed tokens and
// ended rate-limit windows; and one app process at a time does it.
import { EventEmitter, once } from "node:events";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@promptly/db";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { pruneExpired, scheduleHousekeeping, type PruneResult } from "./housekeeping.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const MINUTE = 60_000;

describe("pruneExpired", () => {
  it("deletes sessions past their end or idle past their owner's timeout, and expired tokens; keeps the rest", async () => {
    const db = h.database.db;
    const now = h.clock.now();
    const ago = (minutes: number) => new Date(now.getTime() - minutes * MINUTE);
    const later = (minutes: number) => new Date(now.getTime() + minutes * MINUTE);
    const strict = await db.user.create({ data: { email: "strict@example.test", sessionTimeoutMinutes: 30 } });
    const relaxed = await db.user.create({ data: { email: "relaxed@example.test", sessionTimeoutMinutes: 120 } });

    await db.session.createMany({
      data: [
        { id: "live", userId: strict.id, expiresAt: later(60), lastActiveAt: ago(5) },
        { id: "past-its-end", userId: strict.id, expiresAt: ago(1), lastActiveAt: ago(2) },
        { id: "idle-31-of-30", userId: strict.id, expiresAt: later(60), lastActiveAt: ago(31) },
        { id: "idle-31-of-120", userId: relaxed.id, expiresAt: later(60), lastActiveAt: ago(31) },
        { id: "idle-121-of-120", userId: relaxed.id, expiresAt: later(60), lastActiveAt: ago(121) },
      ],
    });
    await db.oneTimeToken.createMany({
      data: [
        { userId: strict.id, purpose: "magic_link", tokenHash: "unused-live", expiresAt: later(10) },
        { userId: strict.id, purpose: "password_reset", tokenHash: "used-live", expiresAt: later(10), usedAt: ago(1) },
        { userId: strict.id, purpose: "email_verification", tokenHash: "unused-expired", expiresAt: ago(1) },
        { userId: relaxed.id, purpose: "magic_link", tokenHash: "used-expired", expiresAt: ago(1), usedAt: ago(5) },
      ],
    });
    // Mail: sent and skipped rows are kept a week; waiting and failed ones stay until dealt with.
    const DAY = 24 * 60;
    const mail = (status: "pending" | "sent" | "skipped" | "failed", createdAt: Date) =>
      ({ kind: "password_reset" as const, recipient: `${status}-${createdAt.getTime()}@example.test`, status, createdAt, nextAttemptAt: later(DAY * 30) });
    await db.outboxMessage.createMany({
      data: [mail("sent", ago(8 * DAY)), mail("skipped", ago(8 * DAY)), mail("sent", ago(6 * DAY)), mail("pending", ago(8 * DAY)), mail("failed", ago(30 * DAY))],
    });
    // Rate-limit counters: a window that has ended goes, a running one stays.
    await db.rateLimitCounter.createMany({
      data: [
        { key: "signIn:ip:ended", points: 3, expire: BigInt(ago(1).getTime()) },
        { key: "signIn:ip:running", points: 3, expire: BigInt(later(1).getTime()) },
      ],
    });
    // A real session, signed in through the API's own session code, must keep working.
    const client = await h.signedInClient(relaxed.id);

    expect(await pruneExpired(db, now)).toEqual({ sessions: 3, tokens: 2, outbox: 2, rateLimits: 1, playgroundDrafts: 0, generations: 0, generationPartitions: 0, generationTexts: 0, onlineClaims: 0, partitionsPostponed: false });
    expect((await db.rateLimitCounter.findMany({ select: { key: true } })).map((c) => c.key)).toEqual(["signIn:ip:running"]);
    expect((await db.outboxMessage.findMany({ select: { status: true } })).map((m) => m.status).sort()).toEqual(["failed", "pending", "sent"]);

    const sessions = await db.session.findMany({ where: { id: { in: ["live", "past-its-end", "idle-31-of-30", "idle-31-of-120", "idle-121-of-120"] } } });
    expect(sessions.map((s) => s.id).sort()).toEqual(["idle-31-of-120", "live"]);
    const tokens = await db.oneTimeToken.findMany({ select: { tokenHash: true } });
    expect(tokens.map((t) => t.tokenHash).sort()).toEqual(["unused-live", "used-live"]);
    expect((await client.api.auth.me())?.user.id).toBe(relaxed.id);
    // Nothing left to do: a second run deletes nothing.
    expect(await pruneExpired(db, now)).toEqual({ sessions: 0, tokens: 0, outbox: 0, rateLimits: 0, playgroundDrafts: 0, generations: 0, generationPartitions: 0, generationTexts: 0, onlineClaims: 0, partitionsPostponed: false });
  });

  it("adds the generations' partitions of this month and the next two, moving rows that landed in the default partition", async () => {
    const db = h.database.db;
    const organization = await db.organization.create({ data: { name: "Partitions" } });
    const team = await db.team.create({ data: { name: "P", organizationId: organization.id } });
    // Six months ahead: no partition yet, so the row lands in the default one.
    const ahead = new Date(Date.UTC(h.clock.now().getUTCFullYear(), h.clock.now().getUTCMonth() + 6, 15));
    await db.$executeRaw`INSERT INTO generations (organization_id, team_id, prompt_name, observation_id, source, started_at, status)
                         VALUES (${organization.id}::uuid, ${team.id}::uuid, 'p', 'obs-ahead', 'api', ${ahead}, 'ok')`;
    const where = () => db.$queryRaw<{ partition: string }[]>`SELECT tableoid::regclass::text AS partition FROM generations WHERE observation_id = 'obs-ahead'`;
    expect(await where()).toEqual([{ partition: "generations_default" }]);
    const month = (date: Date) => `generations_${date.getUTCFullYear()}_${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
    // Housekeeping two months before that month: the month is among the next two, and its row moves.
    await pruneExpired(db, new Date(Date.UTC(ahead.getUTCFullYear(), ahead.getUTCMonth() - 2, 1)));
    expect(await where()).toEqual([{ partition: month(ahead) }]);
    // Run again: nothing to do.
    await pruneExpired(db, new Date(Date.UTC(ahead.getUTCFullYear(), ahead.getUTCMonth() - 2, 1)));
    expect(await where()).toEqual([{ partition: month(ahead) }]);
  });
});

/** A month's partition of generations, as production_ensure_generation_partition names it. */
const monthPartition = (date: Date) => `generations_${date.getUTCFullYear()}_${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
/** The 15th of the month `months` after the test clock's. */
const monthsAhead = (months: number) => new Date(Date.UTC(h.clock.now().getUTCFullYear(), h.clock.now().getUTCMonth() + months, 15));
const DAY = 24 * 60 * MINUTE;

/** An organization keeping generations `retentionDays`, its team, and a writer of its generations started at the given times. */
async function generationsOf(retentionDays: number) {
  const db = h.database.db;
  const organization = await db.organization.create({ data: { name: `Keeps ${retentionDays} days`, generationRetentionDays: retentionDays } });
  const team = await db.team.create({ data: { name: "G", organizationId: organization.id } });
  return {
    organization,
    insert: (startedAts: Date[]) =>
      db.$queryRaw<{ id: string; startedAt: Date }[]>`
        INSERT INTO generations (organization_id, team_id, prompt_name, observation_id, source, started_at, status)
        SELECT ${organization.id}::uuid, ${team.id}::uuid, 'p', gen_random_uuid()::text, 'api', s, 'ok' FROM unnest(${startedAts}::timestamptz[]) AS s
        RETURNING id::text, started_at AS "startedAt"`,
    count: async () =>
      (await db.$queryRaw<[{ n: number }]>`SELECT count(*)::int AS n FROM generations WHERE organization_id = ${organization.id}::uuid`)[0].n,
  };
}

const partitionExists = async (name: string) =>
  (await h.database.db.$queryRaw<[{ found: boolean }]>`SELECT to_regclass(${name}) IS NOT NULL AS found`)[0].found;

/** Polls until `check` holds (a lock wait starting in another connection has no event to wait for). */
async function eventually(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within 10 s: ${what}`);
    // A pause between checks, so the polling does not keep the database busy.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * `row` locked by another connection (the run's delete of old generations waits for it, as for a long
 * delete) until release(), and a connection watching: deleteWaits() resolves once that delete has waited
 * for it at least `waited` (an interval's text). This database's backends only.
 */
async function holdingRow(row: { id: string; startedAt: Date }) {
  const holder = new pg.Client({ connectionString: h.database.url });
  const watcher = new pg.Client({ connectionString: h.database.url });
  await holder.connect();
  await watcher.connect();
  await holder.query("BEGIN");
  await holder.query("SELECT 1 FROM generations WHERE id = $1 AND started_at = $2 FOR UPDATE", [row.id, row.startedAt]);
  return {
    watcher,
    deleteWaits: (waited = "0 s") =>
      eventually(
        async () =>
          ((await watcher.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%DELETE FROM generations%'
                AND clock_timestamp() - query_start >= $1::interval`,
            [waited],
          )).rowCount ?? 0) > 0,
        `the run's delete of old generations has waited ${waited} for the row`,
      ),
    release: () => holder.query("COMMIT"),
    end: async () => {
      await holder.end();
      await watcher.end();
    },
  };
}

describe("the generations' partitions, made and dropped in short transactions of their own", () => {
  it("waits for a busy partition lock 2 s at most, leaves the partitions to the next run, and does the rest of the run", async () => {
    const db = h.database.db;
    // Three years ahead: its month and the next two have no partition yet (making them locks the default partition).
    const now = monthsAhead(36);
    const newMonths = [0, 1, 2].map((m) => monthPartition(monthsAhead(36 + m)));
    // A month past anyone's retention (3650 days at most): dropped whole (that locks generations).
    await db.$queryRaw`SELECT production_ensure_generation_partition('2000-01-15T00:00:00Z'::timestamptz)::text`;
    const short = await generationsOf(7);
    const expiredCounter = (key: string) => db.rateLimitCounter.create({ data: { key, points: 1, expire: BigInt(now.getTime() - MINUTE) } });
    const counterExists = async (key: string) => (await db.rateLimitCounter.count({ where: { key } })) > 0;
    const reader = new pg.Client({ connectionString: h.database.url });
    await reader.connect();
    try {
      // A long read of the default partition: making a partition cannot get its lock.
      await expiredCounter("partitions:1");
      await short.insert([new Date(now.getTime() - 30 * DAY)]);
      await reader.query("BEGIN");
      await reader.query("SELECT count(*) FROM generations_default");
      const first = await pruneExpired(db, now);
      expect(first).toMatchObject({ partitionsPostponed: true, generationPartitions: 0 });
      expect(await counterExists("partitions:1")).toBe(false);
      expect(await short.count()).toBe(0);
      for (const name of newMonths) expect(await partitionExists(name)).toBe(false);
      expect(await partitionExists("generations_2000_01")).toBe(true);
      await reader.query("COMMIT");

      // A long read holding generations itself (not its partitions): the months are made, the drop cannot get its lock.
      await expiredCounter("partitions:2");
      await reader.query("BEGIN");
      await reader.query("LOCK TABLE ONLY generations IN ACCESS SHARE MODE");
      const second = await pruneExpired(db, now);
      expect(second).toMatchObject({ partitionsPostponed: true, generationPartitions: 0 });
      expect(await counterExists("partitions:2")).toBe(false);
      for (const name of newMonths) expect(await partitionExists(name)).toBe(true);
      expect(await partitionExists("generations_2000_01")).toBe(true);
      await reader.query("COMMIT");

      // Nothing in the way: the next run drops it.
      const third = await pruneExpired(db, now);
      expect(third.partitionsPostponed).toBe(false);
      expect(third.generationPartitions).toBeGreaterThanOrEqual(1);
      expect(await partitionExists("generations_2000_01")).toBe(false);
    } finally {
      await reader.end();
    }
  });

  it("has committed its partition changes before deleting old generations: no lock of theirs is held while it deletes", async () => {
    const db = h.database.db;
    // Five years ahead: the run makes three months' partitions, then deletes the generations past their retention.
    const now = monthsAhead(60);
    // Nothing is past everyone's retention (no partition to drop): an organization keeps generations ten years.
    await generationsOf(3650);
    const short = await generationsOf(7);
    // In the month before, which has its partition (not the default one that making a partition locks).
    await db.$queryRaw`SELECT production_ensure_generation_partition(${monthsAhead(59)}::timestamptz)::text`;
    const [doomed] = await short.insert([monthsAhead(59)]);
    // A row lock keeps the run in its delete of old generations, as a long delete would.
    const held = await holdingRow(doomed!);
    const { watcher } = held;
    try {
      const run = pruneExpired(db, now);
      await held.deleteWaits();
      // The partitions it made are there, and none of their locks is held any more.
      expect(await partitionExists(monthPartition(monthsAhead(60)))).toBe(true);
      const { rows: strongLocks } = await watcher.query(`
        SELECT c.relname, l.mode FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
         WHERE l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.locktype = 'relation'
           AND c.relname LIKE 'generations%' AND l.mode IN ('AccessExclusiveLock', 'ExclusiveLock', 'ShareRowExclusiveLock', 'ShareLock', 'ShareUpdateExclusiveLock')`);
      expect(strongLocks).toEqual([]);
      // A read of generations is not held up by the run.
      await watcher.query("SET lock_timeout = '1s'");
      const { rows } = await watcher.query<{ n: number }>("SELECT count(*)::int AS n FROM generations WHERE organization_id = $1", [short.organization.id]);
      expect(rows).toEqual([{ n: 1 }]);

      await held.release();
      expect(await run).toMatchObject({ partitionsPostponed: false, generations: 1 });
      expect(await short.count()).toBe(0);
    } finally {
      await held.end();
    }
  });
});

describe("generations past their organization's retention", () => {
  it("are deleted oldest first, a batch a transaction: the batches done are gone for everyone while the next one runs", async () => {
    const db = h.database.db;
    const now = monthsAhead(84);
    // Nothing is past everyone's retention (no partition to drop): an organization keeps generations ten years.
    const long = await generationsOf(3650);
    const short = await generationsOf(7);
    await db.$queryRaw`SELECT production_ensure_generation_partition(${monthsAhead(83)}::timestamptz)::text`;
    // Eight past the week the organization keeps, a minute apart; one within it; another organization's of the same time.
    const doomed = await short.insert(Array.from({ length: 8 }, (_, i) => new Date(monthsAhead(83).getTime() + i * MINUTE)));
    await short.insert([new Date(now.getTime() - DAY)]);
    await long.insert([monthsAhead(83)]);
    const newest = doomed.reduce((a, b) => (a.startedAt > b.startedAt ? a : b));
    // The newest one's row is locked: the run waits in its third batch of three (the seventh and eighth).
    const held = await holdingRow(newest);
    try {
      const run = pruneExpired(db, now, { retentionBatch: 3 });
      await held.deleteWaits();
      // The first two batches have committed: another connection sees the last batch's two and the one kept.
      expect(await short.count()).toBe(3);

      await held.release();
      const result = await run;
      // (With other tests' generations past their own organizations' retention by then.)
      expect(result.generations).toBeGreaterThanOrEqual(8);
      expect(await short.count()).toBe(1);
      expect(await long.count()).toBe(1);
    } finally {
      await held.end();
    }
  });
});

/** Every scheduler's finished runs (and failures) are announced here, for `until`. */
const finished = new EventEmitter();

/** A scheduler on `db`: its runs' results and errors, as they finish, and its stop(). */
function scheduled(db: Db, everyMs: number, now = h.clock.now) {
  const runs: (PruneResult | null)[] = [];
  const errors: unknown[] = [];
  const stop = scheduleHousekeeping(
    { db, now },
    {
      everyMs,
      onRun: (run) => {
        runs.push(run);
        finished.emit("run");
      },
      onError: (error) => {
        errors.push(error);
        finished.emit("run");
      },
    },
  );
  return { runs, errors, stop };
}

/** Waits for the finished run after which `condition` holds (checked as each run of any scheduler finishes). */
async function until(condition: () => boolean) {
  const signal = AbortSignal.timeout(10_000);
  while (!condition()) {
    await once(finished, "run", { signal }).catch(() => {
      throw new Error(`no finished run made this true within 10 s: ${String(condition)}`);
    });
  }
}

describe("scheduleHousekeeping", () => {
  it("prunes at once, then again every period, until stopped", async () => {
    const db = h.database.db;
    const user = await db.user.create({ data: { email: "scheduled@example.test" } });
    const expiredToken = (tokenHash: string) =>
      db.oneTimeToken.create({ data: { userId: user.id, purpose: "magic_link", tokenHash, expiresAt: new Date(h.clock.now().getTime() - MINUTE) } });
    const exists = async (tokenHash: string) => (await db.oneTimeToken.count({ where: { tokenHash } })) > 0;
    // A run reads the clock as it starts, in the same turn as the timer that starts it.
    let started = 0;
    const now = () => {
      started++;
      return h.clock.now();
    };

    await expiredToken("before-start");
    const scheduler = scheduled(db, 100, now);
    try {
      await until(() => scheduler.runs.length >= 1);
      expect(scheduler.runs[0]).toMatchObject({ tokens: 1 });
      expect(await exists("before-start")).toBe(false);

      await expiredToken("while-running");
      // The first run to finish now may have started before the token was written; the second started after.
      const written = scheduler.runs.length;
      await until(() => scheduler.runs.length >= written + 2);
      expect(scheduler.runs.slice(written).reduce((sum, run) => sum + (run?.tokens ?? 0), 0)).toBe(1);
      expect(await exists("while-running")).toBe(false);
    } finally {
      await scheduler.stop();
    }
    const startedBeforeStop = started;
    await expiredToken("after-stop");
    // Node fires timers of one period in the order they were set: once a timer of the schedule's period,
    // set after stop(), has fired, a schedule still running would have started a run before it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(started).toBe(startedBeforeStop);
    expect(await exists("after-stop")).toBe(true);
    expect(scheduler.errors).toEqual([]);
  });
});

describe("housekeeping in several app processes", () => {
  const expiredCounters = (prefix: string, count: number) =>
    h.database.db.rateLimitCounter.createMany({
      data: Array.from({ length: count }, (_, i) => ({ key: `${prefix}:${i}`, points: 1, expire: BigInt(h.clock.now().getTime() - MINUTE) })),
    });

  it("skips while another process's run holds the lock, and prunes once it is released", async () => {
    // Another process in the middle of a run: it holds the housekeeping lock.
    const other = new pg.Client({ connectionString: h.database.url });
    await other.connect();
    const processes = [createDb({ url: h.database.url, max: 2 }), createDb({ url: h.database.url, max: 2 })];
    const schedulers: ReturnType<typeof scheduled>[] = [];
    try {
      await other.query("BEGIN");
      await other.query("SELECT pg_advisory_xact_lock(7253018::bigint)");
      await expiredCounters("held", 5);
      schedulers.push(...processes.map((db) => scheduled(db, 50)));
      await until(() => schedulers.every((s) => s.runs.length >= 2));
      expect(schedulers.flatMap((s) => s.runs).every((run) => run === null)).toBe(true);
      expect(await h.database.db.rateLimitCounter.count({ where: { key: { startsWith: "held:" } } })).toBe(5);

      await other.query("COMMIT");
      await until(() => schedulers.some((s) => s.runs.some((run) => run !== null && run.rateLimits > 0)));
      expect(await h.database.db.rateLimitCounter.count({ where: { key: { startsWith: "held:" } } })).toBe(0);
      // Exactly one run deleted them: the other process's concurrent run skipped or found nothing left.
      const deleted = schedulers.flatMap((s) => s.runs).reduce((sum, run) => sum + (run?.rateLimits ?? 0), 0);
      expect(deleted).toBe(5);
      expect(schedulers.flatMap((s) => s.errors)).toEqual([]);
    } finally {
      for (const scheduler of schedulers) await scheduler.stop();
      await other.end();
      for (const db of processes) await db.$disconnect();
    }
  });

  it("two schedulers started together never run at once: while one is pruning, the other's runs skip", async () => {
    await expiredCounters("together", 20);
    // A row lock held here keeps whichever run gets in first busy in its DELETE.
    const blocker = new pg.Client({ connectionString: h.database.url });
    await blocker.connect();
    const processes = [createDb({ url: h.database.url, max: 2 }), createDb({ url: h.database.url, max: 2 })];
    let schedulers: ReturnType<typeof scheduled>[] = [];
    try {
      await blocker.query("BEGIN");
      await blocker.query("SELECT key FROM rate_limits WHERE key = 'together:0' FOR UPDATE");
      schedulers = processes.map((db) => scheduled(db, 50));
      // One process is stuck pruning (no run finished); the other keeps finding the lock taken.
      await until(() => schedulers.some((s) => s.runs.length >= 3));
      const [busy, skipping] = schedulers[0]!.runs.length === 0 ? schedulers : [schedulers[1]!, schedulers[0]!];
      expect(busy!.runs).toEqual([]);
      expect(skipping!.runs.every((run) => run === null)).toBe(true);

      await blocker.query("COMMIT");
      await until(() => busy!.runs.length > 0);
      expect(busy!.runs[0]).toMatchObject({ rateLimits: 20 });
      expect(schedulers.flatMap((s) => s.errors)).toEqual([]);
    } finally {
      await blocker.end();
      for (const scheduler of schedulers) await scheduler.stop();
      for (const db of processes) await db.$disconnect();
    }
  });
});

describe("the run's lock on a database that ends sessions idle in a transaction", () => {
  it("is held for the whole run, however long: its transaction sits idle, and is not ended", async () => {
    const now = monthsAhead(96);
    // Nothing is past everyone's retention (no partition to drop): an organization keeps generations ten years.
    await generationsOf(3650);
    const short = await generationsOf(7);
    await h.database.db.$queryRaw`SELECT production_ensure_generation_partition(${monthsAhead(95)}::timestamptz)::text`;
    const [doomed] = await short.insert([monthsAhead(95)]);
    // A process whose sessions idle in a transaction are ended after 300 ms (a setting some hosts make).
    const url = new URL(h.database.url);
    url.searchParams.set("options", "-c idle_in_transaction_session_timeout=300");
    const db = createDb({ url: url.toString(), max: 3 });
    // A row lock keeps the run in its delete of old generations well past the 300 ms.
    const held = await holdingRow(doomed!);
    const scheduler = scheduled(db, 60 * MINUTE, () => now);
    try {
      await held.deleteWaits("1 s");
      await held.release();
      await until(() => scheduler.runs.length + scheduler.errors.length > 0);
      expect(scheduler.errors).toEqual([]);
      // (With other tests' generations past their own organizations' retention by then.)
      expect(scheduler.runs[0]?.generations).toBeGreaterThanOrEqual(1);
      expect(await short.count()).toBe(0);
    } finally {
      await scheduler.stop();
      await held.end();
      await db.$disconnect();
    }
  });
});
