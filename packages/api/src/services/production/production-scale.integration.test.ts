// Production figures at scale, through real ingestion: the rollups keep each version's count and sum of
// squares of costs, so two versions are compared on cost per generation with Welch's interval (the
// generations without a cost left out); a span of whole days read from the daily rollups (and its ends
// from the hourly ones) answers exactly what the hourly rollups alone answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareMeans, summarize } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import { commandLineCaller } from "../access/visibility.ts";
import { ingestProduction, type GenerationPatch } from "./ingest.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };
let prompt: { id: string; name: string };

const HOUR = 3_600_000;
/** Days well before the harness's clock: 1 October 2026 (UTC) and on. */
const START = Date.UTC(2026, 9, 1);
const at = (hours: number) => new Date(START + hours * HOUR);

let serial = 0;
const generation = (version: number, hours: number, cost: number | undefined, model = "gpt-4o-mini"): GenerationPatch => ({
  observationId: `scale-${++serial}`, source: "api", promptName: prompt.name, version, model, environment: "production",
  startedAt: at(hours), endedAt: new Date(at(hours).getTime() + 400 + serial), status: "ok", seenAt: at(hours), ...(cost === undefined ? {} : { cost }),
});

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
  prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
  await world.callers.editor.promptVersions.create({ promptId: prompt.id, type: "text", template: "Answer {{ question }} briefly." });
  await h.services.db.$queryRaw`SELECT production_ensure_generation_partition(${at(0)}::timestamptz)::text`;
});
afterAll(() => h.close());

describe("cost per generation", () => {
  it("is compared with Welch's interval from the rollups' count, sum and sum of squares, over the generations with a cost", async () => {
    const costsA = [0.001, 0.002, 0.003, 0.004, 0.005, 0.006];
    const costsB = [0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009];
    const sent = [
      ...costsA.map((cost, i) => generation(1, 2 + i, cost)),
      ...costsB.map((cost, i) => generation(2, 2 + i, cost)),
      // No cost said and no price known for the model: counted as generations, not in the mean cost.
      generation(1, 3, undefined, "a-model-without-a-price"),
    ];
    // Two requests written together or apart: the same rows and rollups.
    await Promise.all([
      ingestProduction(h.services.db, commandLineCaller(), team.id, { generations: sent.slice(0, 7), scores: [] }),
      ingestProduction(h.services.db, commandLineCaller(), team.id, { generations: sent.slice(7), scores: [] }),
    ]);
    const [stored] = await h.services.db.$queryRaw<{ n: number; squares: number }[]>`
      SELECT sum(cost_count)::int AS n, sum(cost_sum_squares)::float8 AS squares FROM generation_rollups WHERE prompt_id = ${prompt.id}::uuid AND version = 1`;
    expect(stored!.n).toBe(6);
    expect(stored!.squares).toBeCloseTo(costsA.reduce((sum, cost) => sum + cost * cost, 0), 12);

    const comparison = await world.callers.viewer.production.compare({ promptId: prompt.id, from: at(0), to: at(24), a: 1, b: 2 });
    const cost = comparison.metrics.find((metric) => metric.metric === "cost per generation")!;
    const sample = (costs: number[]) => summarize({ count: costs.length, sum: costs.reduce((s, c) => s + c, 0), sumSquares: costs.reduce((s, c) => s + c * c, 0) });
    const expected = compareMeans(sample(costsA), sample(costsB));
    expect(cost).toMatchObject({ kind: "mean", lowerIsBetter: true, unit: "USD", a: { n: 6 }, b: { n: 7 }, significant: expected.significant });
    expect(cost.a.value).toBeCloseTo(0.0035, 12);
    expect(cost.b.value).toBeCloseTo(0.006, 12);
    expect(cost.difference).toBeCloseTo(expected.difference, 12);
    expect(cost.lower).toBeCloseTo(expected.lower, 12);
    expect(cost.upper).toBeCloseTo(expected.upper, 12);
    // Six and seven are too few for a verdict at the comparison's minimum per version, but the interval is there.
    expect(cost.verdict).toMatch(/^not enough data yet/);
  });
});

describe("a span of whole days", () => {
  it("reads the days from the daily rollups and the hours at its ends from the hourly ones, answering what the hours alone answer", async () => {
    // Generations over four days, at hours before, inside and after the span's whole days.
    const hours = [27, 29.5, 30, 47, 48, 60, 71.9, 72, 80, 95, 96.5, 100, 101];
    await ingestProduction(h.services.db, commandLineCaller(), team.id, {
      generations: hours.map((hour, i) => generation(1 + (i % 2), hour, 0.001 * (i + 1), i % 3 ? "gpt-4o-mini" : "gpt-4o")), scores: [],
    });
    // From 29:30 (the hour from 29:00 counts) to 100:00: the days 48-72 and 72-96 whole, the rest hours.
    const span = { promptId: prompt.id, from: new Date(at(29).getTime() + 30 * 60_000), to: at(100) };
    const byDay = await world.callers.viewer.production.metrics({ ...span, bucket: "day" });
    const byHour = await world.callers.viewer.production.metrics({ ...span, bucket: "hour" });
    const inSpan = hours.filter((hour) => hour >= 29 && hour < 100);
    // Counts and histograms are the same integers; sums of costs the same up to the order they were added in.
    const totals = (metrics: typeof byDay) => metrics.versions.map(({ version, generations, latencyP50Ms, latencyP95Ms }) => ({ version, generations, latencyP50Ms, latencyP95Ms }));
    expect(totals(byDay)).toEqual(totals(byHour));
    byDay.versions.forEach((version, i) => expect(version.cost).toBeCloseTo(byHour.versions[i]!.cost, 12));
    expect(byDay.versions.reduce((sum, version) => sum + version.generations, 0)).toBe(inSpan.length);
    expect(byDay.models).toEqual(["gpt-4o", "gpt-4o-mini"]);
    // Each day's point sums that day's hours.
    for (const series of byDay.series) {
      for (const point of series.points) {
        const day = new Date(point.at).getTime();
        const hourly = byHour.series.find((s) => s.version === series.version)!.points.filter((p) => new Date(p.at).getTime() >= day && new Date(p.at).getTime() < day + 24 * HOUR);
        expect(point.generations).toBe(hourly.reduce((sum, p) => sum + p.generations, 0));
      }
    }
    // And a comparison over the span (no buckets) counts the same generations.
    const comparison = await world.callers.viewer.production.compare({ promptId: prompt.id, from: span.from, to: span.to, a: 1, b: 2 });
    const errorRate = comparison.metrics.find((metric) => metric.metric === "error rate")!;
    expect(errorRate.a.n + errorRate.b.n).toBe(inSpan.length);
  });
});
