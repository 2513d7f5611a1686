// Online evaluation's judge writes its reasons (the `eval` scores' comments, the claims' verdicts) from a
// generation's text, and may quote it: they go where the text goes. Cleared with the text once its team
// stops keeping it (clearGenerationText, a housekeeping run's share), or as soon as written when the judge
// answered after the text was cleared (the run writes them only while the text it judged is stored, deciding
// so in the same transaction, the generation held against the clearing: lockJudgedText), and never shown to a reader who may
// not read the text (textReadable false: a reader of an organization prompt outside its team), nor to
// anyone while the text itself is not shown (in the app, and through REST /api/v1, whose keys read their
// own team's prompts only). A person's or a key's comment is their own: it stays, and every reader sees it.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitingAtGate } from "../../../testing/deadlock-support.ts";
import { startFakeProvider, type FakeProvider } from "../../../testing/fake-provider.ts";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import { commandLineCaller, type KeyCaller } from "../access/visibility.ts";
import { clearGenerationText } from "../platform/generation-text.ts";
import { pruneExpired } from "../platform/housekeeping.ts";
import { getGeneration, listGenerations } from "./generations.ts";
import type { EvaluationQueue } from "../evaluations/queue.ts";
import { ingestProduction } from "./ingest.ts";
import { runtimeGenerationPages, runtimeGenerations } from "./runtime-production.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };
let otherTeam: { id: string };
let prompt: { id: string; name: string };
let otherPrompt: { id: string; name: string };
/** Keys of the prompt's team and of another team of the organization (which reads the organization prompt, not its text). */
let ownKey: KeyCaller;
let otherKey: KeyCaller;

const MINUTE = 60_000;
const db = () => h.services.db;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team("Core");
  otherTeam = await world.team("Other");
  prompt = await createPrompt(world.callers.editor, team.id, { visibility: "organization" });
  otherPrompt = await createPrompt(world.callers.editor, otherTeam.id, { visibility: "team" });
  ownKey = await world.ingestKey(team.id);
  otherKey = await world.ingestKey(otherTeam.id);
  await world.callers.admin.teams.setGenerationText({ id: team.id, keep: true });
  await world.callers.admin.teams.setGenerationText({ id: otherTeam.id, keep: true });
});
afterAll(() => h.close());

/** A generation sent by the team's key with its text, started `minutesAgo` minutes ago; its id. */
async function sendGeneration(key: KeyCaller, teamId: string, on: { name: string }, observationId: string, minutesAgo: number) {
  const startedAt = new Date(Date.now() - minutesAgo * MINUTE);
  await ingestProduction(db(), key, teamId, {
    generations: [{ observationId, source: "api", promptName: on.name, version: 1, startedAt, seenAt: startedAt, input: `question ${observationId}`, output: `answer ${observationId}` }],
    scores: [],
  });
  const [row] = await db().$queryRaw<{ id: string; input: string | null }[]>`SELECT id::text, input FROM generations WHERE team_id = ${teamId}::uuid AND observation_id = ${observationId}`;
  // Kept: the team keeps text.
  expect(row?.input).toBe(`question ${observationId}`);
  return row!.id;
}

/**
 * What online evaluation leaves on a generation (as its run writes it): a verdict score of source `eval`
 * whose comment is the judge's reason quoting the answer, and the claim's verdicts with that reason; and
 * a key's score with a comment of its own.
 */
async function judge(key: KeyCaller, teamId: string, on: { id: string }, generationId: string, observationId: string) {
  const reason = `It says "answer ${observationId}" politely`;
  await ingestProduction(db(), commandLineCaller(), teamId, {
    generations: [],
    scores: [{ generationId, promptId: on.id, name: "polite", dataType: "boolean", value: 1, stringValue: "True", comment: reason, source: "eval", externalId: `online:${generationId}:polite` }],
  });
  await ingestProduction(db(), key, teamId, {
    generations: [],
    scores: [{ generationId, name: "helpful", dataType: "boolean", value: 0, stringValue: "False", comment: "the key's own note", source: "api", apiKeyId: key.apiKey.id }],
  });
  const verdicts = [{ name: "polite", pass: true, reason }, { name: "short", pass: false }, { name: "tone", pass: true, reason: `Calm: "answer ${observationId}"` }];
  await db().$executeRaw`
    INSERT INTO online_evaluation_runs (generation_id, prompt_id, day, status, verdicts)
    VALUES (${generationId}::uuid, ${on.id}::uuid, current_date, 'done', ${JSON.stringify(verdicts)}::jsonb)`;
  return reason;
}

