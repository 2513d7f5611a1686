// A key can send any number of score names and values. The figures and a comparison carry each
// version's (or the pair's) 100 most counted score series and say how many they left out; a rollup row
// keeps at most 100 values of a categorical score, the rest counted under "(other)", and the figures
// list at most 50, the rest summed as "(other)": the shares still add up to 1. A value sent as "(other)"
// is a value of its own, never counted with the rest.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawTransaction } from "@promptly/db";
import { readMigrations } from "@promptly/db/migrate";
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

describe("a categorical score with values sent as (other) and \\(other) beside 150 others", () => {
  const value = (i: number) => `topic-${String(i).padStart(3, "0")}`;

  it("counts each as a value of its own, apart from the rest, in its rollup row and its figures", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const score = (text: string) => ({
      prompt_id: prompt.id, version: 1, environment: "production", created_at: HOUR, name: "topic", data_type: "categorical", value: null, string_value: text,
    });
    const times = (n: number, text: string) => Array.from({ length: n }, () => scoreContribution(score(text), 1));
    // Value i is given i + 1 times (11,325); "(other)" 120 times and "\(other)" 7 times: 11,452 in all.
    const given = [...Array.from({ length: 150 }, (_, i) => times(i + 1, value(i))).flat(), ...times(120, SCORE_OTHER_CATEGORY), ...times(7, "\\(other)")];
    await rawTransaction(db(), (tx) => applyScoreRollups(tx, given.filter((_, i) => i % 2 === 0)));
    await rawTransaction(db(), (tx) => applyScoreRollups(tx, given.filter((_, i) => i % 2 === 1)));
    // One "(other)" taken out: it comes off that value, not off the rest.
    await rawTransaction(db(), (tx) => applyScoreRollups(tx, [scoreContribution(score(SCORE_OTHER_CATEGORY), -1)]));

    const metrics = await productionMetrics(db(), prompt.id, span, now);
    const [figure] = metrics.versions[0]!.scores;
    expect(figure!.count).toBe(11_451);
    const sent = figure!.categories.filter((category) => category.value === SCORE_OTHER_CATEGORY && !category.other);
    const rest = figure!.categories.filter((category) => category.other);
    expect(sent).toEqual([{ value: SCORE_OTHER_CATEGORY, count: 119 }]);
    // The 50 most given: "(other)" among them, in its place (values 149 to 119 are given more; 118 as often, after it by text; 117 to 101 less).
    expect(figure!.categories.slice(0, SCORE_CATEGORIES_MAX).map((category) => category.value)).toEqual([
      ...Array.from({ length: 31 }, (_, i) => value(149 - i)), SCORE_OTHER_CATEGORY, ...Array.from({ length: 18 }, (_, i) => value(118 - i)),
    ]);
    // The rest: values 100 down to 0 (5,151 given) and "\(other)" (7), one entry, last.
    expect(rest).toEqual([{ value: SCORE_OTHER_CATEGORY, count: 5_151 + 7, other: true }]);
    expect(figure!.categories.at(-1)).toBe(rest[0]);
    expect(figure!.categories.reduce((sum, category) => sum + category.count, 0)).toBe(figure!.count);
  });

  it("lists a value sent as \\(other) as it was sent", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const score = (text: string) => ({
      prompt_id: prompt.id, version: 1, environment: "production", created_at: HOUR, name: "topic", data_type: "categorical", value: null, string_value: text,
    });
    await rawTransaction(db(), (tx) =>
      applyScoreRollups(tx, ["\\(other)", "\\(other)", "\\\\(other)", SCORE_OTHER_CATEGORY, "other"].map((text) => scoreContribution(score(text), 1))),
    );
    const [figure] = (await productionMetrics(db(), prompt.id, span, now)).versions[0]!.scores;
    expect(figure!.categories).toEqual([
      { value: "\\(other)", count: 2 },
      { value: SCORE_OTHER_CATEGORY, count: 1 },
      { value: "\\\\(other)", count: 1 },
      { value: "other", count: 1 },
    ]);
  });

  it("is kept apart from the rest by the migration of rows written before: their (other) stays the rest, their \\(other) a value", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    await db().$executeRaw`
      INSERT INTO score_rollups (prompt_id, version, environment, hour, name, data_type, count, sum, sum_squares, categories)
      VALUES (${prompt.id}::uuid, 1, 'production', ${HOUR}, 'topic', 'categorical', 10, 0, 0, ${JSON.stringify({ good: 4, "(other)": 3, "\\(other)": 2, "x(other)": 1 })}::jsonb)`;
    const stored = async () => (await db().$queryRaw<{ categories: unknown }[]>`SELECT categories FROM score_rollups WHERE prompt_id = ${prompt.id}::uuid`)[0]!.categories;
    const before = await stored();
    // The migration's statement runs over the whole table (and is not to be run twice): run in a transaction
    // rolled back after its figure is read, it leaves every row, this test's and the file's others', as it found them.
    const migration = readMigrations().find((entry) => entry.name.endsWith("_score_rollup_fold_key"))!;
    const rolledBack = new Error("rolled back");
    await expect(
      db().$transaction(async (tx) => {
        await tx.$executeRawUnsafe(migration.sql);
        const [figure] = (await productionMetrics(tx, prompt.id, span, now)).versions[0]!.scores;
        expect(figure!.categories).toEqual([
          { value: "good", count: 4 },
          { value: "\\(other)", count: 2 },
          { value: "x(other)", count: 1 },
          { value: SCORE_OTHER_CATEGORY, count: 3, other: true },
        ]);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await stored()).toEqual(before);
  });
});
