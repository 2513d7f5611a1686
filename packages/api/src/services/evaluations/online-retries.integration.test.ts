// Online evaluation's claims tried again, driven by the worker's clock (against real PostgreSQL, pg-boss and a local
// OpenAI-compatible server): a claim whose judge did not answer before UTC midnight keeps what it spent on that day
// when retried after it, its retry let in by that day's cap (it moved to the new day, taking the cost off the day
// that let it in); a claim put back to queued counts from then, so the sweep does not queue a second job beside
// its pending retry, though it still does once the claim is stuck past the sweep's age; a claim moved to judging
// counts from then too, so the sweep leaves one that waited an hour queued while its judge answers; and a claim whose
// run failed before moving it (a database error in its reservation) counts from that run, its retry its only job.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestProduction } from "../production/ingest.ts";
import { keyCaller, type KeyCaller } from "../access/visibility.ts";
import { useEvaluationWorld } from "../../../testing/evaluations-support.ts";
import { createPrompt } from "../../../testing/prompts-support.ts";
import { getOnlineEvaluation, OnlineEvaluationWorker } from "./online.ts";
import type { EvaluationQueue } from "./queue.ts";

const fx = useEvaluationWorld();
let key: KeyCaller;
const MINUTE = 60_000;
const ONLINE_QUEUE = "online-evaluations";

const db = () => fx.h.services.db;
const queue = () => fx.h.services.evaluations as EvaluationQueue;

/** The clock of `worker`, the only one working the queue (the harness's, on the real clock, is stopped for this file). */
let clock = new Date();
let worker: OnlineEvaluationWorker;

async function ingest(prompt: { name: string }, startedAt: Date) {
  const observationId = crypto.randomUUID();
  await ingestProduction(db(), key, fx.team.id, {
    generations: [{
      observationId, source: "otel", promptName: prompt.name, version: 1, model: "gpt-4o-mini", environment: "production",
      startedAt, endedAt: new Date(startedAt.getTime() + 500), input: "Greet Ada", output: "Hello, Ada!", seenAt: new Date(),
    }],
    scores: [],
  });
  return (await db().$queryRaw<{ id: string }[]>`SELECT id::text FROM generations WHERE observation_id = ${observationId}`)[0]!.id;
}

const jobState = async (generationId: string) =>
  (await db().$queryRaw<{ state: string }[]>`SELECT state::text FROM pgboss.job WHERE name = ${ONLINE_QUEUE} AND data->>'generationId' = ${generationId} ORDER BY created_on DESC LIMIT 1`)[0]?.state;