interface Stored {
  input: string | null;
  output: string | null;
  scores: { source: string; name: string; value: number; comment: string | null }[];
  verdicts: unknown;
}

/** What the database holds of a generation: its text, its scores (by name) and its claim's verdicts. */
async function stored(generationId: string): Promise<Stored> {
  const [text] = await db().$queryRaw<{ input: string | null; output: string | null }[]>`SELECT input, output FROM generations WHERE id = ${generationId}::uuid`;
  const scores = await db().$queryRaw<Stored["scores"]>`SELECT source, name, value, comment FROM scores WHERE generation_id = ${generationId}::uuid ORDER BY name`;
  const [run] = await db().$queryRaw<{ verdicts: unknown }[]>`SELECT verdicts FROM online_evaluation_runs WHERE generation_id = ${generationId}::uuid`;
  return { input: text!.input, output: text!.output, scores, verdicts: run?.verdicts };
}

/** As judge() left it. */
const judged = (observationId: string): Stored => ({
  input: `question ${observationId}`,
  output: `answer ${observationId}`,
  scores: [
    { source: "api", name: "helpful", value: 0, comment: "the key's own note" },
    { source: "eval", name: "polite", value: 1, comment: `It says "answer ${observationId}" politely` },
  ],
  verdicts: [{ name: "polite", pass: true, reason: `It says "answer ${observationId}" politely` }, { name: "short", pass: false }, { name: "tone", pass: true, reason: `Calm: "answer ${observationId}"` }],
});

/** Cleared: no text, the judge's reasons gone (its verdicts stay, in their order), the key's comment kept. */
const cleared: Stored = {
  input: null,
  output: null,
  scores: [
    { source: "api", name: "helpful", value: 0, comment: "the key's own note" },
    { source: "eval", name: "polite", value: 1, comment: null },
  ],
  verdicts: [{ name: "polite", pass: true }, { name: "short", pass: false }, { name: "tone", pass: true }],
};

const comments = (item: { scores: { source: string; comment: string | null }[] }) => item.scores.map(({ source, comment }) => ({ source, comment })).sort((a, b) => a.source.localeCompare(b.source));

describe("clearing a generation's kept text", () => {
  it("clears the judge's reasons with it (score comments and claim verdicts), only of the generations cleared, batch by batch; other comments and later text stay", async () => {
    const clearBatch = (limit: number) => db().$transaction((tx) => clearGenerationText(tx, limit));
    // Two generations sent while the team kept text, judged; another team's, judged (that team keeps its text).
    const old = ["old-1", "old-2"];
    const oldIds = [await sendGeneration(ownKey, team.id, prompt, old[0]!, 30), await sendGeneration(ownKey, team.id, prompt, old[1]!, 20)];
    for (const [i, id] of oldIds.entries()) await judge(ownKey, team.id, prompt, id, old[i]!);
    const elsewhere = await sendGeneration(otherKey, otherTeam.id, otherPrompt, "elsewhere", 25);
    await judge(otherKey, otherTeam.id, otherPrompt, elsewhere, "elsewhere");

    // The team stops keeping text, and keeps it again: what it kept before is deleted (not shown from now on).
    await world.callers.admin.teams.setGenerationText({ id: team.id, keep: false });
    await world.callers.admin.teams.setGenerationText({ id: team.id, keep: true });
    // Sent and judged once it keeps text again: kept, reasons and all.
    const later = await sendGeneration(ownKey, team.id, prompt, "later", -1);
    await judge(ownKey, team.id, prompt, later, "later");

    // One generation a batch: the one cleared loses its reasons, the one not cleared yet keeps them (stored, not shown).
    expect(await clearBatch(1)).toBe(1);
    const afterOne = await Promise.all(oldIds.map(stored));
    expect(afterOne.filter((row) => row.input === null)).toHaveLength(1);
    const [first, second] = afterOne[0]!.input === null ? [0, 1] : [1, 0];
    expect(afterOne[first]).toEqual(cleared);
    expect(afterOne[second]).toEqual(judged(old[second]!));

    // Housekeeping's run clears the rest.
    expect((await pruneExpired(db(), new Date())).generationTexts).toBe(1);
    for (const id of oldIds) expect(await stored(id)).toEqual(cleared);
    expect(await clearBatch(10)).toBe(0);
    // Not cleared: text and reasons of the generation sent since, and of the other team's.
    expect(await stored(later)).toEqual(judged("later"));
    expect(await stored(elsewhere)).toEqual(judged("elsewhere"));

    // Once the team's clearing is over (a minute on) its old generations read as its others do: their reasons
    // must not come back with it. Nothing of the text is left to show, to any reader.
    await db().$executeRaw`UPDATE teams SET generation_text_cleared_before = generation_text_cleared_before - interval '2 minutes' WHERE id = ${team.id}::uuid`;
    expect(await clearBatch(10)).toBe(0);
    expect(await db().team.findUniqueOrThrow({ where: { id: team.id }, select: { generationTextClearedBefore: true } })).toEqual({ generationTextClearedBefore: null });
    for (const id of oldIds) {
      const detail = await getGeneration(db(), prompt.id, id, true);
      expect(detail).toMatchObject({ textKept: true, textReadable: true, input: null, output: null });
      expect(comments(detail)).toEqual([{ source: "api", comment: "the key's own note" }, { source: "eval", comment: null }]);
    }
    expect(comments(await getGeneration(db(), prompt.id, later, true))).toEqual([{ source: "api", comment: "the key's own note" }, { source: "eval", comment: 'It says "answer later" politely' }]);
  });
});

