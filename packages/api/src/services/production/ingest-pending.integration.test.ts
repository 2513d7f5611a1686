// What a tracing SDK sent is acknowledged once appended to ingest_pending, and merged after: a merge cut
// off in the middle (its statement cancelled while its transaction holds the rows: rolled back, as a
// killed process's transaction is) loses nothing acknowledged; another process's merges write it, once,
// and leave nothing pending.
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Prisma, createDb, type Db } from "@promptly/db";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import type { KeyCaller } from "../access/visibility.ts";
import { renderMetrics } from "../platform/metrics.ts";
import {
  acceptProduction, errorForOperator, ingestSettled, isPassingFailure, retrySetAsideIngestion, shardOf, startIngestMerges, type GenerationPatch,
} from "./ingest.ts";

let h: Harness;
let team: { id: string };
let key: KeyCaller;
let prompt: { id: string; name: string };

beforeAll(async () => {
  h = await createHarness();
  const world = await createLibraryWorld(h);
  team = await world.team();
  prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
  key = await world.ingestKey(team.id);
});
afterAll(() => h.close());

const span = (observationId: string): GenerationPatch => ({
  observationId, source: "otel", promptName: prompt.name, version: 1, model: "gpt-4o-mini", startedAt: new Date(Date.now() - 500), endedAt: new Date(),
  inputTokens: 10, outputTokens: 5, seenAt: new Date(),
});
const stored = async (ids: string[]) =>
  h.services.db.$queryRaw<{ observationId: string; promptId: string | null }[]>`
    SELECT observation_id AS "observationId", prompt_id::text AS "promptId" FROM generations WHERE observation_id = ANY(${ids}::text[]) ORDER BY 1`;
/** The team's generation events waiting to be merged (a request's are in a row per shard). */
const pending = async () =>
  (await h.services.db.$queryRaw<{ n: number }[]>`SELECT coalesce(sum(generations), 0)::int AS n FROM ingest_pending WHERE team_id = ${team.id}::uuid`)[0]!.n;
/** The team's requests waiting (set aside or not). */
const pendingRows = async () =>
  h.services.db.$queryRaw<{ attempts: number; lasting: number; lastError: string | null; setAside: boolean }[]>`
    SELECT attempts, lasting_failures AS lasting, last_error AS "lastError", set_aside_at IS NOT NULL AS "setAside" FROM ingest_pending WHERE team_id = ${team.id}::uuid ORDER BY id`;
/** When each of the team's waiting requests first failed (in order). */
const firstFailures = async () =>
  h.services.db.$queryRaw<{ firstFailedAt: Date | null }[]>`SELECT first_failed_at AS "firstFailedAt" FROM ingest_pending WHERE team_id = ${team.id}::uuid ORDER BY id`;
/** What /metrics counts of OpenTelemetry's signals so far under `result`. */
const ingested = async (result: string) => {
  const metrics = await renderMetrics({ db: h.services.db });
  return Number(new RegExp(`^promptly_production_ingested_total\\{source="otel",result="${result}"\\} (\\d+)$`, "m").exec(metrics)?.[1] ?? 0);
};

/** A connection holding generations' locks, so a merge that reaches one of them waits inside its transaction. */
async function holdGenerations(...observationIds: string[]) {
  const holder = new pg.Client({ connectionString: h.database.url });
  await holder.connect();
  await holder.query("BEGIN");
  for (const id of observationIds) await holder.query(`SELECT pg_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0))`, [team.id, id]);
  // This test's database only: pg_locks shows every database of the server (other test files run beside this one).
  const ours = `locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
  const waiting = async () => (await holder.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE ${ours}`)).rows[0]!.n;
  const cancelWaiting = () => holder.query(`SELECT pg_cancel_backend(pid) FROM pg_locks WHERE ${ours}`);
  return {
    /**
     * Cuts off every merge of `db` that waits on the lock until its merges end: each cut off has its
     * statement cancelled and its transaction rolled back, as a killed process's is.
     */
    async cutUntilSettled(db: Db) {
      let settled = false;
      const settling = ingestSettled(db).then(() => (settled = true));
      let cuts = 0;
      while (!settled) {
        if ((await waiting()) > 0) cuts += (await cancelWaiting()).rowCount ?? 0;
        else await Promise.race([settling, new Promise((resolve) => setTimeout(resolve, 20))]);
      }
      return cuts;
    },
    /** Cuts off every merge that waits on the lock until `done` says so (merges started by a sweep, say). */
    async cutUntil(done: () => Promise<boolean>) {
      while (!(await done())) if ((await waiting()) > 0) await cancelWaiting();
    },
    async release() {
      await holder.query("ROLLBACK");
      await holder.end();
    },
  };
}

