// Online evaluation's retries of a judge that did not answer, on a clock the test sets (the worker's `now`), against
// real PostgreSQL, pg-boss and a local OpenAI-compatible server:
// - each call's cost counts on the UTC day it was spent: a claim retried after midnight leaves what it cost before on
//   the day before, neither taken from that day nor charged to the new one's cap (judged again, or let go);
// - a judge failing on every try is asked the job's tries and no more: the claim is given up, not judged (no score,
//   nothing False), and the sweep does not start it over within the generation's day.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenerationPatch } from "../production/ingest.ts";
import { ingestProduction } from "../production/ingest.ts";
import { keyCaller, type KeyCaller } from "../access/visibility.ts";
import { useEvaluationWorld } from "../../../testing/evaluations-support.ts";
import { createPrompt } from "../../../testing/prompts-support.ts";
import { getOnlineEvaluation, OnlineEvaluationWorker } from "./online.ts";
import type { EvaluationQueue } from "./queue.ts";

const fx = useEvaluationWorld();
let key: KeyCaller;
let worker: OnlineEvaluationWorker;

const HOUR = 3_600_000;
const ONLINE_QUEUE = "online-evaluations";
// Yesterday's UTC midnight: a day the harness's own sweeps (on the real clock) never reach.
const midnight = new Date(new Date().toISOString().slice(0, 10)).getTime() - 24 * HOUR;
const beforeMidnight = new Date(midnight - 60_000);
const afterMidnight = new Date(midnight + 60_000);
/** The clock of this file's worker: its sweeps and its jobs' runs. */
let clock = beforeMidnight;

const db = () => fx.h.services.db;
const queue = () => fx.h.services.evaluations as EvaluationQueue;

async function ingest(prompt: { name: string }, output: string) {
  const patch: GenerationPatch = {
    observationId: crypto.randomUUID(), source: "otel", promptName: prompt.name, version: 1, model: "gpt-4o-mini", environment: "production",
    startedAt: new Date(clock.getTime() - 1_000), endedAt: clock, input: "Greet Ada", output, seenAt: new Date(),
  };
  await ingestProduction(db(), key, fx.team.id, { generations: [patch], scores: [] });
  return (await db().$queryRaw<{ id: string }[]>`SELECT id::text FROM generations WHERE observation_id = ${patch.observationId}`)[0]!.id;
}

const scoresOf = async (generationId: string) =>
  (await db().$queryRaw<{ name: string; value: number }[]>`SELECT name, value FROM scores WHERE generation_id = ${generationId}::uuid ORDER BY name`).map((score) => [score.name, score.value]);

/** The generation's latest job: its state, how many times it was retried, and its failure's message. */
const jobOf = async (generationId: string) =>
  (await db().$queryRaw<{ state: string; retries: number; message: string | null }[]>`
    SELECT state::text, retry_count AS retries, output->>'message' AS message FROM pgboss.job
     WHERE name = ${ONLINE_QUEUE} AND data->>'generationId' = ${generationId} ORDER BY created_on DESC LIMIT 1`)[0];

const claimOf = async (generationId: string) =>
  (await db().$queryRaw<{ status: string; cost: number }[]>`SELECT status, cost FROM online_evaluation_runs WHERE generation_id = ${generationId}::uuid`)[0]!;

/** The job of `generationId` failed `retries` times before and waits for its retry, held back until `retryNow`. */
async function failedForRetry(generationId: string, retries = 0) {
  await expect.poll(async () => jobOf(generationId).then((job) => job && `${job.state} after ${job.retries} retries`), { timeout: 15_000, interval: 50 }).toBe(`retry after ${retries} retries`);
  await db().$executeRaw`UPDATE pgboss.job SET start_after = now() + interval '1 hour' WHERE name = ${ONLINE_QUEUE} AND state = 'retry' AND data->>'generationId' = ${generationId}`;
}

const retryNow = (generationId: string) =>
  db().$executeRaw`UPDATE pgboss.job SET start_after = now() WHERE name = ${ONLINE_QUEUE} AND state = 'retry' AND data->>'generationId' = ${generationId}`;

const spentOn = async (promptId: string, day: Date) => (await getOnlineEvaluation(db(), promptId, day)).spentTodayUsd;

const greets = { name: "greets", assertion: { type: "contains" as const, value: "Ada" } };
const polite = () => ({ name: "polite", assertion: { type: "judge" as const, value: "The answer greets the user by name.", connectionId: fx.connection.id, model: "gpt-4o-mini" } });

beforeAll(async () => {
  const { admin, orgAdmin } = fx.world.callers;
  // This file's worker alone runs the online jobs, on its clock.
  await queue().online!.stop();
  worker = new OnlineEvaluationWorker(queue().boss, db(), fx.h.services.config, { sweepMs: HOUR, expireInSeconds: queue().jobExpirySeconds, now: () => clock });
  await worker.start();
  await admin.teams.setGenerationText({ id: fx.team.id, keep: true });
  const created = await admin.apiKeys.create({ teamId: fx.team.id, name: "Tracing", scopes: ["ingest"] });
  key = keyCaller({ id: created.id, teamId: fx.team.id, labels: null, scopes: ["ingest"] });
  await orgAdmin.providers.setPrice({ organizationId: fx.world.organization.id, model: "gpt-4o-mini", inputPerMillion: 1000, outputPerMillion: 1000 });
});
afterAll(() => worker?.stop());

