// The Production tab's reads through tRPC callers, on rollups and generations seeded with known values:
// the figures per version and bucket (percentiles from merged histograms, scores' means and shares),
// the filters, two versions compared with their sentences, the generations paged newest first with
// their scores, one generation with its text only when its team keeps it; and who may read them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LATENCY_BUCKETS, bucketOf, compareMeans, histOf, percentileFromHist } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, failure } from "../../../testing/prompts-support.ts";
import { pruneExpired } from "../../services/platform/housekeeping.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };
let prompt: { id: string; name: string };
let other: { id: string; name: string };

const HOUR = 3_600_000;
/** The seeded data lies on 1 November 2026 (UTC), well before the harness's clock. */
const DAY = Date.UTC(2026, 10, 1);
const at = (hours: number, minutes = 0) => new Date(DAY + hours * HOUR + minutes * 60_000);
const span = { from: at(0), to: at(48) };

interface RollupRow {
  version: number;
  environment?: string;
  model?: string;
  hour: Date;
  generations: number;
  errors: number;
  latencies: number[];
  ttfts?: number[];
  inputTokens?: number;
  outputTokens?: number;
  cost?: number;
  /** How many of the generations have a cost (by default all, when a cost is given), each costing the same. */
  costCount?: number;
}

async function insertRollup(promptId: string, row: RollupRow) {
  const ttfts = row.ttfts ?? [];
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const cost = row.cost ?? 0;
  const costCount = row.costCount ?? (row.cost === undefined ? 0 : row.generations);
  // Every generation reported its usage when tokens are given, none when not.
  const tokenCount = row.inputTokens === undefined && row.outputTokens === undefined ? 0 : row.generations;
  await h.services.db.$executeRaw`
    INSERT INTO generation_rollups (prompt_id, version, environment, model, hour, generations, errors, latency_sum, latency_count, ttft_sum, ttft_count,
                                    latency_hist, ttft_hist, input_tokens, output_tokens, token_count, cost, cost_count, cost_sum_squares)
    VALUES (${promptId}::uuid, ${row.version}, ${row.environment ?? "production"}, ${row.model ?? "gpt-4o-mini"}, ${row.hour}, ${row.generations}, ${row.errors},
            ${sum(row.latencies)}, ${row.latencies.length}, ${sum(ttfts)}, ${ttfts.length}, ${histOf(row.latencies)}::int[], ${histOf(ttfts)}::int[],
            ${row.inputTokens ?? 0}, ${row.outputTokens ?? 0}, ${tokenCount}, ${cost}, ${costCount}, ${costCount > 0 ? (cost * cost) / costCount : 0})`;
}

async function insertScoreRollup(promptId: string, row: { version: number; environment?: string; hour: Date; name: string; dataType: string; values: (number | string)[] }) {
  const numbers = row.values.filter((value): value is number => typeof value === "number");
  const categories: Record<string, number> = {};
  for (const value of row.values) {
    const key = typeof value === "string" ? value : row.dataType === "boolean" ? (value === 1 ? "True" : "False") : null;
    if (key !== null) categories[key] = (categories[key] ?? 0) + 1;
  }
  await h.services.db.$executeRaw`
    INSERT INTO score_rollups (prompt_id, version, environment, hour, name, data_type, count, sum, sum_squares, categories)
    VALUES (${promptId}::uuid, ${row.version}, ${row.environment ?? "production"}, ${row.hour}, ${row.name}, ${row.dataType}, ${row.values.length},
            ${numbers.reduce((total, value) => total + value, 0)}, ${numbers.reduce((total, value) => total + value * value, 0)},
            ${row.dataType === "numeric" ? "{}" : JSON.stringify(categories)}::jsonb)`;
}