it("a merge cut off mid-transaction loses nothing acknowledged: another process merges it, once", async () => {
  const ids = ["killed-0001", "killed-0002", "killed-0003"];
  const held = await holdGenerations(...ids);
  const first: Db = createDb({ url: h.database.url, max: 2 });
  // Acknowledged: what the sender is answered with once this resolves.
  await acceptProduction(first, key, { generations: ids.map((id) => ({ ...span(id), input: "the customer's words", output: "our answer" })), scores: [] }, { source: "otel", dropped: 0 });
  expect(await pending()).toBe(3);
  // /metrics tells the backlog.
  const metrics = await renderMetrics({ db: h.services.db });
  expect(metrics).toMatch(/^promptly_ingest_pending\{what="generations"\} 3$/m);
  expect(metrics).toMatch(/^promptly_ingest_pending\{what="requests"\} [12]$/m);
  // The team keeps no generation text: none is kept waiting either.
  const sent = (await h.services.db.$queryRaw<{ sent: string }[]>`SELECT sent FROM ingest_pending WHERE team_id = ${team.id}::uuid`).map((row) => row.sent).join();
  expect(sent).toContain("killed-0001");
  expect(sent).not.toContain("customer");
  expect(sent).not.toContain("our answer");
  // Its merge takes the row and waits on the generation's lock; cut off, the row stays (a failed try counted on it) and the team waits here.
  const cuts = await held.cutUntilSettled(first);
  expect(cuts).toBeGreaterThan(0);
  await first.$disconnect();
  await held.release();
  expect(await stored(ids)).toEqual([]);
  expect(await pending()).toBe(3);
  const [{ attempts }] = await h.services.db.$queryRaw<[{ attempts: number }]>`SELECT max(attempts)::int AS attempts FROM ingest_pending WHERE team_id = ${team.id}::uuid`;
  expect(attempts).toBeGreaterThan(0);
  expect(attempts).toBeLessThanOrEqual(cuts);

  // Another process, started, merges what is left: each generation once, linked to its version.
  const stop = startIngestMerges(h.services.db);
  await expect.poll(pending).toBe(0);
  await stop();
  expect(await stored(ids)).toEqual(ids.map((observationId) => ({ observationId, promptId: prompt.id })));
});

it("merges a team's requests in the order they came, even when the first fails to merge and the next would not", async () => {
  const id = "ordered-0001";
  // The first request fails to merge for another generation it holds (its lock taken here, and merged in the same shard); the next holds only this one.
  const other = ["ordered-0002", "ordered-0003", "ordered-0004", "ordered-0005"].find((candidate) => shardOf(candidate) === shardOf(id))!;
  const held = await holdGenerations(other);
  const first: Db = createDb({ url: h.database.url, max: 2 });
  // A generation's create, then its update (another request): the model named last is the one kept.
  await acceptProduction(first, key, { generations: [{ ...span(id), model: "model-of-the-create" }, span(other)], scores: [] }, { source: "otel", dropped: 0 });
  await acceptProduction(first, key, { generations: [{ observationId: id, source: "otel", model: "model-of-the-update", seenAt: new Date() }], scores: [] }, { source: "otel", dropped: 0 });
  // The two are merged together and cut off, then one by one: the create cut off alone, the update is not merged before it.
  expect(await held.cutUntilSettled(first)).toBeGreaterThan(1);
  await first.$disconnect();
  await held.release();
  expect(await pending()).toBe(3);

  const stop = startIngestMerges(h.services.db);
  await expect.poll(pending).toBe(0);
  await stop();
  const [row] = await h.services.db.$queryRaw<{ model: string }[]>`SELECT model FROM generations WHERE observation_id = ${id}`;
  expect(row).toEqual({ model: "model-of-the-update" });
});

