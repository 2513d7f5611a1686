// Online evaluation against real PostgreSQL and pg-boss: generations ingested with their output kept are
// sampled by the sweep, each assertion's verdict becomes a boolean score of source `eval` that the
// Production tab's figures count; 0% samples none; a judged assertion (through a local OpenAI-compatible
// server) stops for the day once the prompt's judging cost reaches its cap, jobs judging at once too (each
// reserves its worst case first); a sweep or job run again writes nothing twice and never judges a
// generation twice, a judgement paid before a failure counted once; only a team admin sets it.
import pg from "pg";
import { describe, expect, it, beforeAll } from "vitest";
import type { GenerationPatch } from "../production/ingest.ts";
import { ingestProduction } from "../production/ingest.ts";
import { keyCaller, type KeyCaller } from "../access/visibility.ts";
import { waitingAtGate } from "../../../testing/deadlock-support.ts";
import { useEvaluationWorld } from "../../../testing/evaluations-support.ts";
import { createPrompt, failure } from "../../../testing/prompts-support.ts";
import { sealSecret } from "../platform/secret-box.ts";
import type { EvaluationQueue } from "./queue.ts";
import { judgeUsageBound } from "./judge.ts";

const fx = useEvaluationWorld();
let key: KeyCaller;

const db = () => fx.h.services.db;
const queue = () => fx.h.services.evaluations as EvaluationQueue;
const online = () => queue().online!;

/** Ingests `count` finished generations of version 1 of `prompt` (through the same path as the SDKs), answering `output`, ended at `now`. */
async function ingest(prompt: { name: string }, count: number, output: string, now = new Date()) {
  const generations: GenerationPatch[] = Array.from({ length: count }, () => ({
    observationId: crypto.randomUUID(), source: "otel", promptName: prompt.name, version: 1, model: "gpt-4o-mini", environment: "production",
    startedAt: new Date(now.getTime() - 500), endedAt: now, input: "Greet Ada", output, seenAt: now,
  }));
  await ingestProduction(db(), key, fx.team.id, { generations, scores: [] });
  const ids = await db().$queryRaw<{ id: string }[]>`
    SELECT id::text FROM generations WHERE observation_id = ANY(${generations.map((patch) => patch.observationId)}::text[])`;
  return ids.map((row) => row.id);
}

