// Evaluations through tRPC callers, on the real job queue (pg-boss on the test database)
// and a local provider: started, followed, read as a matrix and compared; refused to those who may not;
// 429s retried and counted; a cancel that stops the calls in flight within a second.
import { beforeAll, describe, expect, it } from "vitest";
import type { Prisma } from "@promptly/db";
import { EVALUATION_MSG, RUN_MSG, type Assertion } from "@promptly/shared";
import type { Harness } from "../../../testing/harness.ts";
import type { FakeProvider } from "../../../testing/fake-provider.ts";
import { useEvaluationWorld, type EvaluationWorld } from "../../../testing/evaluations-support.ts";
import { failure, outcome } from "../../../testing/teams-support.ts";
import { createPrompt } from "../../../testing/prompts-support.ts";

const fixture = useEvaluationWorld();
const { finished } = fixture;
let h: Harness;
let world: EvaluationWorld["world"];
let provider: FakeProvider;
let team: { id: string };
let connection: { id: string };
beforeAll(() => void ({ h, world, provider, team, connection } = fixture));

const MODEL = "gpt-4o-mini";

/** A prompt whose version 1 answers politely and version 2 does not, with `cases` test cases (written as the test-cases procedures write them). */
async function promptWithCases(cases: { variables: Record<string, unknown>; assertions: Assertion[] }[]) {
  const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team", template: "Answer {{ question }} politely." });
  await world.callers.editor.promptVersions.create({ promptId: prompt.id, type: "text", template: "Answer {{ question }}." });
  const createdAt = Date.now();
  await h.services.db.testCase.createMany({
    data: cases.map((testCase, index) => ({
      promptId: prompt.id, variables: testCase.variables as Prisma.InputJsonObject, assertions: testCase.assertions as Prisma.InputJsonArray, createdAt: new Date(createdAt + index),
    })),
  });
  return prompt;
}

const politeCase = (question: string) => ({ variables: { question }, assertions: [{ type: "contains" as const, value: "politely" }] });

