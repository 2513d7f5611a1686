// Edges of the merge of production signals, against the real database: a start far ahead of our clock
// is not said (the time it came stands for it), so no generation is kept in the default partition for good;
// a cost not sent is computed again at every merge from all the tokens sent so far, a cost sent is kept;
// a score naming only a trace waits for a generation of the trace linked to a prompt (never one of no prompt,
// which may be dropped when its create comes); a score by generation id (a key's, a person's thumbs) takes
// turns with the generation's merge on its observation's lock, and reads it as the merge left it; a key may
// not send a score of an id online evaluation gives its verdicts (its own would then be a repeat, not written).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { langfuseIngestionInput, langfuseScoreBody } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import type { KeyCaller } from "../access/visibility.ts";
import { builtInModelPrice } from "../models/prices.ts";
import { costAt } from "../models/prices.ts";
import { createApiScore, createLangfuseScore, ingestLangfuseBatch } from "./production-api.ts";
import { ingestProduction, ingestSettled, type GenerationPatch, type ScoreDraft } from "./ingest.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };
let key: KeyCaller;
let prompt: { id: string; name: string };

const db = () => h.database.db;
const event = (observationId: string, fields: Partial<GenerationPatch>): GenerationPatch => ({ observationId, source: "langfuse", seenAt: new Date(), ...fields });
const send = (generations: GenerationPatch[], scores: ScoreDraft[] = []) => ingestProduction(db(), key, team.id, { generations, scores });
const generation = async (observationId: string) =>
  (await db().$queryRaw<{ id: string; startedAt: Date; partition: string; cost: number | null; environment: string }[]>`
    SELECT id::text, started_at AS "startedAt", tableoid::regclass::text AS partition, cost, environment FROM generations
     WHERE team_id = ${team.id}::uuid AND observation_id = ${observationId}`)[0];

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
  prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
  key = await world.ingestKey(team.id);
});
afterAll(() => h.close());

describe("a start far ahead of our clock", () => {
  it("is not said: the time it came stands for it (a start an hour ahead is kept as sent)", async () => {
    const before = Date.now();
    const soon = new Date(before + 3_600_000);
    await send([
      event("future-far", { promptName: prompt.name, version: 1, startedAt: new Date("9000-01-01T00:00:00.000Z") }),
      // When it was sent, far ahead too (a sender's event timestamp): our clock stands for it.
      event("future-sent", { promptName: prompt.name, version: 1, seenAt: new Date("9000-01-01T00:00:00.000Z") }),
      event("future-soon", { promptName: prompt.name, version: 1, startedAt: soon }),
    ]);
    const after = Date.now();
    for (const id of ["future-far", "future-sent"]) {
      const row = (await generation(id))!;
      expect(row.startedAt.getTime(), id).toBeGreaterThanOrEqual(before - 1_000);
      expect(row.startedAt.getTime(), id).toBeLessThanOrEqual(after + 1_000);
      expect(row.partition, id).not.toBe("generations_default");
    }
    expect((await generation("future-soon"))!.startedAt).toEqual(soon);
  });
});

describe("a generation's cost", () => {
  const rolledUpCost = async (promptId: string) =>
    (await db().$queryRaw<{ cost: number }[]>`SELECT coalesce(sum(cost), 0)::float8 AS cost FROM generation_rollups WHERE prompt_id = ${promptId}::uuid`)[0]!.cost;

  it("not sent is computed again at a later merge from all its tokens (an update's output counted); a cost sent is kept", async () => {
    const own = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const price = builtInModelPrice("gpt-4o-mini")!;
    const start = new Date(Date.now() - 1_000);
    await send([
      event("cost-computed", { promptName: own.name, version: 1, model: "gpt-4o-mini", startedAt: start, inputTokens: 100, outputTokens: 0 }),
      event("cost-sent", { promptName: own.name, version: 1, model: "gpt-4o-mini", startedAt: start, inputTokens: 100, outputTokens: 0, cost: 0.5 }),
    ]);
    expect((await generation("cost-computed"))!.cost).toBe(costAt(price, 100, 0));
    await send([event("cost-computed", { inputTokens: 100, outputTokens: 500 }), event("cost-sent", { inputTokens: 100, outputTokens: 500 })]);
    const computed = costAt(price, 100, 500)!;
    expect((await generation("cost-computed"))!.cost).toBe(computed);
    expect((await generation("cost-sent"))!.cost).toBe(0.5);
    // The rollups moved with it: the first cost taken out, the new one put in.
    expect(await rolledUpCost(own.id)).toBeCloseTo(computed + 0.5, 12);
  });
});

