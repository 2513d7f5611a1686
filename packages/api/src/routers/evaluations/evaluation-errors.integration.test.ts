// Cases that could not run, through tRPC callers on the real job queue: a connection where nothing
// listens (or a provider refusing a call) leaves its cases in error, counted apart from the cases whose
// assertions failed and out of the pass rate; evaluations.retryErrors runs only those cases again in
// the same evaluation once the connection answers, refused while the evaluation runs, once cancelled,
// or with nothing in error; and a required pass rate is met only by an evaluation where every case ran.
import { createServer } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import type { Prisma } from "@promptly/db";
import { EVALUATION_MSG } from "@promptly/shared";
import type { Harness } from "../../../testing/harness.ts";
import { outcome } from "../../../testing/harness.ts";
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
/** A base URL where nothing listens: a port a server of our own held and gave back. */
let nowhere: string;
beforeAll(async () => {
  ({ h, world, provider, team, connection } = fixture);
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port: held } = server.address() as { port: number };
      server.close(() => resolve(held));
    });
  });
  nowhere = `http://127.0.0.1:${port}/v1`;
});

const MODEL = "gpt-4o-mini";

/** A prompt (version 1 answers politely, version 2 does not) with `cases`, each asking for a polite answer unless it says otherwise. */
async function promptWithCases(teamId: string, cases: { variables: Record<string, unknown>; assertions?: { type: "contains"; value: string }[] }[]) {
  const prompt = await createPrompt(world.callers.editor, teamId, { visibility: "team", template: "Answer {{ question }} politely." });
  await world.callers.editor.promptVersions.create({ promptId: prompt.id, type: "text", template: "Answer {{ question }}." });
  const createdAt = Date.now();
  await h.services.db.testCase.createMany({
    data: cases.map((testCase, index) => ({
      promptId: prompt.id,
      variables: testCase.variables as Prisma.InputJsonObject,
      assertions: (testCase.assertions ?? [{ type: "contains", value: "politely" }]) as Prisma.InputJsonArray,
      createdAt: new Date(createdAt + index),
    })),
  });
  return prompt;
}

const questions = (count: number) => Array.from({ length: count }, (_, index) => ({ variables: { question: `question ${index}` } }));

/** A connection of the organization named `name` at `baseUrl`. */
const connectionAt = (name: string, baseUrl: string) =>
  world.callers.orgAdmin.providers.create({ organizationId: world.organization.id, kind: "openai-compatible", name, baseUrl, apiKey: provider.apiKey });

const statuses = async (evaluationId: string) =>
  (await h.services.db.evaluationItem.findMany({ where: { evaluationId }, orderBy: [{ version: "asc" }, { position: "asc" }], select: { status: true } })).map((item) => item.status);

describe("cases that could not run", () => {
  it("on a connection where nothing listens are errors with the provider's reason: not failures, and no pass rate", async () => {
    const unreachable = await connectionAt("Unreachable", nowhere);
    const prompt = await promptWithCases(team.id, questions(3));
    const started = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1, 2], model: MODEL, connectionId: unreachable.id });
    const summary = await finished(started.id);
    // The first one's reason in words, not Node's code.
    expect(summary).toMatchObject({ status: "done", total: 6, done: 0, failed: 0, errors: 6 });
    expect(summary.firstError).toMatch(/^Could not reach Unreachable at 127\.0\.0\.1:\d+: is the server running\?$/);
    expect(summary.versions.map(({ version, passed, failed, errors, passRate }) => ({ version, passed, failed, errors, passRate }))).toEqual([
      { version: 1, passed: 0, failed: 0, errors: 3, passRate: null },
      { version: 2, passed: 0, failed: 0, errors: 3, passRate: null },
    ]);
    // The list answers the same figures.
    const [listed] = (await world.callers.viewer.evaluations.list({ promptId: prompt.id })).items;
    expect(listed).toMatchObject({ id: started.id, errors: 6, firstError: summary.firstError, versions: [{ passRate: null }, { passRate: null }] });
  });

  it("are counted apart from failures, and the pass rate is the passed over those judged", async () => {
    const prompt = await promptWithCases(team.id, [
      ...questions(2),
      { variables: { question: "a joke" }, assertions: [{ type: "contains", value: "Echo" }] },
      // Breaks the contract (no question): a case that cannot run, on both versions.
      { variables: {} },
    ]);
    const started = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1, 2], model: MODEL, connectionId: connection.id });
    const summary = await finished(started.id);
    // Version 1 passes its three judged cases; version 2 only the joke: 1 of 3, not 1 of 4.
    expect(summary).toMatchObject({ status: "done", total: 8, done: 6, failed: 2, errors: 2, firstError: expect.stringMatching(/question/) });
    expect(summary.versions.map(({ version, passed, failed, errors, passRate }) => ({ version, passed, failed, errors, passRate }))).toEqual([
      { version: 1, passed: 3, failed: 0, errors: 1, passRate: 100 },
      { version: 2, passed: 1, failed: 2, errors: 1, passRate: 33.3 },
    ]);
  });
});

