// What a tracing SDK sent is acknowledged once appended to ingest_pending, and merged after: a merge cut
// off in the middle (its statement cancelled while its transaction holds the rows: rolled back, as a
// killed process's transaction is) loses nothing acknowledged; another process's merges write it, once,
// and leave nothing pending.
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb, type Db } from "@promptly/db";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import { keyCaller, type KeyCaller } from "../access/visibility.ts";
import { acceptProduction, ingestSettled, startIngestMerges, type GenerationPatch } from "./ingest.ts";

let h: Harness;
let team: { id: string };
let key: KeyCaller;
let prompt: { id: string; name: string };

beforeAll(async () => {
  h = await createHarness();
  const world = await createLibraryWorld(h);
  team = await world.team();
  prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
  const created = await world.callers.admin.apiKeys.create({ teamId: team.id, name: "Tracing", scopes: ["ingest"] });
  key = keyCaller({ id: created.id, teamId: team.id, labels: null, scopes: ["ingest"] });
});
afterAll(() => h.close());

const span = (observationId: string): GenerationPatch => ({
  observationId, source: "otel", promptName: prompt.name, version: 1, model: "gpt-4o-mini", startedAt: new Date(Date.now() - 500), endedAt: new Date(),
  inputTokens: 10, outputTokens: 5, seenAt: new Date(),
});
const stored = async (ids: string[]) =>
  h.services.db.$queryRaw<{ observationId: string; promptId: string | null }[]>`
    SELECT observation_id AS "observationId", prompt_id::text AS "promptId" FROM generations WHERE observation_id = ANY(${ids}::text[]) ORDER BY 1`;
const pending = async () => (await h.services.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM ingest_pending WHERE team_id = ${team.id}::uuid`)[0]!.n;

it("a merge cut off mid-transaction loses nothing acknowledged: another process merges it, once", async () => {
  const ids = ["killed-0001", "killed-0002", "killed-0003"];
  // The first process's merge is held inside its transaction: a generation's lock is taken elsewhere first.
  const holder = new pg.Client({ connectionString: h.database.url });
  await holder.connect();
  await holder.query("BEGIN");
  await holder.query(`SELECT pg_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0))`, [team.id, ids[0]]);

  const first: Db = createDb({ url: h.database.url, max: 2 });
  // Acknowledged: what the sender is answered with once this resolves.
  await acceptProduction(first, key, { generations: ids.map(span), scores: [] }, { source: "otel", dropped: 0 });
  // Its merge has the rows (they are locked to any other merge) and waits on the generation's lock.
  const mergeWaiting = async () =>
    (await holder.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)).rows[0]!.n;
  expect(await pending()).toBe(1);

  // Cut off, twice: the batch's merge, then its retry of the row alone (a failure counted against the row).
  for (let cut = 0; cut < 2; cut++) {
    await expect.poll(mergeWaiting).toBe(1);
    await holder.query(`SELECT pg_cancel_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`);
  }
  await ingestSettled(first);
  await first.$disconnect();
  await holder.query("ROLLBACK");
  await holder.end();
  expect(await stored(ids)).toEqual([]);
  expect(await pending()).toBe(1);
  expect((await h.services.db.$queryRaw<{ attempts: number }[]>`SELECT attempts FROM ingest_pending WHERE team_id = ${team.id}::uuid`)[0]!.attempts).toBe(1);

  // Another process, started, merges what is left: each generation once, linked to its version.
  const stop = startIngestMerges(h.services.db);
  await expect.poll(pending).toBe(0);
  await stop();
  expect(await stored(ids)).toEqual(ids.map((observationId) => ({ observationId, promptId: prompt.id })));
});