it("sets aside a request that keeps failing for what it holds, with its error, so the team's next requests go on; put back, it is merged", async () => {
  const next = ["aside-0001", "aside-0002", "aside-0003", "aside-0004"].find((candidate) => shardOf(candidate) === 0)!;
  // A request no merge can read (as a fault of this code on what it holds would be), first in its shard: it failed for that all but
  // once already, and twice for a cause that passes (a lost connection, say), which does not count towards setting it aside.
  await h.services.db.$executeRaw`
    INSERT INTO ingest_pending (team_id, shard, caller, source, sent, generations, attempts, lasting_failures)
    VALUES (${team.id}::uuid, 0, ${JSON.stringify(key)}::jsonb, 'otel', 'not what was sent', 1, 9, 7)`;
  const db: Db = createDb({ url: h.database.url, max: 2 });
  await acceptProduction(db, key, { generations: [span(next)], scores: [] }, { source: "otel", dropped: 0 });
  await ingestSettled(db);
  await db.$disconnect();
  // The next request is merged; the one that failed again is kept aside with its error.
  expect(await stored([next])).toEqual([{ observationId: next, promptId: prompt.id }]);
  const aside = await h.services.db.$queryRaw<{ attempts: number; lasting: number; lastError: string; setAside: boolean }[]>`
    SELECT attempts, lasting_failures AS lasting, last_error AS "lastError", set_aside_at IS NOT NULL AS "setAside" FROM ingest_pending WHERE team_id = ${team.id}::uuid`;
  expect(aside).toEqual([{ attempts: 10, lasting: 8, lastError: expect.stringMatching(/^SyntaxError: .*JSON/), setAside: true }]);
  // The error is kept for an operator without what was sent (JSON.parse quotes it).
  expect(aside[0]!.lastError).not.toContain("what was sent");
  const metrics = await renderMetrics({ db: h.services.db });
  expect(metrics).toMatch(/^promptly_ingest_pending\{what="set_aside"\} 1$/m);
  expect(metrics).toMatch(/^promptly_ingest_pending\{what="requests"\} 0$/m);
  expect(metrics).toMatch(/^promptly_production_ingested_total\{source="otel",result="set_aside"\} 1$/m);

  // Mended (here: what it holds made readable) and put back, as `npm run cli -- ingest-retry` does: merged by the next sweep.
  await h.services.db.$executeRaw`
    UPDATE ingest_pending SET sent = ${JSON.stringify({ generations: [], scores: [] })} WHERE team_id = ${team.id}::uuid`;
  expect(await retrySetAsideIngestion(h.services.db, new Date())).toBe(1);
  expect(await retrySetAsideIngestion(h.services.db, new Date())).toBe(0);
  const stop = startIngestMerges(h.services.db);
  await expect.poll(pending).toBe(0);
  await stop();
});

