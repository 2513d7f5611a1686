// A key can send any number of score names and values. The figures and a comparison carry each
// version's (or the pair's) 100 most counted score series and say how many they left out; a rollup row
// keeps at most 100 values of a categorical score, the rest counted under "(other)", and the figures
// list at most 50, the rest summed as "(other)": the shares still add up to 1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawTransaction } from "@promptly/db";
import { PRODUCTION_SCORES_MAX, SCORE_CATEGORIES_MAX, SCORE_OTHER_CATEGORY } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import { compareProductionVersions, productionMetrics } from "./metrics.ts";
import { ROLLUP_CATEGORIES_MAX, applyScoreRollups, scoreContribution } from "./score-rollups.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };

const db = () => h.services.db;
const HOUR = new Date(Date.UTC(2026, 10, 1, 10));
const span = { from: new Date(Date.UTC(2026, 10, 1)), to: new Date(Date.UTC(2026, 10, 2)) };
const now = new Date(Date.UTC(2026, 10, 3));

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
});
afterAll(() => h.close());

describe("a version with 150 score names", () => {
  it("lists and compares the 100 most counted, saying 50 were left out", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    // Name i is scored i + 1 times on both versions (ORDINALITY counts from 1), each score worth 1 (v1) or 2 (v2).
    const names = Array.from({ length: 150 }, (_, i) => `score-${String(i).padStart(3, "0")}`);
    for (const version of [1, 2]) {
      await db().$executeRaw`
        INSERT INTO score_rollups (prompt_id, version, environment, hour, name, data_type, count, sum, sum_squares, categories)
        SELECT ${prompt.id}::uuid, ${version}, 'production', ${HOUR}, name, 'numeric', i, i * ${version}, i * ${version * version}, '{}'::jsonb
          FROM unnest(${names}::text[]) WITH ORDINALITY AS n(name, i)`;
    }
    const metrics = await productionMetrics(db(), prompt.id, span, now);
    expect(metrics.versions.map((version) => [version.version, version.scores.length, version.scoresOmitted])).toEqual([
      [2, PRODUCTION_SCORES_MAX, 50],
      [1, PRODUCTION_SCORES_MAX, 50],
    ]);
    // The most counted: names 50 to 149, each with its own sums.
    expect(metrics.versions[0]!.scores[0]).toMatchObject({ name: "score-050", count: 51, mean: 2 });
    expect(metrics.versions[0]!.scores.at(-1)).toMatchObject({ name: "score-149", count: 150, mean: 2 });

    const comparison = await compareProductionVersions(db(), prompt.id, { ...span, a: 1, b: 2 }, now);
    const scored = comparison.metrics.filter((metric) => metric.metric.startsWith("score-"));
    expect(scored).toHaveLength(PRODUCTION_SCORES_MAX);
    expect(comparison.scoresOmitted).toBe(50);
    expect(scored[0]).toMatchObject({ metric: "score-050", a: { n: 51, value: 1 }, b: { n: 51, value: 2 } });
  });
});

describe("a categorical score with 150 values", () => {
  it("keeps at most 100 in its rollup row, the rest under (other), and its figures' shares add up to 1", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const score = (value: string) => ({
      prompt_id: prompt.id, version: 1, environment: "production", created_at: HOUR, name: "topic", data_type: "categorical", value: null, string_value: value,
    });
    const value = (i: number) => `topic-${String(i).padStart(3, "0")}`;
    // Value i is given i + 1 times: 11,325 scores in all.
    const given = Array.from({ length: 150 }, (_, i) => Array.from({ length: i + 1 }, () => scoreContribution(score(value(i)), 1))).flat();
    const row = async () =>
      (await db().$queryRaw<{ count: number; categories: Record<string, number> }[]>`
        SELECT count, categories FROM score_rollups WHERE prompt_id = ${prompt.id}::uuid AND name = 'topic'`)[0]!;
    const total = (categories: Record<string, number>) => Object.values(categories).reduce((sum, n) => sum + n, 0);

    // Half of them in one change (a new row), the rest in a second (merged with it).
    await rawTransaction(db(), (tx) => applyScoreRollups(tx, given.filter((_, i) => i % 2 === 0)));
    await rawTransaction(db(), (tx) => applyScoreRollups(tx, given.filter((_, i) => i % 2 === 1)));
    let stored = await row();
    expect(Object.keys(stored.categories).length).toBeLessThanOrEqual(ROLLUP_CATEGORIES_MAX + 1);
    expect(stored.count).toBe(11_325);
    expect(total(stored.categories)).toBe(stored.count);
    // The most given are kept as themselves; the least given are counted in the rest.
    expect(stored.categories[value(149)]).toBe(150);
    expect(stored.categories[value(0)]).toBeUndefined();
    expect(stored.categories[SCORE_OTHER_CATEGORY]).toBeGreaterThan(0);

    // One of the rest taken out comes off the rest; the row still adds up.
    const other = stored.categories[SCORE_OTHER_CATEGORY]!;
    await rawTransaction(db(), (tx) => applyScoreRollups(tx, [scoreContribution(score(value(3)), -1)]));
    stored = await row();
    expect(stored.categories[SCORE_OTHER_CATEGORY]).toBe(other - 1);
    expect(total(stored.categories)).toBe(stored.count);

    const metrics = await productionMetrics(db(), prompt.id, span, now);
    const [figure] = metrics.versions[0]!.scores;
    expect(figure!.categories.length).toBe(SCORE_CATEGORIES_MAX + 1);
    expect(figure!.categories[0]).toEqual({ value: value(149), count: 150 });
    expect(figure!.categories.at(-1)!.value).toBe(SCORE_OTHER_CATEGORY);
    const shares = figure!.categories.reduce((sum, category) => sum + category.count / figure!.count, 0);
    expect(shares).toBeCloseTo(1, 10);
  });
});
