// Review with evidence: the team's required pass rate, set at team admin
// level; an approval of a `production` move refused below it with the figures (or without any
// evaluation), the reason shown on the request before anyone tries; a new passing evaluation lifts the
// block. changeRequests.evidence answers the candidate's latest evaluation beside production's on the
// same cases. Evaluations are written as rows here: the engine that runs them is tested on its own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVALUATION_MSG } from "@promptly/shared";
import { createHarness, outcome as callOutcome, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, failure, outcome } from "../../../testing/prompts-support.ts";
import { latestEvaluationPassRate } from "../../services/evaluations/evidence.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
});
afterAll(() => h.close());

/** A fresh team (one approval required, `requiredPassRate`), a prompt with versions 1-3, production on 1, ten test cases. */
async function gatedPrompt(requiredPassRate: number | null) {
  const team = await world.team();
  const prompt = await createPrompt(world.callers.author, team.id, { visibility: "team", template: "Version 1 answers {{ question }}." });
  for (const n of [2, 3]) await world.callers.author.promptVersions.create({ promptId: prompt.id, type: "text", template: `Version ${n} answers {{ question }}.` });
  await world.callers.admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  await world.callers.admin.teams.updateSettings({ id: team.id, requiredApprovals: 1, requiredPassRate });
  const cases = [];
  for (let n = 0; n < 10; n++) cases.push(await h.database.db.testCase.create({ data: { promptId: prompt.id, variables: { question: `q${n}` } }, select: { id: true } }));
  return { team, prompt, cases };
}

let clock = Date.parse("2026-11-01T00:00:00Z");

/**
 * An evaluation of `passed` (passes per version out of the ten cases), `status` done unless said,
 * started after every one before it; each item 100 + position ms, 10 tokens, $0.001.
 */
async function evaluation(prompt: { id: string }, cases: { id: string }[], passed: Record<number, number>, status: "done" | "running" = "done") {
  const organizationId = world.organization.id;
  const createdAt = new Date((clock += 60_000));
  const versions = Object.keys(passed).map(Number);
  const row = await h.database.db.evaluation.create({
    data: { organizationId, promptId: prompt.id, versions, connectionName: "Local", status, createdAt, finishedAt: status === "done" ? createdAt : null },
    select: { id: true },
  });
  await h.database.db.evaluationItem.createMany({
    data: versions.flatMap((version) =>
      cases.map((testCase, position) => ({
        evaluationId: row.id, testCaseId: testCase.id, version, position, status: position < passed[version]! ? ("passed" as const) : ("failed" as const),
        output: "…", latencyMs: 100 + position, inputTokens: 6, outputTokens: 4, cost: 0.001, attempts: 1,
      })),
    ),
  });
  return row.id;
}

describe("the team's required pass rate", () => {
  it("is set at team admin level, 0-100 or off, and teams.get shows it", async () => {
    const team = await world.team();
    expect((await world.callers.viewer.teams.get({ id: team.id })).requiredPassRate).toBeNull();
    expect(await outcome(world.callers.editor.teams.updateSettings({ id: team.id, requiredPassRate: 90 }))).toBe("FORBIDDEN");
    expect(await world.callers.admin.teams.updateSettings({ id: team.id, requiredPassRate: 90 })).toEqual({ requiredApprovals: 0, requiredPassRate: 90 });
    expect((await world.callers.viewer.teams.get({ id: team.id })).requiredPassRate).toBe(90);
    for (const wrong of [101, -1, 89.5]) {
      expect(await failure(world.callers.admin.teams.updateSettings({ id: team.id, requiredPassRate: wrong }))).toEqual({ code: "BAD_REQUEST", message: EVALUATION_MSG.passRateInvalid });
    }
    // Setting one leaves the other as it is; null turns the gate off.
    expect(await world.callers.admin.teams.updateSettings({ id: team.id, requiredApprovals: 2 })).toEqual({ requiredApprovals: 2, requiredPassRate: 90 });
    expect(await world.callers.admin.teams.updateSettings({ id: team.id, requiredPassRate: null })).toEqual({ requiredApprovals: 2, requiredPassRate: null });
    const audited = await h.database.db.auditEvent.findMany({ where: { teamId: team.id, action: "team.settings" }, orderBy: { createdAt: "asc" }, select: { before: true, after: true } });
    expect(audited.at(0)).toEqual({ before: { requiredPassRate: null }, after: { requiredPassRate: 90 } });
    // Setting nothing changes nothing and records nothing.
    expect(await world.callers.admin.teams.updateSettings({ id: team.id })).toEqual({ requiredApprovals: 2, requiredPassRate: null });
    expect(await h.database.db.auditEvent.count({ where: { teamId: team.id, action: "team.settings" } })).toBe(audited.length);
  });
});