it("sets aside a request that keeps failing for a cause taken as passing once it has failed long enough for an outage to pass, however often tried; put back, it counts once", async () => {
  // A request of scores only, which its merges cannot write while their observation's lock is held (each cut off: a cancelled statement, which may pass).
  const observationId = "passing-0001";
  const scores = ["first", "second"].map((name) => ({ observationId, name, dataType: "numeric" as const, value: 1, stringValue: null, source: "api" as const }));
  const before = { setAside: await ingested("set_aside"), putBack: await ingested("put_back"), score: await ingested("score") };
  const held = await holdGenerations(observationId);
  const first: Db = createDb({ url: h.database.url, max: 2 });
  await acceptProduction(first, key, { generations: [], scores }, { source: "otel", dropped: 0 });
  expect(await held.cutUntilSettled(first)).toBeGreaterThan(0);
  await first.$disconnect();
  expect(await pendingRows()).toEqual([{ attempts: expect.any(Number), lasting: 0, lastError: expect.stringMatching(/^57014: /), setAside: false }]);
  expect(await firstFailures()).toEqual([{ firstFailedAt: expect.any(Date) }]);
  // Tried far more often than one server would in two hours (many servers at it), but failing for less: still merged, its first failure's time kept.
  await h.services.db.$executeRaw`UPDATE ingest_pending SET attempts = 500, first_failed_at = now() - interval '119 minutes' WHERE team_id = ${team.id}::uuid`;
  const [{ firstFailedAt }] = (await firstFailures()) as [{ firstFailedAt: Date }];
  const second: Db = createDb({ url: h.database.url, max: 2 });
  const stopSecond = startIngestMerges(second, { everyMs: 100 });
  await held.cutUntil(async () => (await pendingRows())[0]!.attempts > 500);
  expect(await pendingRows()).toEqual([{ attempts: 501, lasting: 0, lastError: expect.stringMatching(/^57014: /), setAside: false }]);
  expect(await firstFailures()).toEqual([{ firstFailedAt }]);
  // Failing for two hours now: the next try sets it aside, its team's next requests go on.
  await h.services.db.$executeRaw`UPDATE ingest_pending SET first_failed_at = now() - interval '2 hours' WHERE team_id = ${team.id}::uuid`;
  await held.cutUntil(async () => (await pendingRows()).every((row) => row.setAside));
  await stopSecond();
  await second.$disconnect();
  expect(await pendingRows()).toEqual([{ attempts: expect.any(Number), lasting: 0, lastError: expect.stringMatching(/^57014: /), setAside: true }]);
  expect((await pendingRows())[0]!.attempts).toBeGreaterThan(501);
  // Counted by its signals (two scores), not by its generations (none).
  expect(await ingested("set_aside")).toBe(before.setAside + 2);

  // Put back (audited, with how many), then merged once the cause passed: counted as put back and as written, once each.
  expect(await retrySetAsideIngestion(h.services.db, new Date())).toBe(1);
  expect(await firstFailures()).toEqual([{ firstFailedAt: null }]);
  const audited = await h.services.db.$queryRaw<{ actor: string; after: unknown }[]>`
    SELECT actor_kind::text AS actor, after FROM audit_events WHERE action = 'ingestion.retry' ORDER BY created_at DESC LIMIT 1`;
  expect(audited).toEqual([{ actor: "cli", after: { requests: 1 } }]);
  await held.release();
  const stop = startIngestMerges(h.services.db);
  await expect.poll(async () => (await pendingRows()).length).toBe(0);
  await stop();
  expect(await ingested("put_back")).toBe(before.putBack + 2);
  expect(await ingested("score")).toBe(before.score + 2);
  expect(await ingested("set_aside")).toBe(before.setAside + 2);
});

it("keeps aside a request another process set aside while this one's failure on it was being recorded: counted once, its team not held back", async () => {
  // In shard 0, so the request is one row.
  const [id, next] = ["raced-0001", "raced-0002", "raced-0003", "raced-0004", "raced-0005"].filter((candidate) => shardOf(candidate) === 0);
  const before = await ingested("set_aside");
  // This process's merge of the request waits on its generation's lock here, and is cut off (a cause taken as passing).
  const held = await holdGenerations(id!);
  const db: Db = createDb({ url: h.database.url, max: 2 });
  await acceptProduction(db, key, { generations: [span(id!)], scores: [] }, { source: "otel", dropped: 0 });
  // Meanwhile another process's eighth lasting failure on it sets it aside, in a transaction still open: this merge took the row as pending.
  const other = new pg.Client({ connectionString: h.database.url });
  await other.connect();
  await other.query("BEGIN");
  await other.query(
    `UPDATE ingest_pending SET attempts = 8, lasting_failures = 8, last_error = 'SyntaxError: unreadable', set_aside_at = '2026-01-01T00:00:00Z' WHERE team_id = $1`, [team.id]);
  // This merge's failure is recorded once that transaction ends: cut off until its record waits on the row's lock (this database's backends only).
  const waitingOnRow = async () => (await other.query<{ n: number }>(`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'transactionid'`)).rows[0]!.n > 0;
  await held.cutUntil(waitingOnRow);
  await other.query("COMMIT");
  await other.end();
  // This process's other merge may have taken the row as pending too before that commit: cut off as well.
  await held.cutUntilSettled(db);
  await held.release();
  // Still aside as the other process set it (its time kept, not counted again here), this failure recorded on it.
  const rows = await h.services.db.$queryRaw<{ attempts: number; lasting: number; lastError: string; setAsideAt: Date | null }[]>`
    SELECT attempts, lasting_failures AS lasting, last_error AS "lastError", set_aside_at AS "setAsideAt" FROM ingest_pending WHERE team_id = ${team.id}::uuid`;
  expect(rows).toEqual([{ attempts: expect.any(Number), lasting: 8, lastError: expect.stringMatching(/^57014: /), setAsideAt: new Date("2026-01-01T00:00:00Z") }]);
  expect(rows[0]!.attempts).toBeGreaterThan(8);
  expect(await ingested("set_aside")).toBe(before);
  // Its team is not held back: a request sent next is merged by the next merge (half a second on, within the hold-back's first second).
  await acceptProduction(db, key, { generations: [span(next!)], scores: [] }, { source: "otel", dropped: 0 });
  await ingestSettled(db);
  await db.$disconnect();
  expect(await stored([next!])).toEqual([{ observationId: next, promptId: prompt.id }]);
  await h.services.db.$executeRaw`DELETE FROM ingest_pending WHERE team_id = ${team.id}::uuid`;
});