describe("evaluations.retryErrors", () => {
  it("runs only the cases in error again, in the same evaluation, with the connection as it is now", async () => {
    const mendable = await connectionAt("Mendable", provider.openaiBaseUrl);
    const prompt = await promptWithCases(team.id, questions(4));
    // The provider refuses two calls (a 400 is not retried): two cases in error, two passed.
    provider.failNext = { status: 400, count: 2 };
    let started;
    try {
      started = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1], model: MODEL, connectionId: mendable.id });
      expect(await finished(started.id)).toMatchObject({ status: "done", done: 2, failed: 0, errors: 2, firstError: expect.stringContaining("(status 400)"), versions: [{ passRate: 100 }] });
    } finally {
      provider.failNext = null;
    }
    const before = await h.services.db.evaluationItem.findMany({ where: { evaluationId: started.id }, select: { id: true, status: true, finishedAt: true } });
    const passedBefore = before.filter((item) => item.status === "passed");
    expect(passedBefore).toHaveLength(2);

    // Retried while the connection points where nothing listens: the same two cases, in error again.
    await world.callers.orgAdmin.providers.update({ id: mendable.id, baseUrl: nowhere, apiKey: provider.apiKey });
    const callsBefore = provider.calls.length;
    expect(await world.callers.editor.evaluations.retryErrors({ id: started.id })).toMatchObject({ id: started.id, status: "running", errors: 0, done: 2, finishedAt: null });
    expect(await finished(started.id)).toMatchObject({ status: "done", done: 2, errors: 2, firstError: expect.stringMatching(/^Could not reach .+ at 127\.0\.0\.1:\d+: is the server running\?$/) });
    expect(provider.calls.length).toBe(callsBefore);

    // Mended: the retry calls the provider for those two cases only, and they pass.
    await world.callers.orgAdmin.providers.update({ id: mendable.id, baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
    await world.callers.editor.evaluations.retryErrors({ id: started.id });
    const summary = await finished(started.id);
    expect(summary).toMatchObject({ status: "done", total: 4, done: 4, failed: 0, errors: 0, firstError: null, versions: [{ passed: 4, failed: 0, errors: 0, passRate: 100 }] });
    expect(summary.finishedAt).toBeInstanceOf(Date);
    expect(provider.calls.length - callsBefore).toBe(2);
    expect(await statuses(started.id)).toEqual(["passed", "passed", "passed", "passed"]);
    // The cases that had passed were not run again.
    const after = await h.services.db.evaluationItem.findMany({ where: { id: { in: passedBefore.map((item) => item.id) } }, select: { id: true, status: true, finishedAt: true } });
    expect(after.sort((a, b) => a.id.localeCompare(b.id))).toEqual(passedBefore.sort((a, b) => a.id.localeCompare(b.id)));
    expect(await h.services.db.evaluation.count({ where: { promptId: prompt.id } })).toBe(1);
  });

  it("is refused while the evaluation runs, once cancelled, with nothing in error, and to those who may not start evaluations", async () => {
    const prompt = await promptWithCases(team.id, questions(2));
    provider.answer.firstTokenDelayMs = 20_000;
    try {
      const running = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1], model: MODEL, connectionId: connection.id });
      expect(await outcome(world.callers.editor.evaluations.retryErrors({ id: running.id }), { reason: true })).toEqual({
        code: "CONFLICT", message: EVALUATION_MSG.retryStillRunning, reason: "EVALUATION_RUNNING",
      });
      await world.callers.editor.evaluations.cancel({ id: running.id });
      expect(await failure(world.callers.editor.evaluations.retryErrors({ id: running.id }))).toEqual({ code: "CONFLICT", message: EVALUATION_MSG.retryCancelled });
    } finally {
      provider.answer.firstTokenDelayMs = 0;
    }
    const clean = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1], model: MODEL, connectionId: connection.id });
    expect(await finished(clean.id)).toMatchObject({ status: "done", errors: 0 });
    expect(await failure(world.callers.editor.evaluations.retryErrors({ id: clean.id }))).toEqual({ code: "CONFLICT", message: EVALUATION_MSG.retryNothing });

    const unreachable = await connectionAt("Nowhere", nowhere);
    const broken = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1], model: MODEL, connectionId: unreachable.id });
    expect(await finished(broken.id)).toMatchObject({ errors: 2 });
    expect(await failure(world.callers.viewer.evaluations.retryErrors({ id: broken.id }))).toMatchObject({ code: "FORBIDDEN" });
    expect(await failure(world.callers.outsider.evaluations.retryErrors({ id: broken.id }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await statuses(broken.id)).toEqual(["error", "error"]);
  });
});