describe("evaluations.results and compare are bounded; evaluations.item reads one item whole", () => {
  it("reads near-limit items a page of previews at a time, far smaller than the items; item gives one whole to the prompt's readers only", async () => {
    const prompt = await promptWithCases([]);
    const { organizationId } = await h.services.db.prompt.findUniqueOrThrow({ where: { id: prompt.id }, select: { organizationId: true } });
    const { id } = await h.services.db.evaluation.create({ data: { organizationId, promptId: prompt.id, versions: [1, 2], connectionName: "Local", status: "done" } });
    // Written straight to the table: 30 cases on two versions, each item near the limits (200,000
    // characters of output; its case's 25 variables of 3,900 and 100,000 of expected output; 20 verdicts
    // on long assertions with long reasons). Version 1 passed every case, version 2 failed them.
    // The first variable's name is longer than a preview shows.
    const longName = "a".repeat(150);
    const variables = { [longName]: "x", ...Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`v${String(i).padStart(2, "0")}`, `${i}`.repeat(3_900)])) };
    const expected = "e".repeat(100_000);
    const results = Array.from({ length: 20 }, (_, i) => ({ type: "contains", value: `${i % 10}`.repeat(10_000), pass: i !== 0, reason: "r".repeat(1_000) }));
    const output = (position: number, version: number) => `${position}:${version}:`.padEnd(200_000, "o");
    await h.services.db.evaluationItem.createMany({
      data: [1, 2].flatMap((version) =>
        Array.from({ length: 30 }, (_, position) => ({
          evaluationId: id, version, position, variables, expected, results, status: version === 1 ? "passed" as const : "failed" as const, output: output(position, version), latencyMs: 5, attempts: 1,
        })),
      ),
    });
    const whole = JSON.stringify(await h.services.db.evaluationItem.findMany({ where: { evaluationId: id, position: { lt: 20 } } })).length;

    const first = await world.callers.viewer.evaluations.results({ id, limit: 20 });
    expect(first.cases.map((testCase) => testCase.position)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(first.nextCursor).toBe(19);
    expect(JSON.stringify(first).length).toBeLessThan(whole / 30);
    const [testCase] = first.cases;
    expect(testCase!.variableCount).toBe(25);
    expect(testCase!.variables.map((variable) => variable.name)).toEqual(Object.keys(variables).slice(0, 20).map((name) => name.slice(0, 100)));
    expect(testCase!.variables[0]).toEqual({ name: "a".repeat(100), nameCut: true, value: "x", cut: false });
    expect(testCase!.variables[4]).toEqual({ name: "v03", nameCut: false, value: "3".repeat(300), cut: true });
    expect(testCase!.expected).toEqual({ text: "e".repeat(300), cut: true });
    expect(testCase!.versions.map((cell) => [cell.version, cell.status, cell.output, cell.outputCut])).toEqual([
      [1, "passed", output(0, 1).slice(0, 300), true],
      [2, "failed", output(0, 2).slice(0, 300), true],
    ]);
    expect(testCase!.versions[0]!.results![0]).toEqual({ type: "contains", value: "0".repeat(100), pass: false, reason: "r".repeat(500), reasonCut: true });
    const rest = await world.callers.viewer.evaluations.results({ id, limit: 20, cursor: first.nextCursor! });
    expect(rest.cases.map((testCase) => testCase.position)).toEqual(Array.from({ length: 10 }, (_, i) => 20 + i));
    expect(rest.nextCursor).toBeNull();

    const compared = await world.callers.viewer.evaluations.compare({ id, base: 1, candidate: 2, limit: 20 });
    expect(compared).toMatchObject({ flippedCount: 30, nextCursor: 19 });
    expect(compared.flipped.map((flip) => [flip.position, flip.base.output, flip.candidate.output])).toEqual(
      Array.from({ length: 20 }, (_, i) => [i, output(i, 1).slice(0, 300), output(i, 2).slice(0, 300)]),
    );
    expect(JSON.stringify(compared).length).toBeLessThan(whole / 30);
    const comparedRest = await world.callers.viewer.evaluations.compare({ id, base: 1, candidate: 2, limit: 20, cursor: 19 });
    expect(comparedRest).toMatchObject({ flippedCount: 30, nextCursor: null });
    expect(comparedRest.flipped.map((flip) => flip.position)).toEqual(Array.from({ length: 10 }, (_, i) => 20 + i));

    const item = await world.callers.viewer.evaluations.item({ id, position: 7, version: 2 });
    expect(item).toMatchObject({ position: 7, version: 2, status: "failed", output: output(7, 2), variables, expected, results });

    // By someone who may not read the prompt, or an item the evaluation does not have: not found.
    for (const kind of ["outsider", "orgMember"] as const) {
      expect(await outcome(world.callers[kind].evaluations.item({ id, position: 7, version: 2 })), kind).toBe("NOT_FOUND");
      expect(await outcome(world.callers[kind].evaluations.compare({ id, base: 1, candidate: 2 })), kind).toBe("NOT_FOUND");
    }
    expect(await failure(world.callers.viewer.evaluations.item({ id, position: 30, version: 2 }))).toMatchObject({ code: "NOT_FOUND", message: EVALUATION_MSG.evaluationItemNotFound });
    expect(await outcome(world.callers.viewer.evaluations.item({ id, position: 7, version: 3 }))).toBe("NOT_FOUND");

    // A position or a version past PostgreSQL's int: refused, not a failed query.
    const huge = 2 ** 31;
    expect(await outcome(world.callers.viewer.evaluations.results({ id, cursor: huge }))).toBe("BAD_REQUEST");
    expect(await outcome(world.callers.viewer.evaluations.compare({ id, base: 1, candidate: huge }))).toBe("BAD_REQUEST");
    expect(await outcome(world.callers.viewer.evaluations.compare({ id, base: 1, candidate: 2, cursor: huge }))).toBe("BAD_REQUEST");
    expect(await outcome(world.callers.viewer.evaluations.item({ id, position: huge, version: 2 }))).toBe("BAD_REQUEST");
    expect(await outcome(world.callers.viewer.evaluations.item({ id, position: 7, version: huge }))).toBe("BAD_REQUEST");
  });

  it("item gives a case's variables in its preview's order: the template's own first, in its order, then the others by code point", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team", template: "On {{ topic }}, answer {{ question }}." });
    const { organizationId } = await h.services.db.prompt.findUniqueOrThrow({ where: { id: prompt.id }, select: { organizationId: true } });
    const { id } = await h.services.db.evaluation.create({ data: { organizationId, promptId: prompt.id, versions: [1], connectionName: "Local", status: "done" } });
    // PostgreSQL keeps a jsonb object's keys shortest first: b, Zed, extra, topic, question.
    const variables = { question: "why", extra: "more", topic: "rain", b: "bee", Zed: "zed" };
    await h.services.db.evaluationItem.create({ data: { evaluationId: id, version: 1, position: 0, variables, status: "passed", output: "o", attempts: 1 } });

    const order = ["topic", "question", "Zed", "b", "extra"];
    const [previewed] = (await world.callers.viewer.evaluations.results({ id, limit: 20 })).cases;
    expect(previewed!.variables.map((variable) => variable.name)).toEqual(order);
    const item = await world.callers.viewer.evaluations.item({ id, position: 0, version: 1 });
    expect(Object.keys(item.variables)).toEqual(order);
    expect(item.variables).toEqual(variables);
  });

  it("shows a case's error (up to 2,000 characters, a longer one cut with the cut said) and its detail whole, and a judge's reason cut short with the cut said", async () => {
    const prompt = await promptWithCases([]);
    const { organizationId } = await h.services.db.prompt.findUniqueOrThrow({ where: { id: prompt.id }, select: { organizationId: true } });
    const { id } = await h.services.db.evaluation.create({ data: { organizationId, promptId: prompt.id, versions: [1], connectionName: "Local", status: "done" } });
    // A detail as long as describeProviderError keeps; an error longer than any of ours.
    const error = "E".repeat(700);
    const errorDetail = "d".repeat(1_000);
    const results = [{ type: "judge", value: "polite", pass: false, reason: "r".repeat(501) }, { type: "judge", value: "short", pass: true, reason: "r".repeat(500) }];
    await h.services.db.evaluationItem.createMany({
      data: [
        { evaluationId: id, version: 1, position: 0, status: "error", error, errorDetail, attempts: 1 },
        { evaluationId: id, version: 1, position: 1, status: "failed", output: "o", results, latencyMs: 5, attempts: 1 },
        // A prompt's refusal of a case's values naming every variable and option: megabytes at the limits.
        { evaluationId: id, version: 1, position: 2, status: "error", error: "R".repeat(100_000), attempts: 1 },
      ],
    });
    const page = await world.callers.viewer.evaluations.results({ id });
    expect(page.cases[0]!.versions[0]).toMatchObject({ error, errorCut: false, errorDetail });
    expect(page.cases[2]!.versions[0]).toMatchObject({ error: "R".repeat(2_000), errorCut: true });
    expect((await world.callers.viewer.evaluations.item({ id, position: 2, version: 1 })).error).toBe("R".repeat(100_000));
    expect(page.cases[1]!.versions[0]!.results).toEqual([
      { type: "judge", value: "polite", pass: false, reason: "r".repeat(500), reasonCut: true },
      { type: "judge", value: "short", pass: true, reason: "r".repeat(500) },
    ]);
  });
  it("shows an item's variables as the prompt's cases list shows its case's: the template's own first, in its order", async () => {
    const variables = { aside: "kept from an older version", question: "the weather" };
    const prompt = await promptWithCases([{ variables, assertions: [] }]);
    const { organizationId } = await h.services.db.prompt.findUniqueOrThrow({ where: { id: prompt.id }, select: { organizationId: true } });
    const { id } = await h.services.db.evaluation.create({ data: { organizationId, promptId: prompt.id, versions: [1], connectionName: "Local", status: "done" } });
    await h.services.db.evaluationItem.create({ data: { evaluationId: id, version: 1, position: 0, status: "passed", variables, output: "o", attempts: 1 } });
    const names = (list: { name: string }[]) => list.map((variable) => variable.name);
    const [listed] = await world.callers.viewer.testCases.list({ promptId: prompt.id });
    expect(names(listed!.variables)).toEqual(["question", "aside"]);
    expect(names((await world.callers.viewer.evaluations.results({ id })).cases[0]!.variables)).toEqual(["question", "aside"]);
  });
});