describe("approving a production move with a required pass rate", () => {
  it("is refused below the threshold with both figures, shown on the request beforehand; a passing evaluation lifts the block", async () => {
    const { prompt, cases } = await gatedPrompt(90);
    const request = await world.callers.author.changeRequests.create({ promptId: prompt.id, label: "production", version: 2, message: "Better answers" });

    // No evaluation of version 2 yet.
    expect(await callOutcome(world.callers.admin.changeRequests.approve({ id: request.id }), { reason: true })).toEqual({
      code: "PRECONDITION_FAILED", message: EVALUATION_MSG.notEvaluated(90), reason: "NOT_EVALUATED",
    });

    // Version 2 at 70 % beside production (version 1) at 100 %, in one evaluation.
    const first = await evaluation(prompt, cases, { 1: 10, 2: 7 });
    expect(await latestEvaluationPassRate(h.database.db, prompt.id, 2)).toBe(70);
    expect(await callOutcome(world.callers.admin.changeRequests.approve({ id: request.id }), { reason: true })).toEqual({
      code: "PRECONDITION_FAILED", message: EVALUATION_MSG.passRateTooLow(70, 90), reason: "PASS_RATE_TOO_LOW",
    });
    expect(EVALUATION_MSG.passRateTooLow(70, 90)).toContain("70 %");
    expect(await h.database.db.changeRequestReview.count({ where: { changeRequestId: request.id } })).toBe(0);
    expect((await h.database.db.promptLabel.findUniqueOrThrow({ where: { promptId_name: { promptId: prompt.id, name: "production" } } })).version).toBe(1);
    const detail = await world.callers.admin.changeRequests.get({ id: request.id });
    expect([detail.can.approve, detail.approveBlockedReason]).toEqual([false, EVALUATION_MSG.passRateTooLow(70, 90)]);

    // The reviewer sees both evaluations on the request.
    expect(await world.callers.viewer.changeRequests.evidence({ id: request.id })).toEqual({
      requiredPassRate: 90,
      sameCases: true,
      candidate: { evaluationId: first, version: 2, createdAt: expect.any(Date), finishedAt: expect.any(Date), total: 10, passed: 7, failed: 3, errors: 0, firstError: null, passRate: 70, p50Ms: 105, tokens: 100, cost: expect.closeTo(0.01, 9) },
      production: { evaluationId: first, version: 1, createdAt: expect.any(Date), finishedAt: expect.any(Date), total: 10, passed: 10, failed: 0, errors: 0, firstError: null, passRate: 100, p50Ms: 105, tokens: 100, cost: expect.closeTo(0.01, 9) },
    });

    // An evaluation still running counts for nothing; a finished one at 100 % lets the approval through.
    await evaluation(prompt, cases, { 2: 10 }, "running");
    expect(await outcome(world.callers.admin.changeRequests.approve({ id: request.id }))).toBe("PRECONDITION_FAILED");
    const second = await evaluation(prompt, cases, { 2: 10 });
    expect((await world.callers.admin.changeRequests.get({ id: request.id })).approveBlockedReason).toBeNull();
    const evidence = await world.callers.admin.changeRequests.evidence({ id: request.id });
    // Production (version 1) was not in the new evaluation: its own latest, over the same ten cases.
    expect([evidence.candidate?.evaluationId, evidence.candidate?.passRate, evidence.production?.evaluationId, evidence.sameCases]).toEqual([second, 100, first, true]);
    expect(await world.callers.admin.changeRequests.approve({ id: request.id })).toMatchObject({ status: "approved" });
    expect((await h.database.db.promptLabel.findUniqueOrThrow({ where: { promptId_name: { promptId: prompt.id, name: "production" } } })).version).toBe(2);
  });

  it("passes at exactly the threshold, rounds the shown rate down, and leaves teams without one alone", async () => {
    const { prompt, cases } = await gatedPrompt(90);
    await evaluation(prompt, cases, { 3: 9 });
    const request = await world.callers.author.changeRequests.create({ promptId: prompt.id, label: "production", version: 3, message: "" });
    expect(await world.callers.admin.changeRequests.approve({ id: request.id })).toMatchObject({ status: "approved" });

    // 2 of 3 cases: 66.6 %, never shown as 66.7 %.
    const three = await gatedPrompt(null);
    await evaluation(three.prompt, three.cases.slice(0, 3), { 2: 2 });
    expect(await latestEvaluationPassRate(h.database.db, three.prompt.id, 2)).toBe(66.6);
    const ungated = await world.callers.author.changeRequests.create({ promptId: three.prompt.id, label: "production", version: 2, message: "" });
    expect(await world.callers.admin.changeRequests.approve({ id: ungated.id })).toMatchObject({ status: "approved" });
    expect(await world.callers.admin.changeRequests.evidence({ id: ungated.id })).toMatchObject({ requiredPassRate: null, candidate: { passRate: 66.6 }, production: { version: 2 } });
  });

  it("evidence is for readers of the prompt only", async () => {
    const { prompt } = await gatedPrompt(null);
    const request = await world.callers.author.changeRequests.create({ promptId: prompt.id, label: "production", version: 2, message: "" });
    expect(await outcome(world.callers.orgMember.changeRequests.evidence({ id: request.id }))).toBe("NOT_FOUND");
    expect(await world.callers.viewer.changeRequests.evidence({ id: request.id })).toEqual({ requiredPassRate: null, candidate: null, production: null, sameCases: false });
  });
});
