// Never trapped in an incident: where the team requires a review and a pass rate, its admin still
// rolls `production` back to a version that held it before, directly through promptLabels.set, audited
// as a rollback and told to followers and webhooks; a version that never held it still needs the review,
// and an editor is refused both. Who may approve a request is named on it and on the team, and an
// organization admin approves a request of the team's only admin (never their own).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPROVERS_TEXT, PROMPT_MSG, REVIEW_MSG, approversWarning } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, failure } from "../../../testing/prompts-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
});
afterAll(() => h.close());

/**
 * A team whose one admin moved production to v1 then v2 (v3 never held it), then turned on one required
 * approval and a 90 % pass rate (no version has an evaluation); a webhook on label moves.
 */
async function incident() {
  const team = await world.team();
  const { admin, author } = world.callers;
  const prompt = await createPrompt(author, team.id, { visibility: "team", template: "Version 1" });
  for (const n of [2, 3]) await author.promptVersions.create({ promptId: prompt.id, type: "text", template: `Version ${n}` });
  await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  h.clock.advance(1000);
  await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 2 });
  await admin.teams.updateSettings({ id: team.id, requiredApprovals: 1, requiredPassRate: 90 });
  await admin.webhooks.create({ teamId: team.id, url: "https://hooks.example.com/promptly", events: ["prompt.label.moved"] });
  h.clock.advance(1000);
  return { team, prompt };
}

const production = async (promptId: string) =>
  h.database.db.promptLabel.findUnique({ where: { promptId_name: { promptId, name: "production" } }, select: { version: true, candidateVersion: true } });

describe("rolling production back where the team requires a review", () => {
  it("the only admin rolls back to a version that held production: direct, audited as a rollback, notified and sent to webhooks", async () => {
    const { team, prompt } = await incident();
    const { admin, author } = world.callers;
    // The ordinary move is still refused, as the review requires.
    expect(await failure(admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 3 }))).toEqual({ code: "PRECONDITION_FAILED", message: REVIEW_MSG.reviewRequired });
    expect(await admin.promptLabels.rollbackTargets({ promptId: prompt.id })).toEqual({ versions: [1] });

    expect(await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 })).toEqual({ label: "production", version: 1 });
    expect(await production(prompt.id)).toEqual({ version: 1, candidateVersion: null });

    const activity = (await author.auditLog.forPrompt({ promptId: prompt.id })).items;
    expect(activity[0]).toMatchObject({ action: "prompt.label.rolled_back", before: { label: "production", version: 2 }, after: { label: "production", version: 1 } });

    const bell = await author.notifications.list();
    expect(bell.items[0]).toMatchObject({ kind: "production_moved", text: `Ada Admin rolled production of ${prompt.name} back to v1`, href: `/prompts/${prompt.id}?tab=history` });

    const deliveries = await h.database.db.webhookDelivery.findMany({ where: { subscription: { teamId: team.id } }, select: { event: true, payload: true } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      event: "prompt.label.moved",
      payload: { type: "prompt.label.moved", data: { label: "production", version: 1, previousVersion: 2, rollback: true, prompt: { id: prompt.id } } },
    });
    // Now v2 is the one production could go back to; v1 (where it is) is not offered.
    expect(await author.promptLabels.rollbackTargets({ promptId: prompt.id })).toEqual({ versions: [2] });
  });

  it("a version that never held production still needs the review; an editor is refused both", async () => {
    const { prompt } = await incident();
    const { admin, editor } = world.callers;
    expect(await failure(admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 3 }))).toEqual({ code: "PRECONDITION_FAILED", message: REVIEW_MSG.reviewRequired });
    expect(await failure(editor.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 }))).toEqual({ code: "FORBIDDEN", message: PROMPT_MSG.protectedLabel });
    expect(await failure(editor.promptLabels.set({ promptId: prompt.id, label: "production", version: 3 }))).toEqual({ code: "PRECONDITION_FAILED", message: REVIEW_MSG.reviewRequired });
    // Pointing production where it already is is no rollback: it stays a move under review.
    expect(await failure(admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 2 }))).toEqual({ code: "PRECONDITION_FAILED", message: REVIEW_MSG.reviewRequired });
    expect(await production(prompt.id)).toEqual({ version: 2, candidateVersion: null });
    const actions = (await world.callers.author.auditLog.forPrompt({ promptId: prompt.id })).items.map((event) => event.action);
    expect(actions).not.toContain("prompt.label.rolled_back");
  });

  it("without reviews a move back to a version that held production is audited as a rollback too", async () => {
    const team = await world.team();
    const { admin, author } = world.callers;
    const prompt = await createPrompt(author, team.id, { visibility: "team", template: "One" });
    await author.promptVersions.create({ promptId: prompt.id, type: "text", template: "Two" });
    await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
    await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 2 });
    await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
    const moves = (await author.auditLog.forPrompt({ promptId: prompt.id })).items.filter((event) => event.action.startsWith("prompt.label"));
    expect(moves.map((event) => event.action)).toEqual(["prompt.label.rolled_back", "prompt.label.set", "prompt.label.set"]);
  });
});

describe("who may approve", () => {
  it("an organization admin approves the only team admin's request; the request and the team name who may approve", async () => {
    const { team, prompt } = await incident();
    const { admin, orgAdmin, viewer } = world.callers;
    const { id } = await admin.changeRequests.create({ promptId: prompt.id, label: "production", version: 3, message: "Try v3" });
    expect(await failure(admin.changeRequests.approve({ id }))).toEqual({ code: "FORBIDDEN", message: REVIEW_MSG.ownApproval });

    const names = (people: { fullName: string | null }[]) => people.map((person) => person.fullName);
    const detail = await viewer.changeRequests.get({ id });
    // The author is left out: the organization's admin is who can approve it.
    expect(names(detail.approvers)).toEqual(["Olga Orgadmin"]);
    const reviewers = await viewer.teams.reviewers({ id: team.id });
    expect({ teamAdmins: names(reviewers.teamAdmins), organizationAdmins: names(reviewers.organizationAdmins) }).toEqual({ teamAdmins: ["Ada Admin"], organizationAdmins: ["Olga Orgadmin"] });
    const named = (people: { id: string; fullName: string | null }[]) => people.map((person) => ({ id: person.id, name: person.fullName ?? "" }));
    expect(approversWarning(named(reviewers.teamAdmins), named(reviewers.organizationAdmins))).toBe(
      "Ada Admin is this team's only admin: their own change requests can only be approved by an organization admin (Olga Orgadmin).",
    );
    expect(APPROVERS_TEXT).toContain("organization's admins");

    // The pass rate still gates a version that never held production (it has no evaluation).
    expect(await failure(orgAdmin.changeRequests.approve({ id }))).toMatchObject({ code: "PRECONDITION_FAILED" });
    await h.database.db.team.update({ where: { id: team.id }, data: { requiredPassRate: null } });
    expect(await orgAdmin.changeRequests.approve({ id, comment: "Fine" })).toMatchObject({ status: "approved" });
    expect(await production(prompt.id)).toEqual({ version: 3, candidateVersion: null });
  });
});