describe("an evaluation", () => {
  it("runs every case against each version, and answers its summary, its matrix and the cases that flipped", async () => {
    const prompt = await promptWithCases([
      politeCase("the weather"),
      { variables: { question: "a joke" }, assertions: [{ type: "contains", value: "Echo" }] },
      politeCase("the time"),
      // Breaks the contract (no question): an item in error with compile's message, on both versions.
      { variables: {}, assertions: [] },
    ]);
    const callsBefore = provider.calls.length;
    const started = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1, 2], model: MODEL, connectionId: connection.id });
    expect(started).toMatchObject({ status: "queued", total: 8, done: 0, failed: 0, errors: 0, firstError: null, connectionName: "Local", model: MODEL });

    const summary = await finished(started.id);
    // Six cases judged, two of them failed; the broken case could not run on either version.
    expect(summary).toMatchObject({ status: "done", total: 8, done: 6, failed: 2, errors: 2, firstError: expect.stringMatching(/question/) });
    expect(summary.finishedAt).toBeInstanceOf(Date);
    // Version 1: its three judged cases pass; version 2 only the one that asks for "Echo" (the broken case is in neither rate).
    expect(summary.versions.map(({ version, passed, failed, errors, passRate }) => ({ version, passed, failed, errors, passRate }))).toEqual([
      { version: 1, passed: 3, failed: 0, errors: 1, passRate: 100 },
      { version: 2, passed: 1, failed: 2, errors: 1, passRate: 33.3 },
    ]);
    for (const version of summary.versions) {
      expect(version.p50Ms).toBeGreaterThanOrEqual(0);
      expect(version.tokens).toBeGreaterThan(0);
      // gpt-4o-mini has a default price.
      expect(version.cost).toBeGreaterThan(0);
    }
    // One provider call per case that compiles, per version; none for the broken case.
    expect(provider.calls.length - callsBefore).toBe(6);

    const { cases } = await world.callers.viewer.evaluations.results({ id: started.id });
    expect(cases.map((testCase) => testCase.position)).toEqual([0, 1, 2, 3]);
    const weather = cases[0]!;
    expect(weather.variables).toEqual([{ name: "question", nameCut: false, value: "the weather", cut: false }]);
    expect(weather.versions.map((cell) => [cell.version, cell.status, cell.output])).toEqual([
      [1, "passed", "Echo: Answer the weather politely."],
      [2, "failed", "Echo: Answer the weather."],
    ]);
    expect(weather.versions[1]!.results).toEqual([{ type: "contains", value: "politely", pass: false, reason: "The output does not contain \"politely\"" }]);
    expect(weather.versions[0]).toMatchObject({ attempts: 1, rateLimited: 0 });
    expect(cases[3]!.versions.map((cell) => cell.status)).toEqual(["error", "error"]);
    expect(cases[3]!.versions[0]!.error).toMatch(/question/);

    const comparison = await world.callers.viewer.evaluations.compare({ id: started.id, base: 1, candidate: 2 });
    expect(comparison.flipped.map((testCase) => [testCase.position, testCase.base.status, testCase.candidate.status, testCase.base.output, testCase.candidate.output])).toEqual([
      [0, "passed", "failed", "Echo: Answer the weather politely.", "Echo: Answer the weather."],
      [2, "passed", "failed", "Echo: Answer the time politely.", "Echo: Answer the time."],
    ]);
    expect((await failure(world.callers.viewer.evaluations.compare({ id: started.id, base: 1, candidate: 3 }))).message).toBe(RUN_MSG.versionNotFound);

    // Listed newest first; the latest finished one of both versions is this one.
    const second = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [2], model: MODEL });
    await finished(second.id);
    const page = await world.callers.viewer.evaluations.list({ promptId: prompt.id, limit: 1 });
    expect(page.items.map((item) => item.id)).toEqual([second.id]);
    const next = await world.callers.viewer.evaluations.list({ promptId: prompt.id, limit: 1, cursor: page.nextCursor! });
    expect(next).toEqual({ items: [expect.objectContaining({ id: started.id })], nextCursor: null });
    expect((await world.callers.viewer.evaluations.latestFor({ promptId: prompt.id, versions: [1, 2] }))?.id).toBe(started.id);
    expect((await world.callers.viewer.evaluations.latestFor({ promptId: prompt.id, versions: [2] }))?.id).toBe(second.id);
  });

  it("is refused, with nothing recorded, to a viewer, to another organization, and on a prompt without cases", async () => {
    const prompt = await promptWithCases([politeCase("the weather")]);
    const before = await h.services.db.evaluation.count();
    expect(await failure(world.callers.viewer.evaluations.start({ promptId: prompt.id, versions: [1], model: MODEL }))).toMatchObject({ code: "FORBIDDEN" });
    expect(await failure(world.callers.outsider.evaluations.start({ promptId: prompt.id, versions: [1], model: MODEL }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await failure(world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1, 7], model: MODEL }))).toMatchObject({ message: RUN_MSG.versionNotFound });
    const empty = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    expect(await failure(world.callers.editor.evaluations.start({ promptId: empty.id, versions: [1], model: MODEL }))).toMatchObject({ message: EVALUATION_MSG.noTestCases });
    expect(await h.services.db.evaluation.count()).toBe(before);

    const started = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1], model: MODEL });
    await finished(started.id);
    // Another organization's member cannot read it (it does not exist for them), nor cancel it.
    expect(await failure(world.callers.outsider.evaluations.get({ id: started.id }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await failure(world.callers.outsider.evaluations.results({ id: started.id }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await failure(world.callers.viewer.evaluations.cancel({ id: started.id }))).toMatchObject({ code: "FORBIDDEN" });
    expect(await failure(world.callers.editor.evaluations.cancel({ id: started.id }))).toMatchObject({ message: EVALUATION_MSG.notCancellable });
  });

  it("retries the provider's 429s with waits and counts them on the items", async () => {
    const prompt = await promptWithCases([politeCase("one"), politeCase("two")]);
    provider.failNext = { status: 429, count: 3 };
    try {
      const started = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1], model: MODEL });
      expect(await finished(started.id)).toMatchObject({ status: "done", done: 2, failed: 0, errors: 0, versions: [{ version: 1, passRate: 100 }] });
      const items = await h.services.db.evaluationItem.findMany({ where: { evaluationId: started.id }, select: { attempts: true, rateLimited: true, status: true } });
      expect(items.every((item) => item.status === "passed")).toBe(true);
      expect(items.reduce((sum, item) => sum + item.rateLimited, 0)).toBe(3);
      expect(items.reduce((sum, item) => sum + item.attempts, 0)).toBe(5);
    } finally {
      provider.failNext = null;
    }
  });

  it("stops within a second when cancelled: pending cases cancelled, the calls in flight aborted, nothing recorded after", async () => {
    const prompt = await promptWithCases(Array.from({ length: 30 }, (_, index) => politeCase(`question ${index}`)));
    provider.answer.firstTokenDelayMs = 20_000;
    try {
      const started = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1], model: MODEL });
      await expect.poll(() => provider.openAnswers, { timeout: 5_000, interval: 20 }).toBeGreaterThan(0);
      expect((await world.callers.viewer.evaluations.get({ id: started.id })).status).toBe("running");
      const cancelledAt = performance.now();
      expect(await world.callers.editor.evaluations.cancel({ id: started.id })).toMatchObject({ status: "cancelled", done: 0 });
      await expect.poll(() => provider.openAnswers, { timeout: 1_000, interval: 10 }).toBe(0);
      expect(performance.now() - cancelledAt).toBeLessThan(1_000);
      const statuses = await h.services.db.evaluationItem.groupBy({ by: ["status"], where: { evaluationId: started.id }, _count: true });
      expect(statuses).toEqual([{ status: "cancelled", _count: 30 }]);
      expect((await world.callers.viewer.evaluations.get({ id: started.id })).status).toBe("cancelled");
    } finally {
      provider.answer.firstTokenDelayMs = 0;
    }
  });
});
