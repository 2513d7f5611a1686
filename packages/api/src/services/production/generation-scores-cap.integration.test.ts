// A generation is listed with its newest scores only, GENERATION_SCORES_MAX of them (oldest first, the order
// clients always had), and how many more it has, counted up to GENERATION_MORE_SCORES_COUNTED: an ingest key
// may send any number on one generation, and every page and export of the prompt read them all (and counted them all).
import { GENERATION_MORE_SCORES_COUNTED, GENERATION_SCORES_MAX } from "@promptly/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import { getGeneration, listGenerations } from "./generations.ts";
import { ingestProduction } from "./ingest.ts";

let h: Harness;
let prompt: { id: string; name: string };
const ids: Record<string, string> = {};

const HOUR = 3_600_000;
const now = new Date(Math.floor(Date.now() / HOUR) * HOUR);
const span = { from: new Date(now.getTime() - 2 * HOUR), to: now };
/** Each generation's number of scores. */
const SCORES = {
  flooded: GENERATION_SCORES_MAX + 15,
  full: GENERATION_SCORES_MAX,
  few: 3,
  brimming: GENERATION_SCORES_MAX + GENERATION_MORE_SCORES_COUNTED,
  swamped: GENERATION_SCORES_MAX + GENERATION_MORE_SCORES_COUNTED + 5,
};

beforeAll(async () => {
  h = await createHarness();
  const world = await createLibraryWorld(h);
  const team = await world.team();
  prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
  const key = await world.ingestKey(team.id);
  await ingestProduction(h.database.db, key, team.id, {
    generations: Object.keys(SCORES).map((observationId, i) => ({
      observationId, source: "langfuse", promptName: prompt.name, version: 1, startedAt: new Date(span.from.getTime() + i * 60_000), seenAt: new Date(),
    })),
    scores: [],
  });
  const db = h.services.db;
  for (const [observationId, count] of Object.entries(SCORES)) {
    const [row] = await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM generations WHERE prompt_id = ${prompt.id}::uuid AND observation_id = ${observationId}`;
    ids[observationId] = row!.id;
    // Score n is n seconds after the first: the newest is the last numbered.
    await db.$executeRaw`
      INSERT INTO scores (organization_id, team_id, generation_id, prompt_id, version, name, data_type, value, comment, source, created_at)
      SELECT g.organization_id, g.team_id, g.id, g.prompt_id, 1, 'score-' || n, 'numeric', n, repeat('why ', 100), 'api', ${span.from}::timestamptz + n * interval '1 second'
        FROM generations g, generate_series(1, ${count}::int) n
       WHERE g.id = ${row!.id}::uuid`;
  }
});
afterAll(() => h.close());

/** The names of the newest `count` of `total` scores, oldest first. */
const newest = (total: number, count: number) => Array.from({ length: count }, (_, i) => `score-${total - count + 1 + i}`);

describe("a generation's scores", () => {
  it("are the newest GENERATION_SCORES_MAX at most, listed oldest first, with how many more it has", async () => {
    const page = await listGenerations(h.services.db, prompt.id, span, now, true);
    const byObservation = Object.fromEntries(page.items.map((item) => [item.observationId, item]));
    expect(byObservation["flooded"]!.scores.map((score) => score.name)).toEqual(newest(SCORES.flooded, GENERATION_SCORES_MAX));
    expect(byObservation["flooded"]!).toMatchObject({ moreScores: 15, moreScoresCapped: false });
    expect(byObservation["flooded"]!.scores.at(-1)).toMatchObject({ value: SCORES.flooded, comment: "why ".repeat(100), createdAt: new Date(span.from.getTime() + SCORES.flooded * 1000).toISOString() });
    expect(byObservation["full"]!.scores.map((score) => score.name)).toEqual(newest(SCORES.full, GENERATION_SCORES_MAX));
    expect(byObservation["full"]!).toMatchObject({ moreScores: 0, moreScoresCapped: false });
    expect(byObservation["few"]!.scores.map((score) => score.name)).toEqual(newest(SCORES.few, SCORES.few));
    expect(byObservation["few"]!).toMatchObject({ moreScores: 0, moreScoresCapped: false });
  });

  it("beyond those listed are counted up to GENERATION_MORE_SCORES_COUNTED, and past it marked capped", async () => {
    const page = await listGenerations(h.services.db, prompt.id, span, now, true);
    const byObservation = Object.fromEntries(page.items.map((item) => [item.observationId, item]));
    expect(byObservation["brimming"]!).toMatchObject({ moreScores: GENERATION_MORE_SCORES_COUNTED, moreScoresCapped: false });
    expect(byObservation["swamped"]!).toMatchObject({ moreScores: GENERATION_MORE_SCORES_COUNTED, moreScoresCapped: true });
    expect(byObservation["swamped"]!.scores.map((score) => score.name)).toEqual(newest(SCORES.swamped, GENERATION_SCORES_MAX));
    expect(await getGeneration(h.services.db, prompt.id, ids["swamped"]!, true)).toMatchObject({ moreScores: GENERATION_MORE_SCORES_COUNTED, moreScoresCapped: true });
  });

  it("are listed the same when one generation is opened", async () => {
    const flooded = await getGeneration(h.services.db, prompt.id, ids["flooded"]!, true);
    expect(flooded.scores.map((score) => score.name)).toEqual(newest(SCORES.flooded, GENERATION_SCORES_MAX));
    expect(flooded).toMatchObject({ moreScores: 15, moreScoresCapped: false });
    expect(await getGeneration(h.services.db, prompt.id, ids["few"]!, true)).toMatchObject({ moreScores: 0, moreScoresCapped: false, scores: [{ name: "score-1" }, { name: "score-2" }, { name: "score-3" }] });
  });
});