describe("a score naming only a trace", () => {
  const scoreRow = async (id: string) =>
    (await db().$queryRaw<{ generationId: string | null; observationId: string | null; promptId: string | null }[]>`
      SELECT generation_id::text AS "generationId", observation_id AS "observationId", prompt_id::text AS "promptId" FROM scores WHERE id = ${id}::uuid`)[0]!;

  it("sent while the trace holds only a generation of no prompt yet (an update first) waits, and follows the trace's linked generation once it comes", async () => {
    const traceId = "trace-only-waits";
    // An update first (no prompt, no start): kept, its create may name a prompt.
    await send([event("to-drop", { traceId, model: "gpt-4o-mini" })]);
    const sent = await send([], [{ traceId, name: "helpful", dataType: "numeric", value: 1, stringValue: null, source: "api", apiKeyId: key.apiKey.id }]);
    const scoreId = sent.scores[0]!.id;
    expect(await scoreRow(scoreId)).toEqual({ generationId: null, observationId: null, promptId: null });
    // Its create names no prompt: dropped.
    await send([event("to-drop", { startedAt: new Date() })]);
    expect(await generation("to-drop")).toBeUndefined();
    // The trace's generation of a prompt: the score follows it.
    await send([event("kept", { traceId, promptName: prompt.name, version: 1, startedAt: new Date() })]);
    const kept = (await generation("kept"))!;
    expect(await scoreRow(scoreId)).toEqual({ generationId: kept.id, observationId: "kept", promptId: prompt.id });
  });
});

describe("a score by generation id", () => {
  /**
   * Another connection in the midst of a merge of the generation: its observation's lock held, its environment
   * changed and not committed yet. `commitAfter` commits it once `score` waits on the lock (or has ended).
   */
  async function mergeHolding(observationId: string, generationId: string) {
    const holder = new pg.Client({ connectionString: h.database.url });
    await holder.connect();
    await holder.query("BEGIN");
    await holder.query(`SELECT pg_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0))`, [team.id, observationId]);
    await holder.query(`UPDATE generations SET environment = 'staging' WHERE id = $1::uuid`, [generationId]);
    // This test's database only: pg_locks shows every database of the server.
    const waiting = async () =>
      (await holder.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)).rows[0]!.n;
    return {
      async commitAfter<T>(score: Promise<T>): Promise<{ waited: boolean; result: T }> {
        let settled = false;
        const done = score.finally(() => (settled = true));
        done.catch(() => undefined);
        let waited = false;
        while (!settled && !(waited = (await waiting()) > 0)) await Promise.race([done.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 10))]);
        await holder.query("COMMIT");
        await holder.end();
        return { waited, result: await done };
      },
    };
  }
  const environmentOf = async (scoreId: string) =>
    (await db().$queryRaw<{ environment: string }[]>`SELECT environment FROM scores WHERE id = ${scoreId}::uuid`)[0]!.environment;

  it("from a key waits for the generation's merge and is written under the environment it left", async () => {
    await send([event("locked-api", { promptName: prompt.name, version: 1, startedAt: new Date() })]);
    const generationId = (await generation("locked-api"))!.id;
    const merge = await mergeHolding("locked-api", generationId);
    const { waited, result } = await merge.commitAfter(createApiScore(db(), key, { generationId, name: "helpful", value: true }));
    expect(waited).toBe(true);
    expect(result.linked).toBe(true);
    expect(await environmentOf(result.id)).toBe("staging");
  });

  it("from a person's thumbs waits for the generation's merge and is written under the environment it left", async () => {
    await send([event("locked-thumbs", { promptName: prompt.name, version: 1, startedAt: new Date() })]);
    const generationId = (await generation("locked-thumbs"))!.id;
    const merge = await mergeHolding("locked-thumbs", generationId);
    const { waited, result } = await merge.commitAfter(world.callers.editor.scores.create({ promptId: prompt.id, generationId, up: true }));
    expect(waited).toBe(true);
    expect(await environmentOf(result.id)).toBe("staging");
  });
});

describe("a key's score of an online evaluation's id", () => {
  it("is refused: alone with 400 and why, in an ingestion batch as that event's error (the others written)", async () => {
    await send([event("online-target", { promptName: prompt.name, version: 1, startedAt: new Date() })]);
    const generationId = (await generation("online-target"))!.id;
    const reserved = `online:${generationId}:polite`;
    const refusal = { code: "INVALID", message: expect.stringContaining('"online:"') };
    await expect(createApiScore(db(), key, { generationId, name: "polite", value: true, id: reserved })).rejects.toMatchObject(refusal);
    await expect(createLangfuseScore(db(), key, langfuseScoreBody.parse({ id: reserved, name: "polite", value: 1, observationId: "online-target" }))).rejects.toMatchObject(refusal);
    const answer = await ingestLangfuseBatch(db(), key, langfuseIngestionInput.parse({ batch: [
      { id: "e1", type: "score-create", body: { id: reserved, name: "polite", value: 1, observationId: "online-target" } },
      { id: "e2", type: "score-create", body: { id: "mine-1", name: "polite", value: 1, observationId: "online-target" } },
    ] }), new Date());
    expect(answer.successes).toEqual([{ id: "e2", status: 201 }]);
    expect(answer.errors).toMatchObject([{ id: "e1", status: 400, message: expect.stringContaining('"online:"') }]);
    await ingestSettled(db());
    const stored = await db().$queryRaw<{ externalId: string }[]>`
      SELECT external_id AS "externalId" FROM scores WHERE team_id = ${team.id}::uuid AND external_id IN (${reserved}, 'mine-1')`;
    expect(stored).toEqual([{ externalId: "mine-1" }]);
  });
});