/** The latencies 100, 200, ..., 100·n ms. */
const steps = (n: number, step = 100) => Array.from({ length: n }, (_, i) => (i + 1) * step);

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
  prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
  other = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
  await world.callers.editor.promptVersions.create({ promptId: prompt.id, type: "text", template: "Answer {{ question }} briefly." });

  // Version 1: 40 generations over two hours of the first day (4 errors), in production on one model.
  await insertRollup(prompt.id, { version: 1, hour: at(1), generations: 20, errors: 1, latencies: steps(20), ttfts: steps(20, 10), inputTokens: 2000, outputTokens: 1000, cost: 0.2 });
  await insertRollup(prompt.id, { version: 1, hour: at(2), generations: 20, errors: 3, latencies: steps(20), ttfts: steps(20, 10), inputTokens: 2000, outputTokens: 1000, cost: 0.2 });
  // Version 2: 50 in production on another model the next day (25 of them with no price, so no cost), and 10 in
  // staging (filtered out by environment).
  await insertRollup(prompt.id, { version: 2, model: "gpt-4o", hour: at(25), generations: 50, errors: 0, latencies: steps(50, 20), inputTokens: 5000, outputTokens: 2500, cost: 1, costCount: 25 });
  await insertRollup(prompt.id, { version: 2, environment: "staging", hour: at(26), generations: 10, errors: 10, latencies: steps(10, 1000), cost: 0.5 });
  // Outside the span, and another prompt's: never counted.
  await insertRollup(prompt.id, { version: 1, hour: at(-5), generations: 1000, errors: 1000, latencies: [] });
  await insertRollup(other.id, { version: 1, hour: at(3), generations: 7, errors: 7, latencies: [] });

  // Thumbs: version 1 half up (20 of 40), version 2 all but 2 of 50; a numeric rating and a categorical verdict.
  await insertScoreRollup(prompt.id, { version: 1, hour: at(1), name: "thumbs", dataType: "boolean", values: [...Array(20).fill(1), ...Array(20).fill(0)] });
  await insertScoreRollup(prompt.id, { version: 2, hour: at(25), name: "thumbs", dataType: "boolean", values: [...Array(48).fill(1), ...Array(2).fill(0)] });
  await insertScoreRollup(prompt.id, { version: 1, hour: at(1), name: "rating", dataType: "numeric", values: [3, 4, 5] });
  await insertScoreRollup(prompt.id, { version: 1, hour: at(2), name: "verdict", dataType: "categorical", values: ["good", "bad", "good"] });
});
afterAll(() => h.close());