/** Every claimed generation of `promptId` finished (its job done): evaluated, or let go with nothing to evaluate. */
async function settled(promptId: string) {
  await expect
    .poll(async () => (await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM online_evaluation_runs WHERE prompt_id = ${promptId}::uuid AND status NOT IN ('done', 'skipped')`)[0]!.n, { timeout: 15_000, interval: 50 })
    .toBe(0);
}

const scoresOf = (generationIds: string[]) =>
  db().$queryRaw<{ generation_id: string; name: string; value: number; source: string; comment: string | null }[]>`
    SELECT generation_id::text, name, value, source, comment FROM scores WHERE generation_id = ANY(${generationIds}::uuid[]) ORDER BY name`;

const ONLINE_QUEUE = "online-evaluations";

/** The state of the online evaluation job of a generation (pg-boss's: created, active, retry, completed...). */
const jobState = async (generationId: string) =>
  (await db().$queryRaw<{ state: string }[]>`SELECT state::text FROM pgboss.job WHERE name = ${ONLINE_QUEUE} AND data->>'generationId' = ${generationId} ORDER BY created_on DESC LIMIT 1`)[0]?.state;

/** The state of the online evaluation job of a generation and how many times a worker took it (pg-boss counts each take after the first). */
const jobAttempts = async (generationId: string) =>
  (await db().$queryRaw<{ state: string; attempts: number }[]>`
    SELECT state::text, retry_count + 1 AS attempts FROM pgboss.job WHERE name = ${ONLINE_QUEUE} AND data->>'generationId' = ${generationId} ORDER BY created_on DESC LIMIT 1`)[0];

/** The advisory lock (two keys: this one, 0) a test holds to keep a job waiting in a trigger until it lets it go. */
const JUDGING_GATE = 7_310_272;

/** How many statements of this test's database wait for the gate. */
const waitingHere = () => waitingAtGate(db(), JUDGING_GATE);

const greets = { name: "greets", assertion: { type: "contains" as const, value: "Ada" } };
const polite = () => ({ name: "polite", assertion: { type: "judge" as const, value: "The answer greets the user by name.", connectionId: fx.connection.id, model: "gpt-4o-mini" } });

beforeAll(async () => {
  const { admin } = fx.world.callers;
  await admin.teams.setGenerationText({ id: fx.team.id, keep: true });
  const created = await admin.apiKeys.create({ teamId: fx.team.id, name: "Tracing", scopes: ["ingest"] });
  key = keyCaller({ id: created.id, teamId: fx.team.id, labels: null, scopes: ["ingest"] });
});

describe("online evaluation", () => {
  it("scores every sampled kept generation once per assertion, counted in the Production figures; a rerun writes nothing twice", async () => {
    const { admin, viewer } = fx.world.callers;
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({
      promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 1,
      assertions: [{ name: "greets", assertion: { type: "contains", value: "Ada" } }, { name: "short", assertion: { type: "maxLength", value: "5" } }],
    });
    const ids = await ingest(prompt, 3, "Hello, Ada!");
    expect(await online().sweep()).toBe(3);
    await settled(prompt.id);
    const scores = await scoresOf(ids);
    expect(scores).toHaveLength(6);
    expect(scores.every((score) => score.source === "eval")).toBe(true);
    expect(scores.filter((score) => score.name === "greets").map((score) => score.value)).toEqual([1, 1, 1]);
    expect(scores.filter((score) => score.name === "short").map((score) => score.comment)).toEqual(Array(3).fill("The output is 11 characters long, over the limit of 5"));

    const metrics = await viewer.production.metrics({ promptId: prompt.id, from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 3_600_000) });
    const version = metrics.versions.find((row) => row.version === 1)!;
    expect(version.scores.find((score) => score.name === "greets")).toMatchObject({ count: 3, share: 1 });
    expect(version.scores.find((score) => score.name === "short")).toMatchObject({ count: 3, share: 0 });

    // Nothing left to claim; a run of the same generation again (a retried job) is skipped.
    expect(await online().sweep()).toBe(0);
    await db().$executeRaw`UPDATE online_evaluation_runs SET status = 'queued' WHERE generation_id = ${ids[0]!}::uuid`;
    await queue().boss.send("online-evaluations", { generationId: ids[0]! });
    await settled(prompt.id);
    expect(await scoresOf(ids)).toHaveLength(6);
    // A claim whose job was lost is queued again by a later sweep, and writes nothing twice either.
    await db().$executeRaw`UPDATE online_evaluation_runs SET status = 'queued', created_at = now() - interval '2 hours' WHERE generation_id = ${ids[1]!}::uuid`;
    expect(await online().sweep()).toBe(1);
    await settled(prompt.id);
    expect(await scoresOf(ids)).toHaveLength(6);
    const read = await viewer.production.onlineEvaluation.get({ promptId: prompt.id });
    expect(read).toMatchObject({ enabled: true, samplePercent: 100, evaluatedToday: 3, spentTodayUsd: 0 });
  });

  it("queues a lost claim again only while its generation is within the sweep's day, or once judged while its generation is kept: an older one not judged, or one whose generation is gone, is let go as skipped, its reservation counted once", async () => {
    const { admin } = fx.world.callers;
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 1, assertions: [greets] });
    const [recent] = await ingest(prompt, 1, "Hello, Ada!");
    const [old] = await ingest(prompt, 1, "Hello, Ada!", new Date(Date.now() - 26 * 3_600_000));
    const [judged] = await ingest(prompt, 1, "Hello, Ada!", new Date(Date.now() - 26 * 3_600_000));
    const gone = crypto.randomUUID();
    const today = new Date().toISOString().slice(0, 10);
    // Each lost its job two hours ago; the old one's run died judging, its worst case still reserved (its judge maybe paid);
    // the judged one's run died after its verdicts and their cost were recorded, before they were written as scores.
    await db().$executeRaw`
      INSERT INTO online_evaluation_runs (generation_id, prompt_id, day, status, reserved, cost, verdicts, created_at)
      VALUES (${recent!}::uuid, ${prompt.id}::uuid, ${today}::date, 'queued', 0, 0, NULL, now() - interval '2 hours'),
             (${old!}::uuid, ${prompt.id}::uuid, ${today}::date, 'judging', 0.3, 0, NULL, now() - interval '2 hours'),
             (${judged!}::uuid, ${prompt.id}::uuid, ${today}::date, 'judged', 0, 0.2, ${JSON.stringify([{ name: "greets", pass: true }])}::jsonb, now() - interval '2 hours'),
             (${gone}::uuid, ${prompt.id}::uuid, ${today}::date, 'queued', 0, 0, NULL, now() - interval '2 hours')
      ON CONFLICT (generation_id) DO UPDATE SET status = EXCLUDED.status, reserved = EXCLUDED.reserved, cost = EXCLUDED.cost, verdicts = EXCLUDED.verdicts, created_at = EXCLUDED.created_at`;
    await online().sweep();
    const claims = await db().$queryRaw<{ id: string; status: string; cost: number; reserved: number }[]>`
      SELECT generation_id::text AS id, status, cost, reserved FROM online_evaluation_runs WHERE generation_id = ANY(${[old!, gone]}::uuid[])`;
    expect(Object.fromEntries(claims.map(({ id, ...claim }) => [id, claim]))).toEqual({
      [old!]: { status: "skipped", cost: 0.3, reserved: 0 },
      [gone]: { status: "skipped", cost: 0, reserved: 0 },
    });
    // Let go by the sweep itself: no job of either, not run again.
    expect([await jobState(old!), await jobState(gone)]).toEqual([undefined, undefined]);
    await settled(prompt.id);
    // The judged one, as old as the one let go, is queued again and its paid verdicts written, at the cost recorded.
    expect((await scoresOf([recent!, old!, judged!])).map((score) => [score.generation_id, score.name]).sort()).toEqual([[recent!, "greets"], [judged!, "greets"]].sort());
    expect(await db().$queryRaw`SELECT status, cost FROM online_evaluation_runs WHERE generation_id = ${judged!}::uuid`).toEqual([{ status: "done", cost: 0.2 }]);
    expect(await admin.production.onlineEvaluation.get({ promptId: prompt.id })).toMatchObject({ evaluatedToday: 2, spentTodayUsd: 0.5 });
  });

  it("samples nothing at 0%", async () => {
    const { admin } = fx.world.callers;
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 0, dailyCapUsd: 1, assertions: [{ name: "greets", assertion: { type: "contains", value: "Ada" } }] });
    const ids = await ingest(prompt, 5, "Hello, Ada!");
    await online().sweep();
    expect(await db().onlineEvaluationRun.count({ where: { promptId: prompt.id } })).toBe(0);
    expect(await scoresOf(ids)).toEqual([]);
  });

  it("evaluates nothing of an archived prompt (whose settings cannot change): neither a claim made before it was archived nor a new one", async () => {
    const { admin } = fx.world.callers;
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 1, assertions: [{ name: "greets", assertion: { type: "contains", value: "Ada" } }] });
    const before = await ingest(prompt, 2, "Hello, Ada!");
    await db().$executeRaw`UPDATE prompts SET archived_at = now() WHERE id = ${prompt.id}::uuid`;
    // Claimed as the sweep had claimed them before the archive, then run.
    await db().$executeRaw`INSERT INTO online_evaluation_runs (generation_id, prompt_id, day) SELECT unnest(${before}::uuid[]), ${prompt.id}::uuid, current_date`;
    for (const generationId of before) await queue().boss.send("online-evaluations", { generationId });
    await settled(prompt.id);
    const after = await ingest(prompt, 2, "Hello, Ada!");
    expect(await online().sweep()).toBe(0);
    expect(await scoresOf([...before, ...after])).toEqual([]);
    expect(await db().onlineEvaluationRun.count({ where: { promptId: prompt.id } })).toBe(2);
    // Let go without evaluating: not among the generations evaluated today.
    expect(await db().onlineEvaluationRun.count({ where: { promptId: prompt.id, status: "skipped" } })).toBe(2);
    expect((await admin.production.onlineEvaluation.get({ promptId: prompt.id })).evaluatedToday).toBe(0);
  });

  it("judges until the day's judging cost reaches the cap, then only checks the programmatic assertions", async () => {
    const { admin, orgAdmin } = fx.world.callers;
    // About a hundred tokens a judgement at $1,000 per million: each costs about $0.1, over the cap of $0.05.
    await orgAdmin.providers.setPrice({ organizationId: fx.world.organization.id, model: "gpt-4o-mini", inputPerMillion: 1000, outputPerMillion: 1000 });
    fx.provider.answer.text = '{"pass": true, "reason": "It greets Ada by name."}';
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({
      promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 0.05,
      assertions: [
        { name: "greets", assertion: { type: "contains", value: "Ada" } },
        { name: "polite", assertion: { type: "judge", value: "The answer greets the user by name.", connectionId: fx.connection.id, model: "gpt-4o-mini" } },
      ],
    });
    const calls = fx.provider.calls.length;
    const [first] = await ingest(prompt, 1, "Hello, Ada!");
    await online().sweep();
    await settled(prompt.id);
    expect((await scoresOf([first!])).map((score) => [score.name, score.value])).toEqual([["greets", 1], ["polite", 1]]);
    expect(fx.provider.calls.length).toBe(calls + 1);
    const spent = (await admin.production.onlineEvaluation.get({ promptId: prompt.id })).spentTodayUsd;
    expect(spent).toBeGreaterThanOrEqual(0.05);

    const later = await ingest(prompt, 2, "Hello, Ada!");
    await online().sweep();
    await settled(prompt.id);
    expect((await scoresOf(later)).map((score) => score.name)).toEqual(["greets", "greets"]);
    expect(fx.provider.calls.length).toBe(calls + 1);
    expect((await admin.production.onlineEvaluation.get({ promptId: prompt.id })).spentTodayUsd).toBe(spent);
    fx.provider.answer.text = null;
  });

  it("counts a judgement that failed without telling its usage at its worst case against the day's cap, never as free; a refusal of the call itself (400) stands as its failure, not asked again", async () => {
    const { admin, orgAdmin } = fx.world.callers;
    await orgAdmin.providers.setPrice({ organizationId: fx.world.organization.id, model: "gpt-4o-mini", inputPerMillion: 1000, outputPerMillion: 1000 });
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 100, assertions: [greets, polite()] });
    fx.provider.failWith = 400;
    let generation: string | undefined;
    try {
      [generation] = await ingest(prompt, 1, "Hello, Ada!");
      await online().sweep();
      await settled(prompt.id);
    } finally {
      fx.provider.failWith = null;
    }
    // Refused as sent (it would be on every try, each paid for): the judgement's failure, written once, its job done.
    const scores = await scoresOf([generation!]);
    expect(scores.map((score) => [score.name, score.value])).toEqual([["greets", 1], ["polite", 0]]);
    expect(scores[1]!.comment).toMatch(/^The judge could not answer: /);
    expect(await jobState(generation!)).toBe("completed");
    const [run] = await db().$queryRaw<{ cost: number }[]>`SELECT cost FROM online_evaluation_runs WHERE prompt_id = ${prompt.id}::uuid`;
    expect(run!.cost).toBeGreaterThan(0);
    expect((await admin.production.onlineEvaluation.get({ promptId: prompt.id })).spentTodayUsd).toBe(run!.cost);
  });

  it("reserves each judgement's worst case before judging: jobs judging at once stop at the day's cap", async () => {
    const { admin, orgAdmin } = fx.world.callers;
    // A judgement costs about $0.1 and at worst (every byte of its request a token, and the judge's whole answer) under $1: either is over the cap.
    await orgAdmin.providers.setPrice({ organizationId: fx.world.organization.id, model: "gpt-4o-mini", inputPerMillion: 1000, outputPerMillion: 1000 });
    Object.assign(fx.provider.answer, { text: '{"pass": true, "reason": "It greets Ada by name."}', firstTokenDelayMs: 500 });
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 0.05, assertions: [greets, polite()] });
    const calls = fx.provider.calls.length;
    // One worker's batch: five jobs judging at once, each of which read the day's spend as nothing so far.
    const ids = await ingest(prompt, 5, "Hello, Ada!");
    expect(await online().sweep()).toBe(5);
    await settled(prompt.id);
    // The first to reserve held the day at its cap while it judged; the others checked only the programmatic assertion.
    expect(fx.provider.calls.length).toBe(calls + 1);
    const scores = await scoresOf(ids);
    expect(scores.filter((score) => score.name === "greets")).toHaveLength(5);
    expect(scores.filter((score) => score.name === "polite")).toHaveLength(1);
    const { spentTodayUsd } = await admin.production.onlineEvaluation.get({ promptId: prompt.id });
    expect(spentTodayUsd).toBeGreaterThan(0.05);
    expect(spentTodayUsd).toBeLessThan(0.05 + 1);
    Object.assign(fx.provider.answer, { text: null, firstTokenDelayMs: 0 });
  });

  it("settles each reservation to the judgement's real cost: a cap the worst cases would pass but the real costs do not lets the later jobs judge", async () => {
    const { admin, orgAdmin } = fx.world.callers;
    // At $1,000 per million tokens a judgement really costs under $0.1; its worst case (every byte of its request a token,
    // and the judge's whole answer) is over the cap of $0.25: held at the worst case, the day would judge one generation.
    await orgAdmin.providers.setPrice({ organizationId: fx.world.organization.id, model: "gpt-4o-mini", inputPerMillion: 1000, outputPerMillion: 1000 });
    fx.provider.answer.text = '{"pass": true, "reason": "It greets Ada by name."}';
    const cap = 0.25;
    const bound = judgeUsageBound(polite().assertion, { output: "Hello, Ada!", latencyMs: 0, cost: null, expected: null });
    expect((bound.inputTokens + bound.outputTokens) * 1000 / 1_000_000).toBeGreaterThan(cap);
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: cap, assertions: [greets, polite()] });
    const calls = fx.provider.calls.length;
    // One at a time, so each reserves knowing what the ones before really cost, until one finds the day at its cap.
    const judged: string[] = [];
    let capped: string | undefined;
    for (let n = 0; n < 10 && !capped; n += 1) {
      const [id] = await ingest(prompt, 1, "Hello, Ada!");
      expect(await online().sweep()).toBe(1);
      await settled(prompt.id);
      const names = (await scoresOf([id!])).map((score) => score.name);
      if (names.includes("polite")) judged.push(id!);
      else capped = id;
    }
    expect(capped).toBeDefined();
    expect(judged.length).toBeGreaterThan(1);
    expect(fx.provider.calls.length).toBe(calls + judged.length);
    const runs = await db().$queryRaw<{ id: string; cost: number; reserved: number }[]>`
      SELECT generation_id::text AS id, cost, reserved FROM online_evaluation_runs WHERE prompt_id = ${prompt.id}::uuid`;
    const costs = judged.map((id) => runs.find((run) => run.id === id)!);
    for (const run of costs) expect(run).toEqual({ id: run.id, cost: costs[0]!.cost, reserved: 0 });
    expect(runs.find((run) => run.id === capped)).toMatchObject({ cost: 0, reserved: 0 });
    // The day's spend is what the judgements really cost: it reached the cap with the last one, not before.
    const real = costs[0]!.cost;
    expect(real).toBeGreaterThan(0);
    const { spentTodayUsd } = await admin.production.onlineEvaluation.get({ promptId: prompt.id });
    expect(spentTodayUsd).toBeCloseTo(real * judged.length, 9);
    expect(real * (judged.length - 1)).toBeLessThan(cap);
    expect(spentTodayUsd).toBeGreaterThanOrEqual(cap);
    fx.provider.answer.text = null;
  });

  // A job that fails after judging is run again; the judgement it paid for counts, once, and is not bought again.
  it.each([
    ["writing the scores", "scores", "NEW.external_id LIKE 'online:%'"],
    ["finishing the claim (the scores written)", "online_evaluation_runs", "NEW.status = 'done'"],
  ])("a job failing while %s judges nothing again when run again", async (_what, table, when) => {
    const { admin, orgAdmin } = fx.world.callers;
    await orgAdmin.providers.setPrice({ organizationId: fx.world.organization.id, model: "gpt-4o-mini", inputPerMillion: 1000, outputPerMillion: 1000 });
    fx.provider.answer.text = '{"pass": true, "reason": "It greets Ada by name."}';
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 10, assertions: [greets, polite()] });
    await db().$executeRawUnsafe(`CREATE OR REPLACE FUNCTION online_test_failure() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF ${when} THEN RAISE EXCEPTION 'the test stops this write'; END IF; RETURN NEW; END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER online_test_failure BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION online_test_failure()`);
    const calls = fx.provider.calls.length;
    const [id] = await ingest(prompt, 1, "Hello, Ada!");
    try {
      expect(await online().sweep()).toBe(1);
      await expect.poll(() => jobState(id!), { timeout: 15_000, interval: 50 }).toBe("retry");
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER online_test_failure ON ${table}`);
    }
    expect(fx.provider.calls.length).toBe(calls + 1);
    await queue().boss.send("online-evaluations", { generationId: id! });
    await settled(prompt.id);
    expect(fx.provider.calls.length).toBe(calls + 1);
    expect((await scoresOf([id!])).map((score) => [score.name, score.value])).toEqual([["greets", 1], ["polite", 1]]);
    // The one judgement's cost, about $0.1, counted against the day.
    const { spentTodayUsd } = await admin.production.onlineEvaluation.get({ promptId: prompt.id });
    expect(spentTodayUsd).toBeGreaterThan(0.05);
    expect(spentTodayUsd).toBeLessThan(0.2);
    fx.provider.answer.text = null;
  });

  it("fails only the job that failed: the others of its batch judge on, neither failed nor retried with it", async () => {
    const { admin, orgAdmin } = fx.world.callers;
    await orgAdmin.providers.setPrice({ organizationId: fx.world.organization.id, model: "gpt-4o-mini", inputPerMillion: 1000, outputPerMillion: 1000 });
    fx.provider.answer.text = '{"pass": true, "reason": "It greets Ada by name."}';
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 10, assertions: [greets, polite()] });
    // The jobs expire (pg-boss fails them as a dead process's, the whole batch) only long after this test: here only the
    // worker decides which job fails. A sweep with nothing to claim yet makes the queue, should no test have swept before.
    await online().sweep();
    await queue().boss.updateQueue(ONLINE_QUEUE, { name: ONLINE_QUEUE, expireInSeconds: 600 });
    const [failing, judging] = await ingest(prompt, 2, "Hello, Ada!");
    // The failing generation's claim refuses every move, so its job fails at once; the judging one, judged, waits to record
    // its verdicts until the test lets it, so it is still judging when the other fails however slowly the jobs run.
    await db().$executeRawUnsafe(`CREATE OR REPLACE FUNCTION online_test_batch_failure() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.generation_id = '${failing!}'::uuid THEN RAISE EXCEPTION 'the test stops this write'; END IF;
        IF NEW.generation_id = '${judging!}'::uuid AND NEW.status = 'judged' THEN PERFORM pg_advisory_xact_lock(${JUDGING_GATE}, 0); END IF;
        RETURN NEW;
      END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER online_test_batch_failure BEFORE UPDATE ON online_evaluation_runs FOR EACH ROW EXECUTE FUNCTION online_test_batch_failure()`);
    const gate = new pg.Client({ connectionString: fx.h.database.url });
    await gate.connect();
    await gate.query("BEGIN");
    await gate.query(`SELECT pg_advisory_xact_lock(${JUDGING_GATE}, 0)`);
    const calls = fx.provider.calls.length;
    try {
      // Both jobs queued together: one worker's batch.
      expect(await online().sweep()).toBe(2);
      await expect.poll(() => jobState(failing!), { timeout: 15_000, interval: 50 }).toBe("retry");
      await expect.poll(waitingHere, { timeout: 15_000, interval: 50 }).toBe(1);
      // The other job has its judge's answer and is still judging, its job still active: not failed with the batch (a retry
      // would find it judging and lose its verdict).
      expect(fx.provider.calls.length).toBe(calls + 1);
      expect(await jobState(judging!)).toBe("active");
      expect((await db().$queryRaw<{ status: string }[]>`SELECT status::text FROM online_evaluation_runs WHERE generation_id = ${judging!}::uuid`)[0]!.status).toBe("judging");
      await gate.query("COMMIT");
      await expect.poll(() => jobState(judging!), { timeout: 15_000, interval: 50 }).toBe("completed");
    } finally {
      // The gate let go first: the trigger cannot be dropped while a write waits in it.
      await gate.end();
      await db().$executeRawUnsafe(`DROP TRIGGER online_test_batch_failure ON online_evaluation_runs`);
      await queue().boss.updateQueue(ONLINE_QUEUE, { name: ONLINE_QUEUE, expireInSeconds: queue().jobExpirySeconds });
    }
    // Run once, never retried.
    expect(await jobAttempts(judging!)).toEqual({ state: "completed", attempts: 1 });
    expect((await scoresOf([judging!])).map((score) => [score.name, score.value])).toEqual([["greets", 1], ["polite", 1]]);
    // The failed one's retry (brought forward: pg-boss waits 5 s and more) runs it again and judges it.
    await db().$executeRaw`UPDATE pgboss.job SET start_after = now() WHERE name = ${ONLINE_QUEUE} AND state = 'retry' AND data->>'generationId' = ${failing!}`;
    await expect.poll(() => jobState(failing!), { timeout: 15_000, interval: 50 }).toBe("completed");
    expect(await jobAttempts(failing!)).toEqual({ state: "completed", attempts: 2 });
    expect((await scoresOf([failing!])).map((score) => [score.name, score.value])).toEqual([["greets", 1], ["polite", 1]]);
    expect(fx.provider.calls.length).toBe(calls + 2);
    fx.provider.answer.text = null;
  });

  it("scores nothing for a judge whose connection key no longer opens (APP_SECRET changed), charging nothing: it never reached the provider", async () => {
    const { admin, orgAdmin } = fx.world.callers;
    await orgAdmin.providers.setPrice({ organizationId: fx.world.organization.id, model: "gpt-4o-mini", inputPerMillion: 1000, outputPerMillion: 1000 });
    const connection = await orgAdmin.providers.create({
      organizationId: fx.world.organization.id, kind: "openai-compatible", name: "Resealed judge", baseUrl: fx.provider.openaiBaseUrl, apiKey: fx.provider.apiKey,
    });
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    const settings = {
      promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 10,
      assertions: [greets, { name: "polite", assertion: { ...polite().assertion, connectionId: connection.id } }],
    };
    await admin.production.onlineEvaluation.set(settings);
    // Its key sealed under another app secret, as after APP_SECRET changed.
    const foreign = sealSecret("another-app-secret-another-app-secret-0", "provider key v1", connection.id, Buffer.from(fx.provider.apiKey));
    await db().$executeRaw`UPDATE provider_connections SET api_key_sealed = ${foreign} WHERE id = ${connection.id}::uuid`;
    const calls = fx.provider.calls.length;
    const [id] = await ingest(prompt, 1, "Hello, Ada!");
    expect(await online().sweep()).toBe(1);
    // No verdict (the judge never asked), its job to be retried.
    await expect.poll(() => jobState(id!), { timeout: 15_000, interval: 50 }).toBe("retry");
    expect(fx.provider.calls.length).toBe(calls);
    expect((await scoresOf([id!])).map((score) => [score.name, score.value, score.comment])).toEqual([["greets", 1, null]]);
    const [run] = await db().$queryRaw<{ cost: number; reserved: number }[]>`SELECT cost, reserved FROM online_evaluation_runs WHERE generation_id = ${id!}::uuid`;
    expect(run).toEqual({ cost: 0, reserved: 0 });
    expect((await admin.production.onlineEvaluation.get({ promptId: prompt.id })).spentTodayUsd).toBe(0);
    // Turned off, its retry (brought forward) judges nothing more.
    await admin.production.onlineEvaluation.set({ ...settings, enabled: false });
    await db().$executeRaw`UPDATE pgboss.job SET start_after = now() WHERE name = ${ONLINE_QUEUE} AND state = 'retry' AND data->>'generationId' = ${id!}`;
    await settled(prompt.id);
  });

  it("judges no generation twice: a judged score already written, or a claim left judging by a run that died (the judge maybe paid, its reservation kept as the cost)", async () => {
    const { admin, orgAdmin } = fx.world.callers;
    await orgAdmin.providers.setPrice({ organizationId: fx.world.organization.id, model: "gpt-4o-mini", inputPerMillion: 1000, outputPerMillion: 1000 });
    fx.provider.answer.text = '{"pass": true, "reason": "It greets Ada by name."}';
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 10, assertions: [greets, polite()] });
    const calls = fx.provider.calls.length;
    const [judged] = await ingest(prompt, 1, "Hello, Ada!");
    await online().sweep();
    await settled(prompt.id);
    expect(fx.provider.calls.length).toBe(calls + 1);
    // Queued again with its scores written, as a run that died before finishing left it before claims recorded their verdicts.
    await db().$executeRaw`UPDATE online_evaluation_runs SET status = 'queued', cost = 0, verdicts = NULL WHERE generation_id = ${judged!}::uuid`;
    await queue().boss.send("online-evaluations", { generationId: judged! });
    await settled(prompt.id);
    expect(fx.provider.calls.length).toBe(calls + 1);

    const [unsure] = await ingest(prompt, 1, "Hello, Ada!");
    await db().$executeRaw`INSERT INTO online_evaluation_runs (generation_id, prompt_id, day, status, reserved) VALUES (${unsure!}::uuid, ${prompt.id}::uuid, ${new Date().toISOString().slice(0, 10)}::date, 'judging', 0.7)`;
    await queue().boss.send("online-evaluations", { generationId: unsure! });
    await settled(prompt.id);
    expect(fx.provider.calls.length).toBe(calls + 1);
    expect((await scoresOf([unsure!])).map((score) => score.name)).toEqual(["greets"]);
    expect((await admin.production.onlineEvaluation.get({ promptId: prompt.id })).spentTodayUsd).toBeCloseTo(0.7, 6);
    fx.provider.answer.text = null;
  });

  it("keeps each assertion's name (its score series) and names a new one after its kind, past every name taken; refuses a repeated name or a new one a series has, changing nothing", async () => {
    const { admin } = fx.world.callers;
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    const contains = (value: string) => ({ assertion: { type: "contains" as const, value } });
    const settings = { promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 1 };
    const names = (answer: { assertions: { name: string }[] }) => answer.assertions.map((item) => item.name);
    expect(names(await admin.production.onlineEvaluation.set({ ...settings, assertions: [contains("Hello"), contains("Ada"), { assertion: { type: "json" } }] })))
      .toEqual(["contains", "contains 2", "json"]);
    // The first removed: the second keeps its name; a new one takes neither (nor the removed one's, whose scores may exist).
    expect(names(await admin.production.onlineEvaluation.set({ ...settings, assertions: [{ name: "contains 2", ...contains("Ada") }, contains("Bye")] })))
      .toEqual(["contains 2", "contains 3"]);
    // A series the prompt has scores of ("contains 2", "contains 3") is not reused, though no assertion names it any more.
    await ingest(prompt, 1, "Hello, Ada!");
    await online().sweep();
    await settled(prompt.id);
    await admin.production.onlineEvaluation.set({ ...settings, assertions: [{ assertion: { type: "json" } }] });
    expect(names(await admin.production.onlineEvaluation.set({ ...settings, assertions: [{ name: "json", assertion: { type: "json" } }, contains("Ada"), contains("Hi")] })))
      .toEqual(["json", "contains", "contains 4"]);

    const repeated = await failure(admin.production.onlineEvaluation.set({ ...settings, samplePercent: 5, assertions: [{ name: "greets", ...contains("Ada") }, { name: "greets", ...contains("Hi") }] }));
    expect(repeated).toEqual({ code: "BAD_REQUEST", message: "Two assertions are named 'greets': each needs a name of its own (it is the score's name)" });
    // A new assertion named as a series the prompt has scores of (an ended assertion's here; the team's own code's, say) is refused too.
    const scored = await failure(admin.production.onlineEvaluation.set({ ...settings, samplePercent: 5, assertions: [{ name: "json", assertion: { type: "json" } }, { name: "contains 3", ...contains("Ada") }] }));
    expect(scored).toEqual({ code: "BAD_REQUEST", message: "The prompt already has scores named 'contains 3': a new assertion needs a name of its own (it is the score's name)" });
    expect(await admin.production.onlineEvaluation.get({ promptId: prompt.id })).toMatchObject({ samplePercent: 100, assertions: [{ name: "json" }, { name: "contains" }, { name: "contains 4" }] });
  });

  it("refuses to turn on a judge whose model has no price (the daily cap could not count it), changing nothing; priced, or turned off, it is saved", async () => {
    const { admin, orgAdmin } = fx.world.callers;
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    const unpriced = { name: "polite", assertion: { ...polite().assertion, model: "self-hosted-judge-7b" } };
    const settings = { promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 1, assertions: [greets, unpriced] };
    expect(await failure(admin.production.onlineEvaluation.set(settings))).toEqual({
      code: "BAD_REQUEST",
      message: "The judge's model 'self-hosted-judge-7b' has no price, so the daily cap could not count what judging costs: set its price in the organization's model prices first",
    });
    expect(await admin.production.onlineEvaluation.get({ promptId: prompt.id })).toMatchObject({ enabled: false, assertions: [] });
    // Off, it may be kept as it is; priced, it is turned on.
    expect(await admin.production.onlineEvaluation.set({ ...settings, enabled: false })).toMatchObject({ enabled: false, assertions: [{ name: "greets" }, { name: "polite" }] });
    await orgAdmin.providers.setPrice({ organizationId: fx.world.organization.id, model: "self-hosted-judge-7b", inputPerMillion: 1, outputPerMillion: 2 });
    expect(await admin.production.onlineEvaluation.set(settings)).toMatchObject({ enabled: true, assertions: [{ name: "greets" }, { name: "polite" }] });
  });

  it("sends no output to the judge once the team stops keeping text: neither a job picked up before nor a claim queued again after", async () => {
    const { admin, orgAdmin } = fx.world.callers;
    await orgAdmin.providers.setPrice({ organizationId: fx.world.organization.id, model: "gpt-4o-mini", inputPerMillion: 0, outputPerMillion: 0 });
    fx.provider.answer.text = '{"pass": true, "reason": "Fine."}';
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({ promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 10, assertions: [greets, polite()] });
    // The worker works from the first sweep on.
    await online().sweep();
    const calls = fx.provider.calls.length;
    const [picked, lost] = await ingest(prompt, 2, "SECRET-OUTPUT-TEXT for Ada");
    try {
      // Claimed by a sweep while the text was kept, the job not run yet; the other claim's job lost an hour ago.
      await db().$executeRaw`INSERT INTO online_evaluation_runs (generation_id, prompt_id, day) VALUES (${picked!}::uuid, ${prompt.id}::uuid, current_date)`;
      await db().$executeRaw`INSERT INTO online_evaluation_runs (generation_id, prompt_id, day, created_at) VALUES (${lost!}::uuid, ${prompt.id}::uuid, current_date, now() - interval '2 hours')`;
      await admin.teams.setGenerationText({ id: fx.team.id, keep: false });
      await queue().boss.send("online-evaluations", { generationId: picked! });
      await expect.poll(async () => (await db().onlineEvaluationRun.findUnique({ where: { generationId: picked! } }))?.status, { timeout: 15_000, interval: 50 }).toBe("skipped");
      // Kept on again: the text from before is gone for good, the lost claim queued again judges nothing either.
      await admin.teams.setGenerationText({ id: fx.team.id, keep: true });
      expect(await online().sweep()).toBe(1);
      await settled(prompt.id);
      expect(fx.provider.calls.slice(calls).filter((call) => JSON.stringify(call.body).includes("SECRET-OUTPUT-TEXT"))).toEqual([]);
      expect(fx.provider.calls.length).toBe(calls);
      expect(await scoresOf([picked!, lost!])).toEqual([]);
      // Both let go with nothing to evaluate: none evaluated today.
      expect(await db().onlineEvaluationRun.count({ where: { promptId: prompt.id, status: "skipped" } })).toBe(2);
      expect((await admin.production.onlineEvaluation.get({ promptId: prompt.id })).evaluatedToday).toBe(0);
    } finally {
      await admin.teams.setGenerationText({ id: fx.team.id, keep: true });
      fx.provider.answer.text = null;
    }
  });

  it("only a team admin sets it; every reader of the prompt reads it", async () => {
    const { admin, editor, viewer } = fx.world.callers;
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    const settings = { promptId: prompt.id, enabled: true, samplePercent: 10, dailyCapUsd: 1, assertions: [{ name: "json", assertion: { type: "json" as const } }] };
    expect(await failure(editor.production.onlineEvaluation.set(settings))).toMatchObject({ code: "FORBIDDEN" });
    expect(await failure(viewer.production.onlineEvaluation.set(settings))).toMatchObject({ code: "FORBIDDEN" });
    expect(await viewer.production.onlineEvaluation.get({ promptId: prompt.id })).toMatchObject({ enabled: false, assertions: [] });
    await admin.production.onlineEvaluation.set(settings);
    expect(await viewer.production.onlineEvaluation.get({ promptId: prompt.id })).toMatchObject({ enabled: true, samplePercent: 10 });
    expect(await failure(admin.production.onlineEvaluation.set({ ...settings, assertions: [...settings.assertions, ...settings.assertions] }))).toMatchObject({ code: "BAD_REQUEST" });
    // A judge on a connection the organization does not have is refused, as on a test case.
    const judged = { name: "judged", assertion: { type: "judge" as const, value: "Polite.", connectionId: crypto.randomUUID(), model: "gpt-4o-mini" } };
    const refused = await failure(admin.production.onlineEvaluation.set({ ...settings, assertions: [judged] }));
    expect(refused).toMatchObject({ code: "BAD_REQUEST" });
    // An archived prompt refuses it, as every change, and keeps what it had.
    await admin.prompts.archive({ id: prompt.id });
    expect(await failure(admin.production.onlineEvaluation.set({ ...settings, samplePercent: 50 }))).toMatchObject({ code: "CONFLICT" });
    expect(await viewer.production.onlineEvaluation.get({ promptId: prompt.id })).toMatchObject({ samplePercent: 10 });
  });
});
