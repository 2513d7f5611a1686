// A direct move of `production` reads the team's review rule again in its own transaction, after the
// prompt's lock, holding the team's row: an admin turning required approvals on while another admin moves,
// splits or promotes production, or saves a version labelled production, directly (the early check passed on the old rule) gets the move refused as
// the early check would refuse it, and production stays as it was; a split or a split's end is asked for as a
// change request instead, as the early check would have asked. A rollback stays direct whatever the rule.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REVIEW_MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import { whileReviewsTurnOn } from "../../../testing/review-race-support.ts";
import type { Caller } from "../../services/access/visibility.ts";
import { loadPrompt } from "../../services/prompts/loaded-prompt.ts";
import { createVersion } from "../../services/prompts/prompt-versions.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
});
afterAll(() => h.close());

/** A team not yet reviewing production, its prompt with versions 1-3, production on v1 split onto v2 at 10 %. */
async function reviewWorld() {
  const team = await world.team();
  const { admin, author } = world.callers;
  const prompt = await createPrompt(author, team.id, { visibility: "team", template: "Version 1" });
  for (const n of [2, 3]) await author.promptVersions.create({ promptId: prompt.id, type: "text", template: `Version ${n}` });
  await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  await admin.promptLabels.split({ promptId: prompt.id, label: "production", version: 2, weight: 10 });
  return { team, prompt };
}

const production = (promptId: string) =>
  h.database.db.promptLabel.findUnique({ where: { promptId_name: { promptId, name: "production" } }, select: { version: true, candidateVersion: true, candidateWeight: true } });

describe("required approvals turned on while production is changed directly", () => {
  const refused = { code: "PRECONDITION_FAILED", message: REVIEW_MSG.reviewRequired };

  it("a move onto another version is refused, production unchanged", async () => {
    const { team, prompt } = await reviewWorld();
    const { admin } = world.callers;
    expect(await whileReviewsTurnOn(h.database.db, team.id, () => admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 3 }))).toEqual(refused);
    expect(await production(prompt.id)).toEqual({ version: 1, candidateVersion: 2, candidateWeight: 10 });
  });

  it("a split is asked for as a change request instead, production unchanged", async () => {
    const { team, prompt } = await reviewWorld();
    const { admin } = world.callers;
    const answer = await whileReviewsTurnOn(h.database.db, team.id, () => admin.promptLabels.split({ promptId: prompt.id, label: "production", version: 3, weight: 20 }));
    expect(answer).toEqual({ applied: false, changeRequestId: expect.any(String) });
    expect(await production(prompt.id)).toEqual({ version: 1, candidateVersion: 2, candidateWeight: 10 });
    const { changeRequestId } = answer as { changeRequestId: string };
    expect(await admin.changeRequests.get({ id: changeRequestId })).toMatchObject({ baseVersion: 1, proposedVersion: 3, proposedWeight: 20, status: "open" });
  });

  it("a new version labelled production (Langfuse's API, MCP) is refused, no version saved", async () => {
    const { team, prompt } = await reviewWorld();
    const caller: Caller = { userId: world.accounts.admin.id, role: "user", isSuperUser: false };
    const loaded = (await loadPrompt(h.database.db, caller, prompt.id))!;
    const context = { actor: { kind: "user" as const, userId: caller.userId }, ip: null, now: new Date() };
    const save = () => createVersion(h.database.db, caller, loaded, { promptId: prompt.id, type: "text", template: "Version 4" }, context.now, context, ["production"]);
    expect(await whileReviewsTurnOn(h.database.db, team.id, save)).toMatchObject({ code: "PRECONDITION", message: REVIEW_MSG.reviewRequired });
    expect(await production(prompt.id)).toEqual({ version: 1, candidateVersion: 2, candidateWeight: 10 });
    expect(await h.database.db.promptVersion.count({ where: { promptId: prompt.id } })).toBe(3);
  });

  it("a promotion of the candidate is asked for as a change request instead, production unchanged; a rollback still goes through", async () => {
    const { team, prompt } = await reviewWorld();
    const { admin } = world.callers;
    const answer = await whileReviewsTurnOn(h.database.db, team.id, () => admin.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "promote" }));
    expect(answer).toEqual({ applied: false, changeRequestId: expect.any(String) });
    expect(await production(prompt.id)).toEqual({ version: 1, candidateVersion: 2, candidateWeight: 10 });
    const { changeRequestId } = answer as { changeRequestId: string };
    expect(await admin.changeRequests.get({ id: changeRequestId })).toMatchObject({ baseVersion: 1, proposedVersion: 2, proposedWeight: null, status: "open" });
    expect(await admin.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "rollback" })).toEqual({ applied: true, changeRequestId: null });
    expect(await production(prompt.id)).toEqual({ version: 1, candidateVersion: null, candidateWeight: null });
  });
});