describe("production.metrics", () => {
  it("answers each version's figures from the rollups of the span, newest version first", async () => {
    const metrics = await world.callers.viewer.production.metrics({ promptId: prompt.id, ...span, environment: "production" });
    expect(metrics.versions.map((version) => version.version)).toEqual([2, 1]);
    const [v2, v1] = metrics.versions;
    expect(v1).toMatchObject({
      generations: 40, errors: 4, errorRate: 0.1, inputTokens: 4000, outputTokens: 2000, meanTokens: 150, latencyMeanMs: 1050,
    });
    expect(v1!.cost).toBeCloseTo(0.4, 10);
    expect(v1!.meanCost).toBeCloseTo(0.01, 10);
    // The two hours' histograms merged: the percentiles of the 40 latencies, each value twice.
    const merged = histOf([...steps(20), ...steps(20)]);
    expect(v1!.latencyP50Ms).toBeCloseTo(percentileFromHist(merged, 0.5)!, 10);
    expect(v1!.latencyP95Ms).toBeCloseTo(percentileFromHist(merged, 0.95)!, 10);
    expect(v1!.ttftP50Ms).toBeCloseTo(percentileFromHist(histOf([...steps(20, 10), ...steps(20, 10)]), 0.5)!, 10);
    // Within the buckets' width (a factor of √2) of the exact median, 1,050 ms.
    expect(v1!.latencyP50Ms!).toBeGreaterThan(1050 / Math.SQRT2);
    expect(v1!.latencyP50Ms!).toBeLessThan(1050 * Math.SQRT2);
    expect(v1!.scores).toEqual([
      { name: "rating", dataType: "numeric", count: 3, mean: 4, share: null, categories: [] },
      { name: "thumbs", dataType: "boolean", count: 40, mean: null, share: 0.5, categories: [{ value: "False", count: 20 }, { value: "True", count: 20 }] },
      { name: "verdict", dataType: "categorical", count: 3, mean: null, share: null, categories: [{ value: "good", count: 2 }, { value: "bad", count: 1 }] },
    ]);
    expect(v2).toMatchObject({ generations: 50, errors: 0, errorRate: 0, ttftP50Ms: null, scores: [expect.objectContaining({ name: "thumbs", share: 0.96 })] });
    // $1 over the 25 generations with a cost: 4 cents each, not 2 (a generation with no price is not free).
    expect(v2!.meanCost).toBeCloseTo(0.04, 10);
    expect(metrics.environments).toEqual(["production", "staging"]);
    expect(metrics.models).toEqual(["gpt-4o", "gpt-4o-mini"]);
  });

  it("filters by environment, model and span", async () => {
    const all = await world.callers.viewer.production.metrics({ promptId: prompt.id, ...span });
    expect(all.versions.find((version) => version.version === 2)).toMatchObject({ generations: 60, errors: 10 });
    expect(all.scoresAllModels).toBe(false);
    const byModel = await world.callers.viewer.production.metrics({ promptId: prompt.id, ...span, model: "gpt-4o-mini" });
    // The scores carry no model: with one asked for, the answer says they are every model's.
    expect(byModel.scoresAllModels).toBe(true);
    // Version 2 stays listed for its scores (which carry no model), with no generations of that model.
    expect(byModel.versions.map(({ version, generations }) => ({ version, generations }))).toEqual([{ version: 2, generations: 10 }, { version: 1, generations: 40 }]);
    const firstHours = await world.callers.viewer.production.metrics({ promptId: prompt.id, from: at(0), to: at(2) });
    expect(firstHours.versions.map(({ version, generations }) => ({ version, generations }))).toEqual([{ version: 1, generations: 20 }]);
    // The hour `from` falls in counts whole.
    const fromInside = await world.callers.viewer.production.metrics({ promptId: prompt.id, from: at(1, 30), to: at(2) });
    expect(fromInside.versions[0]).toMatchObject({ version: 1, generations: 20 });
  });

  it("draws a chart point per version and bucket that has generations", async () => {
    // Days by default beyond two days.
    const days = await world.callers.viewer.production.metrics({ promptId: prompt.id, from: at(0), to: at(49), environment: "production" });
    expect(days.bucket).toBe("day");
    expect(days.series).toEqual([
      { version: 2, points: [expect.objectContaining({ at: at(24).toISOString(), generations: 50, errors: 0 })] },
      { version: 1, points: [expect.objectContaining({ at: at(0).toISOString(), generations: 40, errors: 4 })] },
    ]);
    const hours = await world.callers.viewer.production.metrics({ promptId: prompt.id, ...span, environment: "production", bucket: "hour" });
    expect(hours.series.find((line) => line.version === 1)!.points.map((point) => [point.at, point.generations, point.errors])).toEqual([
      [at(1).toISOString(), 20, 1],
      [at(2).toISOString(), 20, 3],
    ]);
    const p50 = hours.series.find((line) => line.version === 1)!.points[0]!.latencyP50Ms;
    expect(p50).toBeCloseTo(percentileFromHist(histOf(steps(20)), 0.5)!, 10);
  });

  it("refuses a span that ends before it starts, and answers nothing for an empty one", async () => {
    expect(await failure(world.callers.viewer.production.metrics({ promptId: prompt.id, from: at(5), to: at(1) }))).toMatchObject({ code: "BAD_REQUEST", message: "'from' must be before 'to'" });
    const empty = await world.callers.viewer.production.metrics({ promptId: prompt.id, from: at(100), to: at(110) });
    expect(empty).toMatchObject({ versions: [], series: [], environments: [], models: [], bucket: "hour" });
  });

  it("is read by the prompt's readers only: another tenant's people do not know it exists", async () => {
    for (const kind of ["viewer", "editor", "admin", "orgAdmin", "superUser"] as const) {
      await expect(world.callers[kind].production.metrics({ promptId: prompt.id, ...span })).resolves.toBeDefined();
    }
    for (const kind of ["outsider", "otherOrgMember", "orgMember"] as const) {
      expect((await failure(world.callers[kind].production.metrics({ promptId: prompt.id, ...span }))).code).toBe("NOT_FOUND");
      expect((await failure(world.callers[kind].production.generations({ promptId: prompt.id, ...span }))).code).toBe("NOT_FOUND");
    }
    expect((await failure(world.callers.anonymous.production.metrics({ promptId: prompt.id, ...span }))).code).toBe("UNAUTHORIZED");
  });
});

