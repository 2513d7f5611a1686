// Evaluations through tRPC callers, on the real job queue (pg-boss on the test database)
// and a local provider: started, followed, read as a matrix and compared; refused to those who may not;
// 429s retried and counted; a cancel that stops the calls in flight within a second.
import { beforeAll, describe, expect, it } from "vitest";
import type { Prisma } from "@promptly/db";
import { EVALUATION_MSG, RUN_MSG, type Assertion } from "@promptly/shared";
import type { Harness } from "../../../testing/harness.ts";
import type { FakeProvider } from "../../../testing/fake-provider.ts";
import { useEvaluationWorld, type EvaluationWorld } from "../../../testing/evaluations-support.ts";
import { failure } from "../../../testing/teams-support.ts";
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
    expect(weather.variables).toEqual({ question: "the weather" });
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
