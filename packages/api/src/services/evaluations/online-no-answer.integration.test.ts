// Online evaluation when a judge does not answer (the provider failing or limiting, its connection unusable), against
// real PostgreSQL, pg-boss and a local OpenAI-compatible server: no verdict, so no score (never a False the Production
// figures would count); the answered verdicts are written, the job fails and its retry asks the judge again, writing
// its verdict once (an answered "fail" a False score like any other); each call sent counts against the day's cap;
// a claim whose judge never answers is let go with nothing false written.
import { describe, expect, it, beforeAll } from "vitest";
import type { GenerationPatch } from "../production/ingest.ts";
import { ingestProduction } from "../production/ingest.ts";
import { keyCaller, type KeyCaller } from "../access/visibility.ts";
import { useEvaluationWorld } from "../../../testing/evaluations-support.ts";
import { createPrompt } from "../../../testing/prompts-support.ts";
import { sealSecret } from "../platform/secret-box.ts";
import type { EvaluationQueue } from "./queue.ts";
import { judgeUsageBound } from "./judge.ts";

const fx = useEvaluationWorld();
let key: KeyCaller;

const db = () => fx.h.services.db;
const queue = () => fx.h.services.evaluations as EvaluationQueue;
const online = () => queue().online!;
const ONLINE_QUEUE = "online-evaluations";

async function ingest(prompt: { name: string }, output: string) {
  const now = new Date();
  const patch: GenerationPatch = {
    observationId: crypto.randomUUID(), source: "otel", promptName: prompt.name, version: 1, model: "gpt-4o-mini", environment: "production",
    startedAt: new Date(now.getTime() - 500), endedAt: now, input: "Greet Ada", output, seenAt: now,
  };
  await ingestProduction(db(), key, fx.team.id, { generations: [patch], scores: [] });
  return (await db().$queryRaw<{ id: string }[]>`SELECT id::text FROM generations WHERE observation_id = ${patch.observationId}`)[0]!.id;
}

const scoresOf = (generationId: string) =>
  db().$queryRaw<{ name: string; value: number; comment: string | null }[]>`
    SELECT name, value, comment FROM scores WHERE generation_id = ${generationId}::uuid ORDER BY name`;

const jobState = async (generationId: string) =>
  (await db().$queryRaw<{ state: string }[]>`SELECT state::text FROM pgboss.job WHERE name = ${ONLINE_QUEUE} AND data->>'generationId' = ${generationId} ORDER BY created_on DESC LIMIT 1`)[0]?.state;

const claimOf = async (generationId: string) =>
  (await db().$queryRaw<{ status: string; cost: number; reserved: number }[]>`SELECT status, cost, reserved FROM online_evaluation_runs WHERE generation_id = ${generationId}::uuid`)[0]!;

/** The job of `generationId` failed and waiting for its retry, held back (pg-boss waits 5 s and more) until `retryNow`. */
async function failedForRetry(generationId: string) {
  await expect.poll(() => jobState(generationId), { timeout: 15_000, interval: 50 }).toBe("retry");
  await db().$executeRaw`UPDATE pgboss.job SET start_after = now() + interval '1 hour' WHERE name = ${ONLINE_QUEUE} AND state = 'retry' AND data->>'generationId' = ${generationId}`;
}

const retryNow = (generationId: string) =>
  db().$executeRaw`UPDATE pgboss.job SET start_after = now() WHERE name = ${ONLINE_QUEUE} AND state = 'retry' AND data->>'generationId' = ${generationId}`;

/** The prompt's Production figures of version 1: each score series' count and share passed. */
async function figures(promptId: string) {
  const metrics = await fx.world.callers.viewer.production.metrics({ promptId, from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 3_600_000) });
  const version = metrics.versions.find((row) => row.version === 1)!;
  return Object.fromEntries(version.scores.map((score) => [score.name, { count: score.count, share: score.share }]));
}

const greets = { name: "greets", assertion: { type: "contains" as const, value: "Ada" } };
const polite = (connectionId = fx.connection.id) => ({ name: "polite", assertion: { type: "judge" as const, value: "The answer greets the user by name.", connectionId, model: "gpt-4o-mini" } });