/** A generation of a new prompt judged by `polite` (and checked by `greets`), whose judge failed once before midnight: its claim and that try's cost. */
async function failedBeforeMidnight() {
  const { admin } = fx.world.callers;
  clock = beforeMidnight;
  const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
  await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 100, assertions: [greets, polite()] });
  fx.provider.failWith = 500;
  try {
    const id = await ingest(prompt, "Hello, Ada!");
    expect(await worker.sweep()).toBe(1);
    await failedForRetry(id);
    const { cost } = await claimOf(id);
    expect(cost).toBeGreaterThan(0);
    expect(await spentOn(prompt.id, beforeMidnight)).toBe(cost);
    return { prompt, id, cost };
  } finally {
    fx.provider.failWith = null;
  }
}

describe("online evaluation's retries", () => {
  it("counts a retried claim's earlier cost on the day it was spent: judged again after midnight, the new day's cap counts only the new call", async () => {
    const { admin } = fx.world.callers;
    const { prompt, id, cost: failedCost } = await failedBeforeMidnight();
    // The new day's cap is the failed call's worst case: counting it on the new day would leave no judging that day.
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: failedCost, assertions: [greets, polite()] });
    clock = afterMidnight;
    fx.provider.answer.text = '{"pass": true, "reason": "It greets Ada by name."}';
    try {
      await retryNow(id);
      await expect.poll(async () => (await jobOf(id))?.state, { timeout: 15_000, interval: 50 }).toBe("completed");
      const judged = await claimOf(id);
      expect(judged.status).toBe("done");
      expect(await scoresOf(id)).toEqual([["greets", 1], ["polite", 1]]);
      // The failed call stays the day before's; the new day spent the answered call alone (its real cost, under the worst case).
      expect(await spentOn(prompt.id, beforeMidnight)).toBe(failedCost);
      expect(judged.cost).toBeLessThan(failedCost);
      expect(await spentOn(prompt.id, afterMidnight)).toBe(judged.cost);
      expect(await getOnlineEvaluation(db(), prompt.id, afterMidnight)).toMatchObject({ evaluatedToday: 1 });

      // So the new day, under its cap, judges its own generations.
      const next = await ingest(prompt, "Hello, Ada!");
      expect(await worker.sweep()).toBe(1);
      await expect.poll(async () => (await claimOf(next)).status, { timeout: 15_000, interval: 50 }).toBe("done");
      expect(await scoresOf(next)).toEqual([["greets", 1], ["polite", 1]]);
    } finally {
      fx.provider.answer.text = null;
    }
  });

  it("keeps a retried claim's earlier cost on the day it was spent when it is let go after midnight, judged no more", async () => {
    const { admin } = fx.world.callers;
    const { prompt, id, cost: failedCost } = await failedBeforeMidnight();
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: false, samplePercent: 100, dailyCapUsd: 100, assertions: [greets, polite()] });
    clock = afterMidnight;
    await retryNow(id);
    await expect.poll(async () => (await jobOf(id))?.state, { timeout: 15_000, interval: 50 }).toBe("completed");
    expect(await claimOf(id)).toMatchObject({ status: "skipped" });
    expect(await spentOn(prompt.id, beforeMidnight)).toBe(failedCost);
    expect(await spentOn(prompt.id, afterMidnight)).toBe(0);
  });

  it("asks a judge that keeps failing the job's tries and no more: the claim given up, not judged, its reason told, and not queued again by the sweep", { timeout: 90_000 }, async () => {
    const { admin } = fx.world.callers;
    clock = afterMidnight;
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 100, assertions: [greets, polite()] });
    const calls = fx.provider.calls.length;
    fx.provider.failWith = 500;
    try {
      const id = await ingest(prompt, "Hello, Ada!");
      expect(await worker.sweep()).toBe(1);
      // pg-boss's five retries, each let go at once (it would wait 5 s and more).
      for (let retries = 0; retries < 5; retries += 1) {
        await failedForRetry(id, retries);
        await retryNow(id);
      }
      await expect.poll(async () => (await jobOf(id))?.state, { timeout: 15_000, interval: 50 }).toBe("failed");
      expect(fx.provider.calls.length).toBe(calls + 6);
      // Given up: the programmatic verdict written, the judge's never given (no False), the failure telling why; its calls' cost counted.
      const givenUp = await claimOf(id);
      expect(givenUp.status).toBe("skipped");
      expect((await jobOf(id))?.message).toMatch(/^The judge of "polite" \(The judge could not answer.+\) did not answer on generation .+: not judged, its tries spent$/);
      expect(givenUp.cost).toBeGreaterThan(0);
      expect(await scoresOf(id)).toEqual([["greets", 1]]);
      expect(await getOnlineEvaluation(db(), prompt.id, clock)).toMatchObject({ evaluatedToday: 0, spentTodayUsd: givenUp.cost });

      // Hours later, the generation still within the sweep's day: not started over.
      clock = new Date(afterMidnight.getTime() + 2 * HOUR);
      await db().$executeRaw`UPDATE online_evaluation_runs SET created_at = ${afterMidnight} WHERE generation_id = ${id}::uuid`;
      expect(await worker.sweep()).toBe(0);
      expect(await claimOf(id)).toEqual(givenUp);
      expect(fx.provider.calls.length).toBe(calls + 6);
    } finally {
      fx.provider.failWith = null;
    }
  });
});