it("counts a request another process set aside after this one's merge read it as pending, and this merge then wrote, as put back: set_aside minus put_back is what is aside", async () => {
  // In shard 0, so the request is one row.
  const id = ["merged-aside-0001", "merged-aside-0002", "merged-aside-0003", "merged-aside-0004"].find((candidate) => shardOf(candidate) === 0)!;
  const aside = async () => (await ingested("set_aside")) - (await ingested("put_back"));
  const before = { aside: await aside(), setAside: await ingested("set_aside") };
  // Two processes, their connections told apart by name.
  const processDb = (name: string): Db => {
    const url = new URL(h.database.url);
    url.searchParams.set("application_name", name);
    return createDb({ url: url.toString(), max: 2 });
  };
  // Process B's merges of the request wait on its generation's lock here, and are cut off (a cause taken as passing)...
  const held = await holdGenerations(id);
  const b = processDb("merge-b");
  await acceptProduction(b, key, { generations: [span(id)], scores: [] }, { source: "otel", dropped: 0 });
  // ...once it has failed for two hours: its failure's record sets it aside.
  await h.services.db.$executeRaw`UPDATE ingest_pending SET first_failed_at = now() - interval '2 hours' WHERE team_id = ${team.id}::uuid`;
  // That record waits on the row's lock, held here, until process A's merge has read the row as pending and waits on the generation's lock.
  const rowHolder = new pg.Client({ connectionString: h.database.url });
  await rowHolder.connect();
  await rowHolder.query("BEGIN");
  await rowHolder.query(`SELECT id FROM ingest_pending WHERE team_id = $1 FOR UPDATE`, [team.id]);
  // Watched from outside any transaction (pg_stat_activity is read once a transaction), this database's backends only.
  const watcher = new pg.Client({ connectionString: h.database.url });
  await watcher.connect();
  const waiting = (name: string, on: "advisory" | "transactionid") => `
    SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = '${name}' AND wait_event_type = 'Lock' AND wait_event = '${on}'`;
  const some = async (sql: string) => ((await watcher.query(sql)).rowCount ?? 0) > 0;
  await held.cutUntil(() => some(waiting("merge-b", "transactionid")));
  const a = processDb("merge-a");
  const stopA = startIngestMerges(a, { everyMs: 50 });
  // B's other merge may have taken the shard after the first was cut off: cut off as well (its record waits on the row too), so A's merge takes it.
  while (!(await some(waiting("merge-a", "advisory")))) await watcher.query(`SELECT pg_cancel_backend(pid) FROM (${waiting("merge-b", "advisory")}) b`);
  // B sets it aside (counted once), while A's merge holds it as read.
  await rowHolder.query("COMMIT");
  await rowHolder.end();
  await watcher.end();
  await ingestSettled(b);
  await b.$disconnect();
  expect(await pendingRows()).toEqual([{ attempts: expect.any(Number), lasting: 0, lastError: expect.stringMatching(/^57014: /), setAside: true }]);
  expect(await ingested("set_aside")).toBe(before.setAside + 1);
  expect(await aside()).toBe(before.aside + 1);
  // A's merge goes on: it writes and deletes the row it read, which leaves the aside set.
  await held.release();
  await stopA();
  await a.$disconnect();
  expect(await pendingRows()).toEqual([]);
  expect(await stored([id])).toEqual([{ observationId: id, promptId: prompt.id }]);
  expect(await aside()).toBe(before.aside);
});

