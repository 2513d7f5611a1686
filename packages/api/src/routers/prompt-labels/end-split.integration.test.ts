// Ending a split ends the split its caller saw: one changed since (another admin split the label again)
// is refused as a conflict, with the label left as it is and no change request made; a split still as
// seen is promoted or rolled back as before, directly or, where the team reviews production, by a request
// that names the version shown.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROMPT_MSG, type SplitOutcome } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, failure } from "../../../testing/prompts-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
});
afterAll(() => h.close());

/** A prompt with versions 1-3, production on v1 split to v2 at 10 %, in a team requiring `requiredApprovals`. */
async function splitWorld(requiredApprovals: number) {
  const team = await world.team();
  const { admin, author } = world.callers;
  const prompt = await createPrompt(author, team.id, { visibility: "team", template: "Version 1" });
  for (const n of [2, 3]) await author.promptVersions.create({ promptId: prompt.id, type: "text", template: `Version ${n}` });
  await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  await admin.promptLabels.split({ promptId: prompt.id, label: "production", version: 2, weight: 10 });
  await admin.teams.updateSettings({ id: team.id, requiredApprovals });
  return prompt;
}

/** production as the prompt page shows it to the admin: what its Promote and Roll back buttons send. */
async function shown(promptId: string) {
  const label = (await world.callers.admin.prompts.get({ id: promptId })).labels.find((each) => each.name === "production")!;
  return { version: label.version, split: label.split! };
}

/** Another admin (the organization's) splits production again behind the first admin's page; where reviews are required, the first approves it. */
async function splitAgain(promptId: string, version: number, weight: number) {
  const { admin, orgAdmin } = world.callers;
  const answer = await orgAdmin.promptLabels.split({ promptId, label: "production", version, weight });
  if (answer.changeRequestId) await admin.changeRequests.approve({ id: answer.changeRequestId });
}

const production = (promptId: string) =>
  h.database.db.promptLabel.findUnique({ where: { promptId_name: { promptId, name: "production" } }, select: { version: true, candidateVersion: true, candidateWeight: true } });

/** The prompt's change requests, whatever their status. */
const requests = (promptId: string) => h.database.db.changeRequest.count({ where: { promptId } });

const outcomes: SplitOutcome[] = ["promote", "rollback"];

describe("ending a split that changed since it was shown", () => {
  for (const requiredApprovals of [0, 1]) {
    for (const outcome of outcomes) {
      it(`${outcome}, ${requiredApprovals ? "where the team reviews production" : "directly"}: another candidate is refused, the label and the requests untouched`, async () => {
        const prompt = await splitWorld(requiredApprovals);
        const expected = await shown(prompt.id);
        expect(expected).toEqual({ version: 1, split: { version: 2, weight: 10 } });
        await splitAgain(prompt.id, 3, 10);

        const before = await requests(prompt.id);

        const ending = world.callers.admin.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome, expected });
        expect(await failure(ending)).toEqual({ code: "CONFLICT", message: PROMPT_MSG.splitChanged });
        expect(await production(prompt.id)).toEqual({ version: 1, candidateVersion: 3, candidateWeight: 10 });
        expect(await requests(prompt.id)).toBe(before);
      });
    }
  }

  it("the same candidate at another weight is another split: refused too", async () => {
    const prompt = await splitWorld(0);
    const expected = await shown(prompt.id);
    await splitAgain(prompt.id, 2, 50);
    expect(await failure(world.callers.admin.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "promote", expected }))).toEqual({
      code: "CONFLICT",
      message: PROMPT_MSG.splitChanged,
    });
    expect(await production(prompt.id)).toEqual({ version: 1, candidateVersion: 2, candidateWeight: 50 });
  });

  it("an editor asking for the end of a changed split makes no request", async () => {
    const prompt = await splitWorld(1);
    const expected = await shown(prompt.id);
    await splitAgain(prompt.id, 3, 10);
    const before = await requests(prompt.id);
    expect(await failure(world.callers.editor.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "rollback", expected }))).toEqual({
      code: "CONFLICT",
      message: PROMPT_MSG.splitChanged,
    });
    expect(await requests(prompt.id)).toBe(before);
  });
});

describe("ending the split that was shown", () => {
  it("directly: promote moves production to the candidate shown, rollback to its version", async () => {
    const { admin } = world.callers;
    const promoted = await splitWorld(0);
    await splitAgain(promoted.id, 3, 20);
    // Seen again after the change, it is the split shown now that is ended.
    const expected = await shown(promoted.id);
    expect(await admin.promptLabels.endSplit({ promptId: promoted.id, label: "production", outcome: "promote", expected })).toEqual({ applied: true, changeRequestId: null });
    expect(await production(promoted.id)).toEqual({ version: 3, candidateVersion: null, candidateWeight: null });

    const rolledBack = await splitWorld(0);
    const seen = await shown(rolledBack.id);
    expect(await admin.promptLabels.endSplit({ promptId: rolledBack.id, label: "production", outcome: "rollback", expected: seen })).toEqual({ applied: true, changeRequestId: null });
    expect(await production(rolledBack.id)).toEqual({ version: 1, candidateVersion: null, candidateWeight: null });
  });

  it("where the team reviews production: the request made names the candidate shown, and its approval promotes it", async () => {
    const prompt = await splitWorld(1);
    const { admin, orgAdmin } = world.callers;
    const expected = await shown(prompt.id);
    const asked = await admin.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "promote", expected });
    expect(asked.applied).toBe(false);
    expect(await admin.changeRequests.get({ id: asked.changeRequestId! })).toMatchObject({ baseVersion: 1, proposedVersion: 2, proposedWeight: null, status: "open" });
    await orgAdmin.changeRequests.approve({ id: asked.changeRequestId! });
    expect(await production(prompt.id)).toEqual({ version: 2, candidateVersion: null, candidateWeight: null });
  });
});
