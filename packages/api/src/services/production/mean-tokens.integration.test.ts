// The mean tokens per generation is over the generations that reported their usage (input or output
// tokens said), as the mean cost is over those whose cost is known: one that reported none did not use
// 0 tokens. Kept by the merge's deltas in the hourly rollups, and by their trigger in the daily ones.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import type { KeyCaller } from "../access/visibility.ts";
import { ingestProduction, type GenerationPatch } from "./ingest.ts";
import { productionMetrics } from "./metrics.ts";

const DAY = 24 * 60 * 60_000;

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };
let key: KeyCaller;

const db = () => h.database.db;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
  key = await world.ingestKey(team.id);
});
afterAll(() => h.close());

describe("the mean tokens per generation", () => {
  it("leaves out the generations that reported no usage, over hours and whole days alike", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const now = new Date();
    // Three days back: a week's span reads its day from the daily rollups, a span of hours around it the hourly ones.
    const startedAt = new Date(Math.floor((now.getTime() - 3 * DAY) / DAY) * DAY + 12 * 3_600_000);
    const event = (observationId: string, fields: Partial<GenerationPatch> = {}): GenerationPatch => ({
      observationId, source: "otel", promptName: prompt.name, version: 1, startedAt, seenAt: now, ...fields,
    });
    const send = (generations: GenerationPatch[]) => ingestProduction(db(), key, team.id, { generations, scores: [] });
    const meanTokens = async (from: Date, to: Date) => {
      const metrics = await productionMetrics(db(), prompt.id, { from, to }, now);
      return metrics.versions.find((figures) => figures.version === 1)?.meanTokens;
    };
    const hours = () => meanTokens(new Date(startedAt.getTime() - 3_600_000), new Date(startedAt.getTime() + 3_600_000));
    const week = () => meanTokens(new Date(now.getTime() - 7 * DAY), now);

    await send([event("with-usage", { inputTokens: 60, outputTokens: 40 }), event("without-usage")]);
    expect(await hours()).toBe(100);
    expect(await week()).toBe(100);

    // Its usage reported by a later event: counted from then on.
    await send([event("without-usage", { outputTokens: 50 })]);
    expect(await hours()).toBe(75);
    expect(await week()).toBe(75);
  });

  it("reads a row summed before token_count was kept (null) as all its generations, and goes on from there", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const now = new Date();
    const startedAt = new Date(Math.floor((now.getTime() - 3 * DAY) / DAY) * DAY + 12 * 3_600_000);
    const hour = new Date(Math.floor(startedAt.getTime() / 3_600_000) * 3_600_000);
    // Two generations of 100 tokens each, summed by an older version of the merge: no token_count (its daily row by the trigger).
    await db().$executeRaw`
      INSERT INTO generation_rollups (prompt_id, version, environment, model, hour, generations, input_tokens, output_tokens)
      VALUES (${prompt.id}::uuid, 1, 'default', '', ${hour}, 2, 120, 80)`;
    const meanTokens = async (from: Date, to: Date) =>
      (await productionMetrics(db(), prompt.id, { from, to }, now)).versions.find((figures) => figures.version === 1)?.meanTokens;
    const hours = () => meanTokens(new Date(hour.getTime() - 3_600_000), new Date(hour.getTime() + 2 * 3_600_000));
    const week = () => meanTokens(new Date(now.getTime() - 7 * DAY), now);
    expect(await hours()).toBe(100);
    expect(await week()).toBe(100);
    // A generation of 40 tokens and one with none merged into that hour: 240 tokens over the 3 that reported usage.
    await ingestProduction(db(), key, team.id, {
      generations: [
        { observationId: "legacy-usage", source: "otel", promptName: prompt.name, version: 1, model: "", startedAt, seenAt: now, inputTokens: 30, outputTokens: 10 },
        { observationId: "legacy-none", source: "otel", promptName: prompt.name, version: 1, model: "", startedAt, seenAt: now },
      ],
      scores: [],
    });
    expect(await hours()).toBe(80);
    expect(await week()).toBe(80);
    // Into the same rows, each starting from its generations.
    expect(await db().$queryRaw`SELECT generations, token_count AS "tokenCount" FROM generation_rollups WHERE prompt_id = ${prompt.id}::uuid`).toEqual([{ generations: 4, tokenCount: 3 }]);
    expect(await db().$queryRaw`SELECT generations, token_count AS "tokenCount" FROM generation_rollups_daily WHERE prompt_id = ${prompt.id}::uuid`).toEqual([{ generations: 4, tokenCount: 3 }]);
  });

  it("is none when no generation reported usage", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const now = new Date();
    await ingestProduction(db(), key, team.id, {
      generations: [{ observationId: "no-usage", source: "otel", promptName: prompt.name, version: 1, startedAt: new Date(now.getTime() - 60_000), seenAt: now }],
      scores: [],
    });
    const metrics = await productionMetrics(db(), prompt.id, {}, now);
    expect(metrics.versions).toMatchObject([{ version: 1, generations: 1, meanTokens: null }]);
  });
});