it("keeps of a failure under a Prisma error code its first line only, capped, the values it quotes blanked", async () => {
  // Prisma's P2010 quotes the database's message, values and all; a SQLSTATE it is not. No merge statement goes through
  // Prisma's engine today, so a trigger on the merge's delete raises that code here, its message quoting a value as the database's does.
  await h.services.db.$executeRawUnsafe(`
    CREATE FUNCTION fail_pending_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      RAISE EXCEPTION USING ERRCODE = 'P2010', MESSAGE = 'Raw query failed. Code: 22P02. Message: '
        || repeat('invalid input syntax for type uuid: "the customer''s words"; ', 20) || E'\\nDETAIL: the customer''s words';
    END $$`);
  await h.services.db.$executeRawUnsafe(`CREATE TRIGGER fail_pending_delete BEFORE DELETE ON ingest_pending FOR EACH ROW EXECUTE FUNCTION fail_pending_delete()`);
  try {
    const id = ["prisma-0001", "prisma-0002", "prisma-0003", "prisma-0004"].find((candidate) => shardOf(candidate) === 0)!;
    const db: Db = createDb({ url: h.database.url, max: 2 });
    await acceptProduction(db, key, { generations: [span(id)], scores: [] }, { source: "otel", dropped: 0 });
    await ingestSettled(db);
    await db.$disconnect();
    const rows = await pendingRows();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row!.lastError).toBe(`P2010: Raw query failed. Code: 22P02. Message: ${'invalid input syntax for type uuid: "…"; '.repeat(20)}`.slice(0, 500));
    expect(row!.lastError).not.toContain("customer");
  } finally {
    await h.services.db.$executeRawUnsafe(`DROP TRIGGER fail_pending_delete ON ingest_pending`);
    await h.services.db.$executeRawUnsafe(`DROP FUNCTION fail_pending_delete()`);
    await h.services.db.$executeRaw`DELETE FROM ingest_pending WHERE team_id = ${team.id}::uuid`;
  }
});

it("reads a Prisma error's database code and message beneath its wrapping: a conflict or cancel that passes counts as passing, its last error says what the database said", async () => {
  // Real errors of the app's Prisma client (P2010, its message starting with a blank line), each raised by the database.
  const raised = (code: string, message: string) =>
    h.services.db.$executeRawUnsafe(`DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = '${code}', MESSAGE = '${message}', DETAIL = 'the customer''s words'; END $$`).then(
      () => { throw new Error("not raised"); }, (error: unknown) => error);
  const cases = [
    { error: await raised("40001", "could not serialize access due to concurrent update"), passing: true, lastError: "40001: could not serialize access due to concurrent update" },
    { error: await raised("40P01", "deadlock detected"), passing: true, lastError: "40P01: deadlock detected" },
    { error: await raised("57014", "canceling statement due to statement timeout"), passing: true, lastError: "57014: canceling statement due to statement timeout" },
    // A statement prepared before a migration changed its answer passes (its connection is discarded); another unsupported feature does not.
    { error: await raised("0A000", "cached plan must not change result type"), passing: true, lastError: "0A000: cached plan must not change result type" },
    { error: await raised("0A000", "cannot insert multiple commands into a prepared statement"), passing: false, lastError: "0A000: cannot insert multiple commands into a prepared statement" },
    // A value sent that the database refuses does not pass; the value it quotes is blanked.
    {
      error: await h.services.db.$queryRaw`SELECT ${"the customer's words"}::uuid`.then(() => { throw new Error("not raised"); }, (error: unknown) => error),
      passing: false, lastError: '22P02: invalid input syntax for type uuid: "…"',
    },
  ];
  for (const { error, passing, lastError } of cases) {
    expect((error as { code?: unknown }).code).toBe("P2010");
    expect((error as Error).message).toMatch(/^\n/);
    expect({ passing: isPassingFailure(error), lastError: errorForOperator(error) }).toEqual({ passing, lastError });
  }
  // One the database did not raise keeps the first line that says something.
  const invalid = await h.services.db.team.findUnique({ where: {} } as never).then(() => { throw new Error("not raised"); }, (error: unknown) => error);
  expect((invalid as Error).message).toMatch(/^\n/);
  expect(errorForOperator(invalid)).toMatch(/^PrismaClientValidationError: Invalid `.*findUnique\(\)` invocation/);
  expect(isPassingFailure(invalid)).toBe(false);
});