beforeAll(async () => {
  const { admin, orgAdmin } = fx.world.callers;
  await admin.teams.setGenerationText({ id: fx.team.id, keep: true });
  const created = await admin.apiKeys.create({ teamId: fx.team.id, name: "Tracing", scopes: ["ingest"] });
  key = keyCaller({ id: created.id, teamId: fx.team.id, labels: null, scopes: ["ingest"] });
  await orgAdmin.providers.setPrice({ organizationId: fx.world.organization.id, model: "gpt-4o-mini", inputPerMillion: 1000, outputPerMillion: 1000 });
});

describe("online evaluation whose judge does not answer", () => {
  it.each([500, 429])("scores nothing while the provider fails with %i, the job retried; once it answers, its verdict (an answered fail) is written once", async (status) => {
    const { admin } = fx.world.callers;
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 100, assertions: [greets, polite()] });
    const calls = fx.provider.calls.length;
    fx.provider.failWith = status;
    let id: string;
    try {
      id = await ingest(prompt, "Hello, Ada!");
      expect(await online().sweep()).toBe(1);
      await failedForRetry(id);
    } finally {
      fx.provider.failWith = null;
    }
    expect(fx.provider.calls.length).toBe(calls + 1);
    // The job's failure names the judge and why it gave nothing (what the operator reads; the worker tells it too).
    const [failure] = await db().$queryRaw<{ message: string }[]>`
      SELECT output->>'message' AS message FROM pgboss.job WHERE name = ${ONLINE_QUEUE} AND data->>'generationId' = ${id} ORDER BY created_on DESC LIMIT 1`;
    expect(failure!.message).toMatch(/^The judge of "polite" \(The judge could not answer.+\) did not answer on generation /);
    // The programmatic verdict written; the judge's, never given, not a False.
    expect((await scoresOf(id)).map((score) => [score.name, score.value])).toEqual([["greets", 1]]);
    expect(await figures(prompt.id)).toEqual({ greets: { count: 1, share: 1 } });
    // Not finished; the failed call, sent (the provider may have counted its tokens), counted at its worst case.
    const failed = await claimOf(id);
    expect(failed).toMatchObject({ status: "queued", reserved: 0 });
    expect(failed.cost).toBeGreaterThan(0);
    // Spent today already, though the generation is not evaluated yet.
    expect(await admin.production.onlineEvaluation.get({ promptId: prompt.id })).toMatchObject({ evaluatedToday: 0, spentTodayUsd: failed.cost });

    fx.provider.answer.text = '{"pass": false, "reason": "It does not greet the user by name."}';
    try {
      await retryNow(id);
      await expect.poll(() => jobState(id), { timeout: 15_000, interval: 50 }).toBe("completed");
    } finally {
      fx.provider.answer.text = null;
    }
    // The judge asked once more, its answered fail a False score; nothing written twice.
    expect(fx.provider.calls.length).toBe(calls + 2);
    expect(await scoresOf(id)).toEqual([
      { name: "greets", value: 1, comment: null },
      { name: "polite", value: 0, comment: "It does not greet the user by name." },
    ]);
    expect(await figures(prompt.id)).toEqual({ greets: { count: 1, share: 1 }, polite: { count: 1, share: 0 } });
    // Both calls counted: the failed one's worst case and the answered one's real cost.
    const done = await claimOf(id);
    expect(done).toMatchObject({ status: "done", reserved: 0 });
    expect(done.cost).toBeGreaterThan(failed.cost);
    expect(await admin.production.onlineEvaluation.get({ promptId: prompt.id })).toMatchObject({ evaluatedToday: 1, spentTodayUsd: done.cost });

    // A run of it again writes nothing twice.
    await db().$executeRaw`UPDATE online_evaluation_runs SET status = 'queued' WHERE generation_id = ${id}::uuid`;
    await queue().boss.send(ONLINE_QUEUE, { generationId: id });
    await expect.poll(async () => (await claimOf(id)).status, { timeout: 15_000, interval: 50 }).toBe("done");
    expect(await scoresOf(id)).toHaveLength(2);
    expect(fx.provider.calls.length).toBe(calls + 2);
  });

  it("scores nothing for a judge whose connection cannot be used (its key no longer opens), charging nothing for it; the other judge's verdict written and not asked again; the retry judges once it opens", async () => {
    const { admin, orgAdmin } = fx.world.callers;
    const connection = await orgAdmin.providers.create({
      organizationId: fx.world.organization.id, kind: "openai-compatible", name: "Resealed judge", baseUrl: fx.provider.openaiBaseUrl, apiKey: fx.provider.apiKey,
    });
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    const kind = { name: "kind", assertion: { ...polite().assertion, value: "The answer is kind." } };
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 10, assertions: [greets, polite(connection.id), kind] });
    const [{ sealed }] = await db().$queryRaw<[{ sealed: string }]>`SELECT api_key_sealed AS sealed FROM provider_connections WHERE id = ${connection.id}::uuid`;
    const foreign = sealSecret("another-app-secret-another-app-secret-0", "provider key v1", connection.id, Buffer.from(fx.provider.apiKey));
    await db().$executeRaw`UPDATE provider_connections SET api_key_sealed = ${foreign} WHERE id = ${connection.id}::uuid`;
    const calls = fx.provider.calls.length;
    fx.provider.answer.text = '{"pass": true, "reason": "It greets Ada by name."}';
    try {
      const id = await ingest(prompt, "Hello, Ada!");
      expect(await online().sweep()).toBe(1);
      await failedForRetry(id);
      // Only the judge on the working connection was asked (its verdict written); the other, refused before the provider, cost nothing.
      expect(fx.provider.calls.length).toBe(calls + 1);
      expect((await scoresOf(id)).map((score) => [score.name, score.value])).toEqual([["greets", 1], ["kind", 1]]);
      expect(await figures(prompt.id)).toEqual({ greets: { count: 1, share: 1 }, kind: { count: 1, share: 1 } });
      const first = await claimOf(id);
      expect(first).toMatchObject({ status: "queued", reserved: 0 });
      // The answered judgement's real cost alone: the refused one, never sent, is not charged its worst case.
      expect(first.cost).toBeGreaterThan(0);
      const refused = judgeUsageBound(polite(connection.id).assertion, { output: "Hello, Ada!", latencyMs: 0, cost: null, expected: null });
      expect(first.cost).toBeLessThan((refused.inputTokens + refused.outputTokens) * 1000 / 1_000_000);

      await db().$executeRaw`UPDATE provider_connections SET api_key_sealed = ${sealed} WHERE id = ${connection.id}::uuid`;
      await retryNow(id);
      await expect.poll(() => jobState(id), { timeout: 15_000, interval: 50 }).toBe("completed");
      // Only the judge without a verdict asked again.
      expect(fx.provider.calls.length).toBe(calls + 2);
      expect((await scoresOf(id)).map((score) => [score.name, score.value])).toEqual([["greets", 1], ["kind", 1], ["polite", 1]]);
      expect(await figures(prompt.id)).toEqual({ greets: { count: 1, share: 1 }, kind: { count: 1, share: 1 }, polite: { count: 1, share: 1 } });
      expect((await claimOf(id)).cost).toBeGreaterThan(first.cost);
    } finally {
      fx.provider.answer.text = null;
    }
  });

  it("lets a claim whose judge never answered go as skipped once its generation is too old to try again, nothing false written, its calls' cost counted", async () => {
    const { admin } = fx.world.callers;
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 100, assertions: [greets, polite()] });
    fx.provider.failWith = 500;
    let id: string;
    try {
      id = await ingest(prompt, "Hello, Ada!");
      expect(await online().sweep()).toBe(1);
      await failedForRetry(id);
      const { cost } = await claimOf(id);
      // Its retries spent (the job lost for the sweep) and its generation past the sweep's day: the sweep lets it go.
      await db().$executeRaw`UPDATE online_evaluation_runs SET created_at = now() - interval '2 hours' WHERE generation_id = ${id}::uuid`;
      await db().$executeRaw`UPDATE generations SET started_at = now() - interval '26 hours' WHERE id = ${id}::uuid`;
      await online().sweep();
      expect(await claimOf(id)).toEqual({ status: "skipped", cost, reserved: 0 });
      // The job's pending retry finds it let go and judges nothing.
      await retryNow(id);
      await expect.poll(() => jobState(id), { timeout: 15_000, interval: 50 }).toBe("completed");
    } finally {
      fx.provider.failWith = null;
    }
    expect((await scoresOf(id)).map((score) => [score.name, score.value])).toEqual([["greets", 1]]);
    const read = await admin.production.onlineEvaluation.get({ promptId: prompt.id });
    expect(read.evaluatedToday).toBe(0);
    expect(read.spentTodayUsd).toBeGreaterThan(0);
  });
});
