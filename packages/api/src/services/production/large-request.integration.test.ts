// A tracing request far larger than the SDKs' usual batches (several of a collector's batches of 8,192
// spans in one export, within the 5 MB a request may hold): merged whole, a shard at a time, its merge took
// a lock per generation and per trace, more than PostgreSQL's lock table holds ("out of shared memory"),
// failed every time (failing the server's other transactions with it) and was set aside, its generations
// never shown. It is now appended as rows of a few hundred, merged in order like any others.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import type { KeyCaller } from "../access/visibility.ts";
import { renderMetrics } from "../platform/metrics.ts";
import { acceptProduction, ingestSettled, type GenerationPatch, type ScoreDraft } from "./ingest.ts";

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

/** What /metrics counts of OpenTelemetry's signals so far under `result`. */
const ingested = async (result: string) => {
  const metrics = await renderMetrics({ db: h.services.db });
  return Number(new RegExp(`^promptly_production_ingested_total\\{source="otel",result="${result}"\\} (\\d+)$`, "m").exec(metrics)?.[1] ?? 0);
};

it("a request of 24,000 spans, each of its own trace, with scores of some of them: every generation and score merged, the dropped spans counted once", async () => {
  const SPANS = 24_000;
  const spans = Array.from({ length: SPANS }, (_, index): GenerationPatch => ({
    observationId: `large-${index}`, traceId: `trace-${index}`, source: "otel", promptName: prompt.name, version: 1, model: "gpt-4o-mini",
    startedAt: new Date(Date.now() - 1_000), endedAt: new Date(), inputTokens: 10, outputTokens: 5, seenAt: new Date(),
  }));
  // A span sent twice in the request (its update): merged into one generation, in the order sent.
  spans.push({ ...spans[7]!, outputTokens: 6, seenAt: new Date() });
  const scores = Array.from({ length: 600 }, (_, index): ScoreDraft => ({
    observationId: `large-${index * 20}`, name: "helpful", dataType: "numeric", value: 1, stringValue: null, source: "api",
  }));
  const dropped = await ingested("dropped");

  await acceptProduction(h.services.db, key, { generations: spans, scores }, { source: "otel", dropped: 7 });
  await ingestSettled(h.services.db);

  const [stored] = await h.services.db.$queryRaw<{ n: number; linked: number; tokens: number }[]>`
    SELECT count(*)::int AS n, count(prompt_id)::int AS linked, sum(output_tokens)::int AS tokens FROM generations WHERE team_id = ${team.id}::uuid`;
  expect(stored).toEqual({ n: SPANS, linked: SPANS, tokens: SPANS * 5 + 1 });
  const [scored] = await h.services.db.$queryRaw<{ n: number; linked: number }[]>`
    SELECT count(*)::int AS n, count(generation_id)::int AS linked FROM scores WHERE team_id = ${team.id}::uuid`;
  expect(scored).toEqual({ n: 600, linked: 600 });
  const [rollup] = await h.services.db.$queryRaw<{ generations: number }[]>`
    SELECT sum(generations)::int AS generations FROM generation_rollups WHERE prompt_id = ${prompt.id}::uuid`;
  expect(rollup!.generations).toBe(SPANS);
  expect(await h.services.db.$queryRaw`SELECT id FROM ingest_pending WHERE team_id = ${team.id}::uuid`).toEqual([]);
  expect((await ingested("dropped")) - dropped).toBe(7);
}, 120_000);