it("counts Prisma's failures that hold no database code as passing when they pass by nature: the database not reached, a timeout, a closed connection, the pool empty", async () => {
  // Real ones of the app's client: a database not reached is P1001 from a model query, P2010 around the adapter's DatabaseNotReachable from a raw one.
  const unreachable = createDb({ url: "postgresql://promptly:promptly@127.0.0.1:1/promptly", warn: () => undefined });
  try {
    const caught = (work: Promise<unknown>) => work.then(() => { throw new Error("not raised"); }, (error: unknown) => error);
    const model = await caught(unreachable.team.findFirst());
    const raw = await caught(unreachable.$queryRaw`SELECT 1`);
    expect(model).toMatchObject({ code: "P1001" });
    expect(raw).toMatchObject({ code: "P2010", meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } } });
    expect([isPassingFailure(model), isPassingFailure(raw)]).toEqual([true, true]);
  } finally {
    await unreachable.$disconnect().catch(() => undefined);
  }
  // The others as Prisma builds them (the driver adapter's kinds map to P1008 and P1017; P1002 and P2024 are the query engine's words).
  const known = (code: string, message: string) => new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: Prisma.prismaVersion.client });
  for (const [code, message] of [
    ["P1002", "The database server was reached but timed out."],
    ["P1008", "Operation has timed out"],
    ["P1017", "Server has closed the connection."],
    ["P2024", "Timed out fetching a new connection from the connection pool."],
    ["P2034", "Transaction failed due to a write conflict or a deadlock. Please retry your transaction"],
    ["P2037", "Too many database connections opened"],
  ]) expect({ code, passing: isPassingFailure(known(code!, message!)) }).toEqual({ code, passing: true });
  // What is sent or our own code stays a lasting failure: a unique violation, a value out of range, PL/pgSQL's raise (P0001, not Prisma's).
  for (const code of ["P2002", "P2020", "P0001"]) expect({ code, passing: isPassingFailure(known(code, "refused")) }).toEqual({ code, passing: false });
});

it("tells a failure it cannot record on the request and keeps the request pending as it was", async () => {
  // Recording the failure fails (here: a trigger refusing it; in life, the database failing again).
  await h.services.db.$executeRawUnsafe(`
    CREATE FUNCTION refuse_pending_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'not now'; END $$`);
  await h.services.db.$executeRawUnsafe(`CREATE TRIGGER refuse_pending_update BEFORE UPDATE ON ingest_pending FOR EACH ROW EXECUTE FUNCTION refuse_pending_update()`);
  try {
    await h.services.db.$executeRaw`DELETE FROM ingest_pending WHERE team_id = ${team.id}::uuid`;
    await h.services.db.$executeRaw`
      INSERT INTO ingest_pending (team_id, shard, caller, source, sent, generations) VALUES (${team.id}::uuid, 0, ${JSON.stringify(key)}::jsonb, 'otel', 'unreadable', 1)`;
    const heard: unknown[] = [];
    const db: Db = createDb({ url: h.database.url, max: 2 });
    const stop = startIngestMerges(db, { onError: (error) => heard.push(error) });
    // The merge's failure is heard, and so is that it could not be recorded.
    const notRecorded = () => heard.filter((error) => /kept pending, its failure not recorded: P0001: not now/.test(String(error))).length;
    await expect.poll(notRecorded).toBeGreaterThan(0);
    await stop();
    await db.$disconnect();
    expect(heard[0]).toBeInstanceOf(SyntaxError);
    expect(await pendingRows()).toEqual([{ attempts: 0, lasting: 0, lastError: null, setAside: false }]);
  } finally {
    await h.services.db.$executeRawUnsafe(`DROP TRIGGER refuse_pending_update ON ingest_pending`);
    await h.services.db.$executeRawUnsafe(`DROP FUNCTION refuse_pending_update()`);
    await h.services.db.$executeRaw`DELETE FROM ingest_pending WHERE team_id = ${team.id}::uuid`;
  }
});