const jobCount = async (generationId: string) =>
  (await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${ONLINE_QUEUE} AND data->>'generationId' = ${generationId}`)[0]!.n;

const claimOf = async (generationId: string) =>
  (await db().$queryRaw<{ status: string; cost: number; reserved: number; day: string }[]>`
    SELECT status, cost, reserved, day::text FROM online_evaluation_runs WHERE generation_id = ${generationId}::uuid`)[0]!;

/** The job of `generationId` failed and waiting for its retry, held back (pg-boss waits 5 s and more) until `retryNow`. */
async function failedForRetry(generationId: string) {
  await expect.poll(() => jobState(generationId), { timeout: 15_000, interval: 50 }).toBe("retry");
  await db().$executeRaw`UPDATE pgboss.job SET start_after = now() + interval '1 hour' WHERE name = ${ONLINE_QUEUE} AND state = 'retry' AND data->>'generationId' = ${generationId}`;
}

async function retryNow(generationId: string) {
  await db().$executeRaw`UPDATE pgboss.job SET start_after = now() WHERE name = ${ONLINE_QUEUE} AND state = 'retry' AND data->>'generationId' = ${generationId}`;
  await expect.poll(() => jobState(generationId), { timeout: 15_000, interval: 50 }).toBe("completed");
}

const greets = { name: "greets", assertion: { type: "contains" as const, value: "Ada" } };
const polite = () => ({ name: "polite", assertion: { type: "judge" as const, value: "The answer greets the user by name.", connectionId: fx.connection.id, model: "gpt-4o-mini" } });
const spentOn = async (promptId: string, day: Date) => (await getOnlineEvaluation(db(), promptId, day)).spentTodayUsd;

/**
 * A generation of a new prompt evaluated online (a check and a judge), claimed by a sweep three hours ago:
 * its claim queued since, its job not run yet (each test says what happens when it runs, 59 minutes late).
 */
async function claimedLate() {
  const { admin } = fx.world.callers;
  const claimedAt = new Date(Date.now() - 3 * 60 * MINUTE);
  const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
  await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 100, assertions: [greets, polite()] });
  const id = await ingest(prompt, new Date(claimedAt.getTime() - MINUTE));
  await db().$executeRaw`INSERT INTO online_evaluation_runs (generation_id, prompt_id, day, created_at) VALUES (${id}::uuid, ${prompt.id}::uuid, ${claimedAt.toISOString().slice(0, 10)}::date, ${claimedAt.toISOString()}::timestamptz)`;
  return { prompt, id, claimedAt };
}

beforeAll(async () => {
  const { admin, orgAdmin } = fx.world.callers;
  await admin.teams.setGenerationText({ id: fx.team.id, keep: true });
  const created = await admin.apiKeys.create({ teamId: fx.team.id, name: "Tracing", scopes: ["ingest"] });
  key = keyCaller({ id: created.id, teamId: fx.team.id, labels: null, scopes: ["ingest"] });
  await orgAdmin.providers.setPrice({ organizationId: fx.world.organization.id, model: "gpt-4o-mini", inputPerMillion: 1000, outputPerMillion: 1000 });
  await queue().online!.stop();
  worker = new OnlineEvaluationWorker(queue().boss, db(), fx.h.services.config, {
    sweepMs: 3_600_000, expireInSeconds: queue().jobExpirySeconds, now: () => clock,
  });
  await worker.start();
});
afterAll(() => worker?.stop());

describe("an online evaluation claim tried again", () => {
  it("keeps what it spent before UTC midnight on that day when retried after it, its retry let in by that day's cap", async () => {
    const { admin } = fx.world.callers;
    const midnight = new Date(new Date().toISOString().slice(0, 10));
    const before = new Date(midnight.getTime() - 10 * MINUTE);
    const after = new Date(midnight.getTime() + 10 * MINUTE);
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    const settings = { promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 100, assertions: [greets, polite()] };
    await admin.production.onlineEvaluation.set(settings);
    const [answered, capped] = [await ingest(prompt, new Date(before.getTime() - MINUTE)), await ingest(prompt, new Date(before.getTime() - MINUTE))];
    clock = before;
    fx.provider.failWith = 500;
    try {
      expect(await worker.sweep()).toBe(2);
      await failedForRetry(answered);
      await failedForRetry(capped);
    } finally {
      fx.provider.failWith = null;
    }
    const first = [await claimOf(answered), await claimOf(capped)];
    expect(first.map(({ status, day }) => ({ status, day }))).toEqual(Array(2).fill({ status: "queued", day: before.toISOString().slice(0, 10) }));
    expect(first.every((claim) => claim.cost > 0)).toBe(true);
    const spentBefore = first[0]!.cost + first[1]!.cost;

    // Retried after midnight, its judge answering: both its calls count on the day before, nothing on the new day.
    clock = after;
    fx.provider.answer.text = '{"pass": true, "reason": "It greets Ada by name."}';
    const calls = fx.provider.calls.length;
    try {
      await retryNow(answered);
      expect(fx.provider.calls.length).toBe(calls + 1);
      const done = await claimOf(answered);
      expect(done).toMatchObject({ status: "done", reserved: 0, day: before.toISOString().slice(0, 10) });
      expect(done.cost).toBeGreaterThan(first[0]!.cost);
      expect(await spentOn(prompt.id, before)).toBeCloseTo(spentBefore - first[0]!.cost + done.cost, 9);
      expect(await spentOn(prompt.id, after)).toBe(0);

      // The day before is over the cap now lowered: the other retry is capped by it (the day its cost counts on),
      // though the new day spent nothing, so gets its programmatic verdict alone, its cost still the day before's.
      await admin.production.onlineEvaluation.set({ ...settings, dailyCapUsd: 0.01 });
      await retryNow(capped);
      expect(fx.provider.calls.length).toBe(calls + 1);
      expect(await claimOf(capped)).toEqual({ ...first[1], status: "done" });
      expect(await spentOn(prompt.id, after)).toBe(0);
    } finally {
      fx.provider.answer.text = null;
    }
  });

  it("counts a claim put back to queued from then: no second job beside its pending retry, but one once stuck past the sweep's age", async () => {
    const { id, claimedAt } = await claimedLate();
    // Claimed by a sweep, its job run 59 minutes later (a backlog), its judge not answering: put back, its retry pending.
    const putBack = new Date(claimedAt.getTime() + 59 * MINUTE);
    clock = putBack;
    fx.provider.failWith = 500;
    try {
      await queue().boss.send(ONLINE_QUEUE, { generationId: id });
      await failedForRetry(id);
    } finally {
      fx.provider.failWith = null;
    }
    expect(await claimOf(id)).toMatchObject({ status: "queued" });

    // Over an hour since it was claimed, minutes since it was put back: its retry is its job, none queued beside it.
    clock = new Date(claimedAt.getTime() + 61 * MINUTE);
    expect(await worker.sweep()).toBe(0);
    expect(await jobCount(id)).toBe(1);

    // Still queued an hour after it was put back (its retry lost): queued again.
    fx.provider.answer.text = '{"pass": true, "reason": "It greets Ada by name."}';
    try {
      clock = new Date(putBack.getTime() + 61 * MINUTE);
      expect(await worker.sweep()).toBe(1);
      expect(await jobCount(id)).toBe(2);
      await expect.poll(async () => (await claimOf(id)).status, { timeout: 15_000, interval: 50 }).toBe("done");
    } finally {
      fx.provider.answer.text = null;
    }
  });

  it("counts a claim moved to judging from then: the sweep leaves one that waited an hour queued while its judge answers", async () => {
    const { id, claimedAt } = await claimedLate();
    // Claimed by a sweep, its job run 59 minutes later (a backlog), its judge asked and holding its answer.
    clock = new Date(claimedAt.getTime() + 59 * MINUTE);
    let answer = () => {};
    fx.provider.answer.hold = new Promise<void>((resolve) => (answer = resolve));
    fx.provider.answer.text = '{"pass": true, "reason": "It greets Ada by name."}';
    const streams = fx.provider.openStreams;
    try {
      await queue().boss.send(ONLINE_QUEUE, { generationId: id });
      await expect.poll(() => fx.provider.openStreams, { timeout: 15_000, interval: 20 }).toBe(streams + 1);
      expect(await claimOf(id)).toMatchObject({ status: "judging", cost: 0 });

      // Over an hour since it was claimed, minutes since its judge was asked: not lost, nothing queued beside its job.
      clock = new Date(claimedAt.getTime() + 61 * MINUTE);
      expect(await worker.sweep()).toBe(0);
      expect(await jobCount(id)).toBe(1);
      expect(await claimOf(id)).toMatchObject({ status: "judging" });

      // The judge answers: its verdict and its cost are the claim's.
      answer();
      await expect.poll(() => jobState(id), { timeout: 15_000, interval: 50 }).toBe("completed");
    } finally {
      answer();
      fx.provider.answer.hold = null;
      fx.provider.answer.text = null;
    }
    const done = await db().$queryRaw<{ status: string; cost: number; reserved: number; verdicts: unknown }[]>`
      SELECT status, cost, reserved, verdicts FROM online_evaluation_runs WHERE generation_id = ${id}::uuid`;
    expect(done[0]).toMatchObject({ status: "done", reserved: 0 });
    expect(done[0]!.cost).toBeGreaterThan(0);
    expect(done[0]!.verdicts).toEqual(expect.arrayContaining([
      { name: "greets", pass: true },
      { name: "polite", pass: true, reason: "It greets Ada by name." },
    ]));
    expect(await jobCount(id)).toBe(1);
  });

  it("counts a claim from its run's start: one whose run failed before it moved (its job run late) gets no second job beside its retry", async () => {
    const { prompt, id, claimedAt } = await claimedLate();
    // Claimed by a sweep, its job run 59 minutes later (a backlog), its reservation failing on a database error: the
    // prompt's settings row held by a transaction (as a change of them holds it), the run's statement waiting on it canceled.
    clock = new Date(claimedAt.getTime() + 59 * MINUTE);
    // Its worker working (from its first sweep on); the claim, 59 minutes old, is not taken as lost yet.
    await worker.sweep();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = (_pid: number) => {};
    const holder = new Promise<number>((resolve) => (holding = resolve));
    const held = db().$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid FROM online_evaluations WHERE prompt_id = ${prompt.id}::uuid FOR UPDATE`;
      holding(row!.pid);
      await released;
    }, { timeout: 60_000 });
    try {
      const pid = await holder;
      await queue().boss.send(ONLINE_QUEUE, { generationId: id });
      await expect.poll(async () => (await db().$queryRaw<{ n: number }[]>`
        SELECT count(*) FILTER (WHERE pg_cancel_backend(pid))::int AS n FROM pg_stat_activity
         WHERE ${pid}::int = ANY(pg_blocking_pids(pid)) AND wait_event_type = 'Lock' AND query LIKE '%daily_cap_usd%'`)[0]!.n, { timeout: 15_000, interval: 20 }).toBe(1);
      await failedForRetry(id);
    } finally {
      release();
      await held;
    }
    expect(await claimOf(id)).toMatchObject({ status: "queued", cost: 0, reserved: 0 });

    // Over an hour since it was claimed, minutes since its run: its retry is its job, none queued beside it.
    clock = new Date(claimedAt.getTime() + 61 * MINUTE);
    expect(await worker.sweep()).toBe(0);
    expect(await jobCount(id)).toBe(1);

    // The retry judges it, once.
    fx.provider.answer.text = '{"pass": true, "reason": "It greets Ada by name."}';
    const calls = fx.provider.calls.length;
    try {
      await retryNow(id);
    } finally {
      fx.provider.answer.text = null;
    }
    expect(fx.provider.calls.length).toBe(calls + 1);
    const done = await claimOf(id);
    expect(done).toMatchObject({ status: "done", reserved: 0 });
    expect(done.cost).toBeGreaterThan(0);
    const scores = await db().$queryRaw<{ name: string; value: number }[]>`SELECT name, value FROM scores WHERE generation_id = ${id}::uuid ORDER BY name`;
    expect(scores).toEqual([{ name: "greets", value: 1 }, { name: "polite", value: 1 }]);
    expect(await jobCount(id)).toBe(1);
  });
});