describe("a required pass rate", () => {
  it("is met only by an evaluation where every case ran: refused with how many could not, whatever the rate, lifted once retried", async () => {
    const gated = await world.team(`Gated ${Date.now()}`);
    const prompt = await promptWithCases(gated.id, questions(4));
    await world.callers.admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 2 });
    await world.callers.admin.teams.updateSettings({ id: gated.id, requiredApprovals: 1, requiredPassRate: 60 });
    const request = await world.callers.editor.changeRequests.create({ promptId: prompt.id, label: "production", version: 1, message: "Polite again" });

    // The provider refuses two calls: the two cases judged pass (100 %), two could not run.
    provider.failNext = { status: 400, count: 2 };
    let started;
    try {
      started = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1], model: MODEL, connectionId: connection.id });
      expect(await finished(started.id)).toMatchObject({ status: "done", errors: 2, versions: [{ passed: 2, failed: 0, errors: 2, passRate: 100 }] });
    } finally {
      provider.failNext = null;
    }

    const refusal = { code: "PRECONDITION_FAILED", message: EVALUATION_MSG.passRateWithErrors(2, 60), reason: "CASES_NOT_RUN" };
    expect(refusal.message).toContain("2 cases could not run");
    expect(await outcome(world.callers.admin.changeRequests.approve({ id: request.id }), { reason: true })).toEqual(refusal);
    expect((await world.callers.admin.changeRequests.get({ id: request.id })).approveBlockedReason).toBe(refusal.message);
    expect((await world.callers.viewer.changeRequests.evidence({ id: request.id })).candidate).toMatchObject({
      evaluationId: started.id, total: 4, passed: 2, failed: 0, errors: 2, firstError: expect.stringContaining("(status 400)"), passRate: 100,
    });
    expect((await h.services.db.promptLabel.findUniqueOrThrow({ where: { promptId_name: { promptId: prompt.id, name: "production" } } })).version).toBe(2);

    // The cases in error retried: every case ran and passed, and the approval goes through.
    await world.callers.editor.evaluations.retryErrors({ id: started.id });
    expect(await finished(started.id)).toMatchObject({ status: "done", errors: 0, versions: [{ passed: 4, passRate: 100 }] });
    expect((await world.callers.viewer.changeRequests.evidence({ id: request.id })).candidate).toMatchObject({ errors: 0, firstError: null, passRate: 100 });
    expect(await world.callers.admin.changeRequests.approve({ id: request.id })).toMatchObject({ status: "approved" });
  });
});