describe("a reader who may not read a generation's text", () => {
  let id: string;
  const reason = 'It says "answer shown" politely';
  const span = () => ({ from: new Date(Date.now() - 60 * MINUTE), to: new Date(Date.now() + MINUTE) });
  const shown = [{ source: "api", comment: "the key's own note" }, { source: "eval", comment: reason }];
  const withheld = [{ source: "api", comment: "the key's own note" }, { source: "eval", comment: null }];
  const itemOf = <T extends { id: string }>(items: T[]) => items.find((item) => item.id === id)!;
  /** This generation's scores' comments in the export's pages, for the key. */
  const exported = async (key: KeyCaller) => {
    const items = [];
    for await (const page of runtimeGenerationPages(db(), key, prompt.name, span(), 1_000, new Date())) items.push(...page);
    return comments(itemOf(items));
  };

  // A team of its own: what the clearing above did to its team is no concern of these.
  let team: { id: string };
  let prompt: { id: string; name: string };
  let ownKey: KeyCaller;

  beforeAll(async () => {
    team = await world.team("Readers");
    prompt = await createPrompt(world.callers.editor, team.id, { visibility: "organization" });
    ownKey = await world.ingestKey(team.id);
    await world.callers.admin.teams.setGenerationText({ id: team.id, keep: true });
    id = await sendGeneration(ownKey, team.id, prompt, "shown", 5);
    expect(await judge(ownKey, team.id, prompt, id, "shown")).toBe(reason);
  });

  it("sees the judge's reasons no more than the text, in the app (list and one generation) and the services", async () => {
    // The team's viewer reads the text and the reasons; a member of the organization outside the team neither.
    expect(await world.callers.viewer.production.generation({ promptId: prompt.id, id })).toMatchObject({ textReadable: true, input: "question shown", output: "answer shown" });
    expect(comments(await world.callers.viewer.production.generation({ promptId: prompt.id, id }))).toEqual(shown);
    expect(comments(itemOf((await world.callers.viewer.production.generations({ promptId: prompt.id, ...span() })).items))).toEqual(shown);
    const member = await world.callers.orgMember.production.generation({ promptId: prompt.id, id });
    expect(member).toMatchObject({ textReadable: false, input: null, output: null });
    expect(comments(member)).toEqual(withheld);
    expect(comments(itemOf((await world.callers.orgMember.production.generations({ promptId: prompt.id, ...span() })).items))).toEqual(withheld);

    expect(comments(await getGeneration(db(), prompt.id, id, true))).toEqual(shown);
    expect(comments(await getGeneration(db(), prompt.id, id, false))).toEqual(withheld);
    expect(comments(itemOf((await listGenerations(db(), prompt.id, span(), new Date(), true)).items))).toEqual(shown);
    expect(comments(itemOf((await listGenerations(db(), prompt.id, span(), new Date(), false)).items))).toEqual(withheld);
    // Only withheld: still stored.
    expect((await stored(id)).scores.find((score) => score.source === "eval")?.comment).toBe(reason);
  });

  it("through REST /api/v1 (a page, and the export's pages) are shown to the prompt's team's key as the text is; another team's key finds no prompt", async () => {
    expect(comments(itemOf((await runtimeGenerations(db(), ownKey, prompt.name, span(), new Date())).items))).toEqual(shown);
    expect(await exported(ownKey)).toEqual(shown);
    // A key reads its own team's prompts only (organization ones included): never one it may not read the text of.
    await expect(runtimeGenerations(db(), otherKey, prompt.name, span(), new Date())).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("nor does anyone while the text is not shown: the team stopped keeping it (before housekeeping clears it), or keeps none", async () => {
    try {
      await world.callers.admin.teams.setGenerationText({ id: team.id, keep: false });
      // Stored still, shown to no one: not even to the team's own readers.
      expect((await stored(id)).scores.find((score) => score.source === "eval")?.comment).toBe(reason);
      expect(await world.callers.viewer.production.generation({ promptId: prompt.id, id })).toMatchObject({ textKept: false, textReadable: true, input: null, output: null });
      expect(comments(await world.callers.viewer.production.generation({ promptId: prompt.id, id }))).toEqual(withheld);
      expect(comments(itemOf((await world.callers.viewer.production.generations({ promptId: prompt.id, ...span() })).items))).toEqual(withheld);
      expect(comments(itemOf((await runtimeGenerations(db(), ownKey, prompt.name, span(), new Date())).items))).toEqual(withheld);
      expect(await exported(ownKey)).toEqual(withheld);
      // Kept again: what was kept before stays deleted, its reasons with it.
      await world.callers.admin.teams.setGenerationText({ id: team.id, keep: true });
      expect(comments(await world.callers.viewer.production.generation({ promptId: prompt.id, id }))).toEqual(withheld);
      expect(comments(itemOf((await runtimeGenerations(db(), ownKey, prompt.name, span(), new Date())).items))).toEqual(withheld);
    } finally {
      await world.callers.admin.teams.setGenerationText({ id: team.id, keep: true });
    }
  });
});

describe("a judge's reason written while its generation's text is cleared", () => {
  let provider: FakeProvider;
  let judgedTeam: { id: string };
  let judgedPrompt: { id: string; name: string };
  let key: KeyCaller;
  let settings: Parameters<typeof world.callers.admin.production.onlineEvaluation.set>[0];
  const reason = 'It says "answer judged" politely';
  const online = () => (h.services.evaluations as EvaluationQueue).online!;
  const claimStatus = async (id: string) => (await db().$queryRaw<{ status: string }[]>`SELECT status FROM online_evaluation_runs WHERE generation_id = ${id}::uuid`)[0]?.status;
  /** The advisory lock (two keys: this one, 0) the test holds to keep the judged run from recording its verdicts. */
  const GATE = 7_310_410;
  const waitingHere = () => waitingAtGate(db(), GATE);
  /**
   * Holds every update of `table` whose new row matches `when` (SQL over NEW) at the gate until `open`; `close`
   * ends the hold and drops its trigger. The writes wait inside their transaction, as a slow one would.
   */
  async function gateUpdates(name: string, table: string, when: string) {
    await db().$executeRawUnsafe(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF ${when} THEN PERFORM pg_advisory_xact_lock(${GATE}, 0); END IF;
        RETURN NEW;
      END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`);
    const gate = new pg.Client({ connectionString: h.database.url });
    await gate.connect();
    await gate.query("BEGIN");
    await gate.query(`SELECT pg_advisory_xact_lock(${GATE}, 0)`);
    return {
      open: () => gate.query("COMMIT"),
      async close() {
        await gate.end();
        await db().$executeRawUnsafe(`DROP TRIGGER ${name} ON ${table}`);
      },
    };
  }
  /**
   * Holds the judge's answers until `answer()`: the run that asked waits for it, holding nothing of the database (it
   * records its verdicts after, the generation held first, as housekeeping's clearing holds it).
   */
  function holdAnswers() {
    let answer!: () => void;
    provider.answer.hold = new Promise<void>((resolve) => (answer = resolve));
    return {
      asked: () => provider.openAnswers + provider.openStreams,
      answer() {
        answer();
        provider.answer.hold = null;
      },
    };
  }
  /** Housekeeping's clearing statements (the text's, the reasons') waiting on a lock. */
  const clearingWaits = async () =>
    (await db().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'
         AND (query LIKE '%UPDATE generations g SET input = NULL%' OR query LIKE '%UPDATE online_evaluation_runs r SET verdicts%')`)[0]!.n;
  /** The state of the generation's online evaluation job and how many times a worker took it (pg-boss counts each take after the first). */
  const jobAttempts = async (generationId: string) =>
    (await db().$queryRaw<{ state: string; attempts: number }[]>`
      SELECT state::text, retry_count + 1 AS attempts FROM pgboss.job WHERE name = 'online-evaluations' AND data->>'generationId' = ${generationId} ORDER BY created_on DESC LIMIT 1`)[0];
  /** Once the team keeps text again and its clearing is over, a generation it cleared reads as its others do. */
  const clearingOver = async () => {
    await world.callers.admin.teams.setGenerationText({ id: judgedTeam.id, keep: true });
    await db().$executeRaw`UPDATE teams SET generation_text_cleared_before = generation_text_cleared_before - interval '2 minutes' WHERE id = ${judgedTeam.id}::uuid`;
    await db().$transaction((tx) => clearGenerationText(tx, 100));
    expect(await db().team.findUniqueOrThrow({ where: { id: judgedTeam.id }, select: { generationTextClearedBefore: true } })).toEqual({ generationTextClearedBefore: null });
  };

  beforeAll(async () => {
    const { admin, orgAdmin } = world.callers;
    provider = await startFakeProvider();
    await h.services.evaluations.startWorker(db());
    judgedTeam = await world.team("Judged");
    await admin.teams.setGenerationText({ id: judgedTeam.id, keep: true });
    key = await world.ingestKey(judgedTeam.id);
    judgedPrompt = await createPrompt(admin, judgedTeam.id, { visibility: "team" });
    const connection = await orgAdmin.providers.create({
      organizationId: world.organization.id, kind: "openai-compatible", name: "Judge", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey,
    });
    settings = {
      promptId: judgedPrompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 10,
      assertions: [{ name: "polite", assertion: { type: "judge", value: "The answer is polite.", connectionId: connection.id, model: "gpt-4o-mini" } }],
    };
    await admin.production.onlineEvaluation.set(settings);
  });
  afterAll(() => provider.close());

  it("goes too, with its verdict's: the team stopped keeping text and housekeeping cleared it while the judge was answering", async () => {
    provider.answer.text = JSON.stringify({ pass: true, reason });
    const id = await sendGeneration(key, judgedTeam.id, judgedPrompt, "judged", 5);

    // The judge answers only once the test lets it: the run records its verdicts after.
    const judge = holdAnswers();
    try {
      // Claimed by this sweep or the worker's own.
      await online().sweep();
      await expect.poll(judge.asked, { timeout: 15_000, interval: 50 }).toBe(1);
      // Meanwhile the team stops keeping text, and housekeeping clears it (no reason written yet to clear with it).
      await world.callers.admin.teams.setGenerationText({ id: judgedTeam.id, keep: false });
      await db().$transaction((tx) => clearGenerationText(tx, 100));
      expect(await stored(id)).toEqual({ input: null, output: null, scores: [], verdicts: null });
      judge.answer();
      await expect.poll(() => claimStatus(id), { timeout: 15_000, interval: 50 }).toBe("done");
    } finally {
      judge.answer();
      provider.answer.text = null;
    }
    // The verdict is kept, its reason not: nowhere is the text it quoted left.
    expect(await stored(id)).toEqual({ input: null, output: null, scores: [{ source: "eval", name: "polite", value: 1, comment: null }], verdicts: [{ name: "polite", pass: true }] });
    // Nor does it come back once the team's clearing is over.
    await clearingOver();
    const detail = await world.callers.viewer.production.generation({ promptId: judgedPrompt.id, id });
    expect(detail).toMatchObject({ textReadable: true, input: null, output: null });
    expect(comments(detail)).toEqual([{ source: "eval", comment: null }]);
  });

  it("goes when the run recorded the verdicts after housekeeping cleared the text and died before writing the scores: its retry lets the claim go without them", async () => {
    const { admin } = world.callers;
    // The team keeps text, whatever the test before left.
    await clearingOver();
    // Not claimed by a sweep meanwhile: the claim is the test's.
    await admin.production.onlineEvaluation.set({ ...settings, enabled: false });
    const id = await sendGeneration(key, judgedTeam.id, judgedPrompt, "died", 5);
    await admin.teams.setGenerationText({ id: judgedTeam.id, keep: false });
    await db().$transaction((tx) => clearGenerationText(tx, 100));
    // The run's verdicts, recorded once the text was cleared.
    await db().$executeRaw`
      INSERT INTO online_evaluation_runs (generation_id, prompt_id, day, status, verdicts)
      VALUES (${id}::uuid, ${judgedPrompt.id}::uuid, current_date, 'judged', ${JSON.stringify([{ name: "polite", pass: true, reason }])}::jsonb)`;
    await admin.production.onlineEvaluation.set(settings);
    // Its job again (a retry): nothing to evaluate, the text gone. (A sweep makes the queue and its worker, should none have run.)
    await online().sweep();
    await (h.services.evaluations as EvaluationQueue).boss.send("online-evaluations", { generationId: id });
    await expect.poll(() => claimStatus(id), { timeout: 15_000, interval: 50 }).toBe("skipped");
    expect(await stored(id)).toEqual({ input: null, output: null, scores: [], verdicts: [{ name: "polite", pass: true }] });
    await clearingOver();
  });
  it("is not written when the judge answers after the team's clearing ended and it keeps text again: the text it quoted is gone though the generation reads as readable", async () => {
    // The team keeps text, whatever the tests before left.
    await clearingOver();
    provider.answer.text = JSON.stringify({ pass: true, reason });
    const id = await sendGeneration(key, judgedTeam.id, judgedPrompt, "late", 5);
    // The judge answers only once the test lets it: the run records its verdicts after.
    const judge = holdAnswers();
    try {
      await online().sweep();
      await expect.poll(judge.asked, { timeout: 15_000, interval: 50 }).toBe(1);
      // Meanwhile the team stops keeping text, housekeeping clears it, and a run more than a minute later (the
      // team keeping text again by then) ends the team's clearing: the generation reads as readable, its text gone.
      await world.callers.admin.teams.setGenerationText({ id: judgedTeam.id, keep: false });
      await db().$transaction((tx) => clearGenerationText(tx, 100));
      await clearingOver();
      expect(await stored(id)).toEqual({ input: null, output: null, scores: [], verdicts: null });
      // The judge's answer lands.
      judge.answer();
      await expect.poll(() => claimStatus(id), { timeout: 15_000, interval: 50 }).toBe("done");
    } finally {
      judge.answer();
      provider.answer.text = null;
    }
    // The verdict is written, its reason nowhere: neither stored nor shown to the team, who reads the generation's text.
    expect(await stored(id)).toEqual({ input: null, output: null, scores: [{ source: "eval", name: "polite", value: 1, comment: null }], verdicts: [{ name: "polite", pass: true }] });
    const detail = await world.callers.viewer.production.generation({ promptId: judgedPrompt.id, id });
    expect(detail).toMatchObject({ textKept: true, textReadable: true, input: null, output: null });
    expect(comments(detail)).toEqual([{ source: "eval", comment: null }]);
  });

  it("goes with the text when housekeeping's clearing waited for the run writing it (the run found the text stored and held the generation)", async () => {
    await clearingOver();
    provider.answer.text = JSON.stringify({ pass: true, reason });
    const id = await sendGeneration(key, judgedTeam.id, judgedPrompt, "held", 5);
    // The run writes its score's comment (the reason), the generation held, only once the test lets it.
    const gate = await gateUpdates("text_hiding_test_held", "scores", `NEW.generation_id = '${id}'::uuid AND NEW.comment IS NOT NULL`);
    let clearing: Promise<number> | undefined;
    try {
      await online().sweep();
      await expect.poll(waitingHere, { timeout: 15_000, interval: 50 }).toBe(1);
      // The team stops keeping text; housekeeping's clearing waits for the run holding the generation.
      await world.callers.admin.teams.setGenerationText({ id: judgedTeam.id, keep: false });
      clearing = db().$transaction((tx) => clearGenerationText(tx, 100), { timeout: 30_000 });
      await expect.poll(clearingWaits, { timeout: 15_000, interval: 50 }).toBe(1);
      await gate.open();
      expect(await clearing).toBe(1);
      await expect.poll(() => claimStatus(id), { timeout: 15_000, interval: 50 }).toBe("done");
    } finally {
      await gate.close();
      await clearing?.catch(() => undefined);
      provider.answer.text = null;
    }
    // Written before the clearing, cleared by it: nothing of the reason left once the team's clearing is over.
    expect(await stored(id)).toEqual({ input: null, output: null, scores: [{ source: "eval", name: "polite", value: 1, comment: null }], verdicts: [{ name: "polite", pass: true }] });
    await clearingOver();
    expect(comments(await world.callers.viewer.production.generation({ promptId: judgedPrompt.id, id }))).toEqual([{ source: "eval", comment: null }]);
  });

  it("goes, and the verdicts stay, when housekeeping clears the text while a retried claim's run records them: the two wait in turn, neither ended as deadlocked", async () => {
    const { admin } = world.callers;
    await clearingOver();
    // Not claimed by a sweep meanwhile: the claim is the test's.
    await admin.production.onlineEvaluation.set({ ...settings, enabled: false });
    const id = await sendGeneration(key, judgedTeam.id, judgedPrompt, "retried", 5);
    // A run before had the verdict of "polite" (written, its reason with it) and no answer from the judge of "brief":
    // the claim, queued again, holds the verdict, which the clearing must strip of its reason once the text goes.
    await ingestProduction(db(), commandLineCaller(), judgedTeam.id, {
      generations: [],
      scores: [{ generationId: id, promptId: judgedPrompt.id, name: "polite", dataType: "boolean", value: 1, stringValue: "True", comment: reason, source: "eval", externalId: `online:${id}:polite` }],
    });
    await db().$executeRaw`
      INSERT INTO online_evaluation_runs (generation_id, prompt_id, day, status, verdicts)
      VALUES (${id}::uuid, ${judgedPrompt.id}::uuid, current_date, 'queued', ${JSON.stringify([{ name: "polite", pass: true, reason }])}::jsonb)`;
    const brief = { name: "brief", assertion: { ...settings.assertions[0]!.assertion, value: "The answer is brief." } };
    await admin.production.onlineEvaluation.set({ ...settings, assertions: [...settings.assertions, brief] });
    provider.answer.text = JSON.stringify({ pass: true, reason: 'It says "answer retried" briefly' });
    // The run records the verdicts (the judge of "brief" has answered) only once the test lets it.
    const gate = await gateUpdates("text_hiding_test_retried", "online_evaluation_runs", `NEW.generation_id = '${id}'::uuid AND NEW.status = 'judged'`);
    let clearing: Promise<number> | undefined;
    try {
      // Its job again (a retry). (A sweep makes the queue and its worker, should none have run.)
      await online().sweep();
      await (h.services.evaluations as EvaluationQueue).boss.send("online-evaluations", { generationId: id });
      await expect.poll(waitingHere, { timeout: 15_000, interval: 50 }).toBe(1);
      // The team stops keeping text; housekeeping's clearing waits for the run recording the verdicts, which holds the
      // generation (taken first, by both) and then the claim. Were the claim held first, the clearing would hold the
      // generation and wait for the claim, the run then wait for the generation: one of the two ended as deadlocked,
      // the run here (the clearing looks for a deadlock only after 30 s), whose retry would find the claim judging.
      await admin.teams.setGenerationText({ id: judgedTeam.id, keep: false });
      clearing = db().$transaction(async (tx) => {
        await tx.$executeRaw`SET LOCAL deadlock_timeout = '30s'`;
        return clearGenerationText(tx, 100);
      }, { timeout: 30_000 });
      await expect.poll(clearingWaits, { timeout: 15_000, interval: 50 }).toBe(1);
      await gate.open();
      expect(await clearing).toBe(1);
      // Finished (a retry finding the claim judging, the text gone, would let it go as skipped).
      await expect.poll(() => claimStatus(id), { timeout: 20_000, interval: 50 }).toMatch(/^(done|skipped)$/);
    } finally {
      await gate.close();
      await clearing?.catch(() => undefined);
      provider.answer.text = null;
      await admin.production.onlineEvaluation.set(settings);
    }
    // Both verdicts kept, and scored; no reason left of the text, neither the one recorded before nor the new one.
    expect(await stored(id)).toEqual({
      input: null,
      output: null,
      scores: [{ source: "eval", name: "brief", value: 1, comment: null }, { source: "eval", name: "polite", value: 1, comment: null }],
      verdicts: [{ name: "polite", pass: true }, { name: "brief", pass: true }],
    });
    // Run once, not failed and retried.
    expect(await claimStatus(id)).toBe("done");
    expect(await jobAttempts(id)).toEqual({ state: "completed", attempts: 1 });
    await clearingOver();
  });
});