describe("production.compare", () => {
  it("compares two versions on the error rate, latency and each score, each with its sentence", async () => {
    const comparison = await world.callers.viewer.production.compare({ promptId: prompt.id, ...span, environment: "production", a: 1, b: 2 });
    expect(comparison).toMatchObject({ a: 1, b: 2, label: null, confidence: 0.95, since: null });
    const byMetric = Object.fromEntries(comparison.metrics.map((metric) => [metric.metric, metric]));
    expect(Object.keys(byMetric)).toEqual(["error rate", "latency", "time to first token", "cost per generation", "rating", "thumbs"]);
    // Per generation with a cost: version 2's $1 over its 25 priced generations.
    expect(byMetric["cost per generation"]).toMatchObject({ a: { n: 40 }, b: { n: 25 } });
    expect(byMetric["cost per generation"]!.a.value).toBeCloseTo(0.01, 10);
    expect(byMetric["cost per generation"]!.b.value).toBeCloseTo(0.04, 10);
    // Only version 1 reports first tokens (mean 105 ms): no verdict yet.
    expect(byMetric["time to first token"]).toMatchObject({ a: { n: 40, value: 105 }, b: { n: 0, value: null }, significant: false });
    expect(byMetric["time to first token"]!.verdict).toMatch(/^not enough data yet: about \d+ more generations$/);
    expect(byMetric["thumbs"]).toMatchObject({ kind: "proportion", a: { n: 40, value: 0.5 }, b: { n: 50, value: 0.96 }, significant: true });
    expect(byMetric["thumbs"]!.difference).toBeCloseTo(0.46, 10);
    expect(byMetric["thumbs"]!.verdict).toMatch(/^v2 is better on thumbs \(\+46\.0 points, 95% CI \+\d+\.\d to \+\d+\.\d, 50 vs 40 scored\)$/);
    // Version 2 answers in 20 to 1,000 ms, version 1 in 100 to 2,000 ms: faster, by the spread the histograms show.
    expect(byMetric["latency"]).toMatchObject({ kind: "mean", lowerIsBetter: true, unit: "ms", a: { n: 40, value: 1050 }, b: { n: 50, value: 510 }, significant: true });
    // The better version minus the other: 540 ms less.
    expect(byMetric["latency"]!.verdict).toMatch(/^v2 is better on latency \(-540 ms, 95% CI -\d+ to -\d+, 50 vs 40 generations\)$/);
    expect(byMetric["latency"]!.note).toMatch(/histogram/);
    // 4 errors in 40 against none in 50 (Newcombe's interval, which stays inside [-1, 1] where a Wald interval would not).
    expect(byMetric["error rate"]).toMatchObject({ kind: "proportion", lowerIsBetter: true, a: { n: 40, value: 0.1 }, b: { n: 50, value: 0 } });
    expect(byMetric["error rate"]!.verdict).toBe("v2 is better on error rate (-10.0 points, 95% CI -23.1 to -0.7, 50 vs 40 generations)");
    // Only version 1 has ratings: no verdict.
    expect(byMetric["rating"]).toMatchObject({ a: { n: 3, value: 4 }, b: { n: 0, value: null }, difference: null, significant: false });
    expect(byMetric["rating"]!.verdict).toMatch(/^not enough data yet: about 57 more scored generations$/);
  });

  it("compares a split label's version with its candidate", async () => {
    await world.callers.editor.promptLabels.set({ promptId: prompt.id, label: "beta", version: 1 });
    await world.callers.editor.promptLabels.split({ promptId: prompt.id, label: "beta", version: 2, weight: 10 });
    const bySplit = await world.callers.viewer.production.compare({ promptId: prompt.id, ...span, environment: "production", label: "beta" });
    const byVersions = await world.callers.viewer.production.compare({ promptId: prompt.id, ...span, environment: "production", a: 1, b: 2 });
    expect(bySplit).toEqual({ ...byVersions, label: "beta" });
    expect(await failure(world.callers.viewer.production.compare({ promptId: prompt.id, label: "beta", a: 1 }))).toMatchObject({ code: "BAD_REQUEST" });
  });

  it("never reads latencies that share one histogram bucket as an exact difference", async () => {
    const close = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    await world.callers.editor.promptVersions.create({ promptId: close.id, type: "text", template: "Answer {{ question }} at once." });
    // 40 generations each at 1,100 ms against 1,110 ms (and first tokens at 300 against 310 ms): each side in one bucket.
    await insertRollup(close.id, { version: 1, hour: at(1), generations: 40, errors: 0, latencies: Array(40).fill(1100), ttfts: Array(40).fill(300) });
    await insertRollup(close.id, { version: 2, hour: at(1), generations: 40, errors: 0, latencies: Array(40).fill(1110), ttfts: Array(40).fill(310) });
    const comparison = await world.callers.viewer.production.compare({ promptId: close.id, ...span, a: 1, b: 2 });
    const byMetric = Object.fromEntries(comparison.metrics.map((metric) => [metric.metric, metric]));
    for (const [metric, value] of [["latency", 1100], ["time to first token", 300]] as const) {
      // The spread within the bucket, as if uniform in it: width²/12 per generation (n - 1 in the sample variance's denominator).
      const bucket = bucketOf(value);
      const width = LATENCY_BUCKETS[bucket]! - LATENCY_BUCKETS[bucket - 1]!;
      const variance = (40 * (width ** 2 / 12)) / 39;
      const expected = compareMeans({ n: 40, mean: value, variance }, { n: 40, mean: value + 10, variance });
      expect(byMetric[metric]).toMatchObject({ a: { n: 40, value }, b: { n: 40, value: value + 10 }, significant: false });
      expect(byMetric[metric]!.difference).toBeCloseTo(10, 10);
      expect(byMetric[metric]!.lower).toBeCloseTo(expected.lower, 8);
      expect(byMetric[metric]!.upper).toBeCloseTo(expected.upper, 8);
      expect(byMetric[metric]!.verdict).toMatch(/^not enough data yet: about [\d,]+ more generations$/);
    }
  });

  it("compares a current split's two sides since the split began, when that is inside the span", async () => {
    const split = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    await world.callers.editor.promptVersions.create({ promptId: split.id, type: "text", template: "Answer {{ question }} kindly." });
    // Version 1 alone for the first hours (all failing), then both from hour 5, when the label was split.
    await insertRollup(split.id, { version: 1, hour: at(1), generations: 100, errors: 100, latencies: [] });
    await insertRollup(split.id, { version: 1, hour: at(5), generations: 40, errors: 4, latencies: [] });
    await insertRollup(split.id, { version: 2, hour: at(5), generations: 40, errors: 2, latencies: [] });
    await h.services.db.$executeRaw`
      INSERT INTO prompt_labels (prompt_id, name, version, candidate_version, candidate_weight, moved_at) VALUES (${split.id}::uuid, 'canary', 1, 2, 50, ${at(5, 20)})`;
    const errorRate = (comparison: { metrics: { metric: string; a: { n: number }; b: { n: number } }[] }) => comparison.metrics.find((metric) => metric.metric === "error rate")!;
    for (const versions of [{ a: 1, b: 2 }, { a: 2, b: 1 }, { label: "canary" }]) {
      const since = await world.callers.viewer.production.compare({ promptId: split.id, ...span, ...versions });
      expect(since.since).toBe(at(5, 20).toISOString());
      // From the rollup hour the split began in: version 1's failing hours alone are left out.
      expect(errorRate(since)).toMatchObject({ a: { n: 40 }, b: { n: 40 } });
    }
    // A span that ends before the split began, or starts after it: the span as asked.
    const before = await world.callers.viewer.production.compare({ promptId: split.id, from: at(0), to: at(4), a: 1, b: 2 });
    expect(before.since).toBeNull();
    expect(errorRate(before)).toMatchObject({ a: { n: 100 }, b: { n: 0 } });
    const after = await world.callers.viewer.production.compare({ promptId: split.id, from: at(6), to: at(48), a: 1, b: 2 });
    expect(after.since).toBeNull();
    // Two versions no label splits: the span as asked.
    await h.services.db.$executeRaw`UPDATE prompt_labels SET candidate_version = NULL, candidate_weight = NULL WHERE prompt_id = ${split.id}::uuid`;
    const ended = await world.callers.viewer.production.compare({ promptId: split.id, ...span, a: 1, b: 2 });
    expect(ended.since).toBeNull();
    expect(errorRate(ended)).toMatchObject({ a: { n: 140 }, b: { n: 40 } });
  });

  it("refuses the same version twice and a label that is not split", async () => {
    expect(await failure(world.callers.viewer.production.compare({ promptId: prompt.id, a: 1, b: 1 }))).toMatchObject({ code: "BAD_REQUEST", message: "Choose two different versions to compare" });
    expect(await failure(world.callers.viewer.production.compare({ promptId: prompt.id, label: "production" }))).toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("production.generations and production.generation", () => {
  const ids: string[] = [];
  beforeAll(async () => {
    const team_ = await h.services.db.team.findUniqueOrThrow({ where: { id: team.id }, select: { organizationId: true } });
    // Five generations a minute apart (the newest last), the third an error; one of another prompt at the same time.
    for (let i = 0; i < 5; i++) {
      const [row] = await h.services.db.$queryRaw<{ id: string }[]>`
        INSERT INTO generations (organization_id, team_id, prompt_id, prompt_name, version, trace_id, observation_id, source, model, environment,
                                 started_at, latency_ms, ttft_ms, input_tokens, output_tokens, cost, status, error_message, user_ref, session_ref, input, output)
        VALUES (${team_.organizationId}::uuid, ${team.id}::uuid, ${prompt.id}::uuid, ${prompt.name}, ${i < 3 ? 1 : 2}, ${`trace-${i}`}, ${`obs-${i}`}, 'api', 'gpt-4o-mini',
                'production', ${at(3, i)}, ${100 + i}, ${10 + i}, ${20 + i}, ${30 + i}, ${0.001 * (i + 1)}, ${i === 2 ? "error" : "ok"}, ${i === 2 ? "timeout" : null},
                ${`user-${i}`}, 'session-1', ${`question ${i}`}, ${`answer ${i}`})
        RETURNING id::text`;
      ids.push(row!.id);
    }
    await h.services.db.$executeRaw`
      INSERT INTO generations (organization_id, team_id, prompt_id, prompt_name, version, observation_id, source, started_at, status)
      VALUES (${team_.organizationId}::uuid, ${team.id}::uuid, ${other.id}::uuid, ${other.name}, 1, 'obs-other', 'api', ${at(3, 2)}, 'ok')`;
    await h.services.db.$executeRaw`
      INSERT INTO scores (organization_id, team_id, generation_id, prompt_id, version, name, data_type, value, string_value, comment, source)
      VALUES (${team_.organizationId}::uuid, ${team.id}::uuid, ${ids[4]}::uuid, ${prompt.id}::uuid, 2, 'thumbs', 'boolean', 1, 'True', 'spot on', 'annotation')`;
  });

  it("pages the prompt's generations newest first, with their scores", async () => {
    const first = await world.callers.viewer.production.generations({ promptId: prompt.id, ...span, limit: 2 });
    expect(first.items.map((item) => item.id)).toEqual([ids[4], ids[3]]);
    expect(first.items[0]).toMatchObject({
      version: 2, model: "gpt-4o-mini", startedAt: at(3, 4).toISOString(), latencyMs: 104, ttftMs: 14, tokens: { input: 24, output: 34 }, status: "ok", error: null,
      traceId: "trace-4", observationId: "obs-4", userRef: "user-4", sessionRef: "session-1", environment: "production",
      scores: [expect.objectContaining({ name: "thumbs", dataType: "boolean", value: 1, stringValue: "True", comment: "spot on", source: "annotation" })],
    });
    expect(first.items[0]).not.toHaveProperty("input");
    const second = await world.callers.viewer.production.generations({ promptId: prompt.id, ...span, limit: 2, cursor: first.nextCursor! });
    const third = await world.callers.viewer.production.generations({ promptId: prompt.id, ...span, limit: 2, cursor: second.nextCursor! });
    expect([...second.items, ...third.items].map((item) => item.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(third.nextCursor).toBeNull();
    const errors = await world.callers.viewer.production.generations({ promptId: prompt.id, ...span, status: "error" });
    expect(errors.items.map((item) => [item.id, item.error])).toEqual([[ids[2], "timeout"]]);
    const v1 = await world.callers.viewer.production.generations({ promptId: prompt.id, ...span, version: 1 });
    expect(v1.items).toHaveLength(3);
    expect((await failure(world.callers.viewer.production.generations({ promptId: prompt.id, cursor: "nonsense" }))).code).toBe("BAD_REQUEST");
  });

  it("opens one with its text only when the team keeps it, and never another prompt's", async () => {
    const closed = await world.callers.viewer.production.generation({ promptId: prompt.id, id: ids[4]! });
    // Stored, but the team does not keep text (now): none is shown.
    expect(closed).toMatchObject({ id: ids[4], textKept: false, input: null, output: null, scores: [expect.objectContaining({ name: "thumbs" })] });
    await h.services.db.$executeRaw`UPDATE teams SET keep_generation_text = true WHERE id = ${team.id}::uuid`;
    const kept = await world.callers.viewer.production.generation({ promptId: prompt.id, id: ids[4]! });
    expect(kept).toMatchObject({ textKept: true, input: "question 4", output: "answer 4" });
    expect((await failure(world.callers.viewer.production.generation({ promptId: other.id, id: ids[4]! }))).code).toBe("NOT_FOUND");
    expect((await failure(world.callers.outsider.production.generation({ promptId: prompt.id, id: ids[4]! }))).code).toBe("NOT_FOUND");
  });

  it("shows the text only to the team's members and organization admins: another reader of an organization prompt sees the generation without it", async () => {
    const { orgMember, orgAdmin, superUser, viewer, editor, otherOrgMember } = world.callers;
    // Kept by the team (the test before), on a prompt the whole organization reads.
    await h.services.db.$executeRaw`UPDATE prompts SET visibility = 'organization' WHERE id = ${prompt.id}::uuid`;
    try {
      for (const caller of [viewer, editor, orgAdmin, superUser]) {
        expect(await caller.production.generation({ promptId: prompt.id, id: ids[4]! })).toMatchObject({ textKept: true, textReadable: true, input: "question 4", output: "answer 4" });
      }
      const member = await orgMember.production.generation({ promptId: prompt.id, id: ids[4]! });
      expect(member).toMatchObject({ id: ids[4], textKept: true, textReadable: false, input: null, output: null, latencyMs: 104, scores: [expect.objectContaining({ name: "thumbs" })] });
      expect((await failure(otherOrgMember.production.generation({ promptId: prompt.id, id: ids[4]! }))).code).toBe("NOT_FOUND");

      // Online evaluation's judge gave a reason quoting the answer: shown as the text is; a person's comment to every reader.
      await h.services.db.$executeRaw`
        INSERT INTO scores (organization_id, team_id, generation_id, prompt_id, version, name, data_type, value, string_value, comment, source, created_at)
        SELECT organization_id, team_id, generation_id, prompt_id, version, 'polite', 'boolean', 1, 'True', 'It says "answer 4" politely', 'eval', created_at + interval '1 second'
          FROM scores WHERE generation_id = ${ids[4]}::uuid AND name = 'thumbs'`;
      const comments = (item: { scores: { source: string; comment: string | null }[] }) => item.scores.map(({ source, comment }) => ({ source, comment }));
      const shown = [{ source: "annotation", comment: "spot on" }, { source: "eval", comment: 'It says "answer 4" politely' }];
      const withheld = [{ source: "annotation", comment: "spot on" }, { source: "eval", comment: null }];
      expect(comments(await viewer.production.generation({ promptId: prompt.id, id: ids[4]! }))).toEqual(shown);
      expect(comments((await viewer.production.generations({ promptId: prompt.id, ...span, limit: 1 })).items[0]!)).toEqual(shown);
      expect(comments(await orgMember.production.generation({ promptId: prompt.id, id: ids[4]! }))).toEqual(withheld);
      expect(comments((await orgMember.production.generations({ promptId: prompt.id, ...span, limit: 1 })).items[0]!)).toEqual(withheld);
    } finally {
      await h.services.db.$executeRaw`DELETE FROM scores WHERE generation_id = ${ids[4]}::uuid AND source = 'eval'`;
      await h.services.db.$executeRaw`UPDATE prompts SET visibility = 'team' WHERE id = ${prompt.id}::uuid`;
    }
  });

  it("deletes the text kept so far once the team stops keeping it: never shown again, even kept again; housekeeping clears it, later text stays", async () => {
    const { admin, viewer } = world.callers;
    const storedText = async (id: string) =>
      (await h.services.db.$queryRaw<{ input: string | null; output: string | null }[]>`SELECT input, output FROM generations WHERE id = ${id}::uuid`)[0];
    await admin.teams.setGenerationText({ id: team.id, keep: true });
    expect(await viewer.production.generation({ promptId: prompt.id, id: ids[3]! })).toMatchObject({ textKept: true, input: "question 3", output: "answer 3" });
    await admin.teams.setGenerationText({ id: team.id, keep: false });
    await admin.teams.setGenerationText({ id: team.id, keep: true });
    // Still stored until housekeeping's next run, but already gone for every reader.
    expect(await storedText(ids[3]!)).toEqual({ input: "question 3", output: "answer 3" });
    expect(await viewer.production.generation({ promptId: prompt.id, id: ids[3]! })).toMatchObject({ textKept: true, input: null, output: null });
    // Sent once it was kept again: kept and shown.
    const team_ = await h.services.db.team.findUniqueOrThrow({ where: { id: team.id }, select: { organizationId: true } });
    const [later] = await h.services.db.$queryRaw<{ id: string }[]>`
      INSERT INTO generations (organization_id, team_id, prompt_id, prompt_name, version, observation_id, source, started_at, status, input, output)
      VALUES (${team_.organizationId}::uuid, ${team.id}::uuid, ${prompt.id}::uuid, ${prompt.name}, 2, 'obs-later', 'api', now(), 'ok', 'question later', 'answer later')
      RETURNING id::text`;
    // Online evaluation's judge gave a reason quoting the answer (its score's comment, its claim's verdict).
    await h.services.db.$executeRaw`
      INSERT INTO scores (organization_id, team_id, generation_id, prompt_id, version, name, data_type, value, string_value, comment, source)
      VALUES (${team_.organizationId}::uuid, ${team.id}::uuid, ${ids[3]}::uuid, ${prompt.id}::uuid, 2, 'polite', 'boolean', 1, 'True', 'It says "answer 3" politely', 'eval')`;
    await h.services.db.$executeRaw`
      INSERT INTO online_evaluation_runs (generation_id, prompt_id, day, status, verdicts)
      VALUES (${ids[3]}::uuid, ${prompt.id}::uuid, current_date, 'done', ${JSON.stringify([{ name: "polite", pass: true, reason: 'It says "answer 3" politely' }])}::jsonb)`;
    expect((await pruneExpired(h.services.db, new Date())).generationTexts).toBe(ids.length);
    for (const id of ids) expect(await storedText(id)).toEqual({ input: null, output: null });
    // The judge's reasons went with the text, its verdicts stayed; a person's comment is the person's own and stays.
    expect(await h.services.db.$queryRaw`SELECT source, value, comment FROM scores WHERE generation_id IN (${ids[3]}::uuid, ${ids[4]}::uuid) ORDER BY source`).toEqual([
      { source: "annotation", value: 1, comment: "spot on" },
      { source: "eval", value: 1, comment: null },
    ]);
    expect(await h.services.db.$queryRaw`SELECT verdicts FROM online_evaluation_runs WHERE generation_id = ${ids[3]}::uuid`).toEqual([{ verdicts: [{ name: "polite", pass: true }] }]);
    expect(await storedText(later!.id)).toEqual({ input: "question later", output: "answer later" });
    expect(await viewer.production.generation({ promptId: prompt.id, id: later!.id })).toMatchObject({ input: "question later", output: "answer later" });
    expect((await pruneExpired(h.services.db, new Date())).generationTexts).toBe(0);
    await h.services.db.$executeRaw`DELETE FROM generations WHERE id = ${later!.id}::uuid`;
  });
});
