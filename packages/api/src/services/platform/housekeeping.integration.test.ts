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

    expect(await pruneExpired(db, now)).toEqual({ sessions: 3, tokens: 2, outbox: 2, rateLimits: 1, playgroundDrafts: 0, generations: 0, generationPartitions: 0, generationTexts: 0 });
    expect((await db.rateLimitCounter.findMany({ select: { key: true } })).map((c) => c.key)).toEqual(["signIn:ip:running"]);
    expect((await db.outboxMessage.findMany({ select: { status: true } })).map((m) => m.status).sort()).toEqual(["failed", "pending", "sent"]);

    const sessions = await db.session.findMany({ where: { id: { in: ["live", "past-its-end", "idle-31-of-30", "idle-31-of-120", "idle-121-of-120"] } } });
    expect(sessions.map((s) => s.id).sort()).toEqual(["idle-31-of-120", "live"]);
    const tokens = await db.oneTimeToken.findMany({ select: { tokenHash: true } });
    expect(tokens.map((t) => t.tokenHash).sort()).toEqual(["unused-live", "used-live"]);
    expect((await client.api.auth.me())?.user.id).toBe(relaxed.id);
    // Nothing left to do: a second run deletes nothing.
    expect(await pruneExpired(db, now)).toEqual({ sessions: 0, tokens: 0, outbox: 0, rateLimits: 0, playgroundDrafts: 0, generations: 0, generationPartitions: 0, generationTexts: 0 });
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
