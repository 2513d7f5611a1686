// Archiving or deleting a prompt that carries `production` is a production change: the right that moves
// `production`, and where the team reviews changes to it an approved archive request, on every door that
// archives or deletes (prompts.archive, prompts.delete, prompts.bulk). And a closed request keeps its diff.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROMPT_MSG, REVIEW_MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, failure, outcome } from "../../../testing/prompts-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
});
afterAll(() => h.close());

/** A team prompt of the author's with versions 1-2, `production` on v1 (moved by the admin), in a team then set to require `requiredApprovals`. */
async function productionPrompt(requiredApprovals: number, withProduction = true) {
  const team = await world.team();
  const prompt = await createPrompt(world.callers.author, team.id, { visibility: "team", template: "Version 1 says {{ question }}." });
  await world.callers.author.promptVersions.create({ promptId: prompt.id, type: "text", template: "Version 2 says {{ question }}." });
  if (withProduction) await world.callers.admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  await h.database.db.team.update({ where: { id: team.id }, data: { requiredApprovals } });
  return { team, prompt };
}

const archivedAt = async (promptId: string) =>
  (await h.database.db.prompt.findUnique({ where: { id: promptId }, select: { archivedAt: true } }))?.archivedAt ?? null;
const exists = async (promptId: string) => (await h.database.db.prompt.count({ where: { id: promptId } })) === 1;

describe("archiving a prompt that carries production, without reviews", () => {
  it("takes the right that moves production: the author (an editor) is refused, a team admin archives it", async () => {
    const { prompt } = await productionPrompt(0);
    expect(await failure(world.callers.author.prompts.archive({ id: prompt.id }))).toEqual({ code: "FORBIDDEN", message: PROMPT_MSG.removeProduction });
    expect(await archivedAt(prompt.id)).toBeNull();
    expect(await outcome(world.callers.admin.prompts.archive({ id: prompt.id }))).toBe("OK");
    expect(await archivedAt(prompt.id)).not.toBeNull();
  });

  it("a prompt without production is archived by its author as before", async () => {
    const { prompt } = await productionPrompt(0, false);
    expect(await outcome(world.callers.author.prompts.archive({ id: prompt.id }))).toBe("OK");
  });

  it("bulk archive refuses the whole set, naming the prompt that carries production", async () => {
    const { team, prompt } = await productionPrompt(0);
    const other = await createPrompt(world.callers.author, team.id, { visibility: "team", template: "Other." });
    const result = await world.callers.author.prompts.bulk({ promptIds: [prompt.id, other.id], action: { kind: "archive" } });
    expect(result).toMatchObject({ applied: false, refused: [{ id: prompt.id, reason: PROMPT_MSG.removeProduction }] });
    expect(await archivedAt(other.id)).toBeNull();
  });
});

describe("archiving a prompt that carries production, under required review", () => {
  it("nobody archives it directly, a team admin neither, through prompts.archive or prompts.bulk", async () => {
    const { prompt } = await productionPrompt(1);
    for (const api of [world.callers.admin, world.callers.superUser, world.callers.author]) {
      expect(await failure(api.prompts.archive({ id: prompt.id }))).toEqual({ code: "PRECONDITION_FAILED", message: REVIEW_MSG.archiveReviewRequired });
      expect(await api.prompts.bulk({ promptIds: [prompt.id], action: { kind: "archive" } })).toMatchObject({
        applied: false,
        refused: [{ id: prompt.id, reason: REVIEW_MSG.archiveReviewRequired }],
      });
    }
    expect(await archivedAt(prompt.id)).toBeNull();
  });

  it("goes through an archive request: the author asks, another team admin approves, the prompt is archived and may then be deleted", async () => {
    const { prompt } = await productionPrompt(1);
    const { id } = await world.callers.author.changeRequests.createArchive({ promptId: prompt.id, message: "Retired" });
    // Recorded as a label request is: "Review requested" in the audit log and the prompt's activity.
    const requested = await h.database.db.auditEvent.findFirst({ where: { action: "change_request.create", targetId: id }, select: { actorId: true, promptId: true, targetName: true, after: true } });
    expect(requested).toMatchObject({ actorId: world.accounts.author.id, promptId: prompt.id, targetName: "archive (production on v1)", after: { archive: true, message: "Retired" } });
    expect(await failure(world.callers.author.changeRequests.createArchive({ promptId: prompt.id }))).toEqual({ code: "CONFLICT", message: REVIEW_MSG.duplicateArchive });
    expect(await world.callers.admin.changeRequests.get({ id })).toMatchObject({ kind: "archive", baseVersion: 1, proposedVersion: null, status: "open", proposed: null });
    expect(await outcome(world.callers.editor.changeRequests.approve({ id }))).toBe("FORBIDDEN");
    expect(await archivedAt(prompt.id)).toBeNull();
    expect(await world.callers.admin.changeRequests.approve({ id })).toMatchObject({ status: "approved" });
    expect(await archivedAt(prompt.id)).not.toBeNull();
    const told = await h.database.db.notification.findFirst({ where: { userId: world.accounts.author.id, kind: "review_decided", changeRequestId: id }, select: { data: true } });
    expect(told?.data).toMatchObject({ decision: "archived" });
    expect(await outcome(world.callers.admin.prompts.delete({ id: prompt.id }))).toBe("OK");
    expect(await exists(prompt.id)).toBe(false);
  });

  it("an archive request goes stale when production moves, and is refused for a prompt without production", async () => {
    const { prompt } = await productionPrompt(1);
    const { id } = await world.callers.author.changeRequests.createArchive({ promptId: prompt.id });
    await h.database.db.promptLabel.update({ where: { promptId_name: { promptId: prompt.id, name: "production" } }, data: { version: 2 } });
    expect(await failure(world.callers.admin.changeRequests.approve({ id }))).toEqual({ code: "PRECONDITION_FAILED", message: REVIEW_MSG.stale });
    expect(await archivedAt(prompt.id)).toBeNull();
    const { prompt: bare } = await productionPrompt(1, false);
    expect(await failure(world.callers.author.changeRequests.createArchive({ promptId: bare.id }))).toEqual({ code: "CONFLICT", message: REVIEW_MSG.archiveWithoutProduction });
  });

  it("an archived prompt that carries production and was archived without review cannot be deleted", async () => {
    const { team, prompt } = await productionPrompt(0);
    await world.callers.admin.prompts.archive({ id: prompt.id });
    await h.database.db.team.update({ where: { id: team.id }, data: { requiredApprovals: 1 } });
    expect(await failure(world.callers.admin.prompts.delete({ id: prompt.id }))).toEqual({ code: "PRECONDITION_FAILED", message: REVIEW_MSG.deleteReviewRequired });
    expect(await exists(prompt.id)).toBe(true);
  });

  it("a private prompt is exempt: keys do not serve it", async () => {
    const team = await world.team();
    const prompt = await createPrompt(world.callers.author, team.id, { visibility: "private", template: "Mine." });
    await h.database.db.promptLabel.create({ data: { promptId: prompt.id, name: "production", version: 1 } });
    await h.database.db.team.update({ where: { id: team.id }, data: { requiredApprovals: 1 } });
    expect(await outcome(world.callers.author.prompts.archive({ id: prompt.id }))).toBe("OK");
  });
});

describe("a closed request", () => {
  it("keeps the versions it compared: after approval the diff is still from its base to its proposed version", async () => {
    const { prompt } = await productionPrompt(1);
    const { id } = await world.callers.author.changeRequests.create({ promptId: prompt.id, label: "production", version: 2, message: "Ship v2" });
    await world.callers.admin.changeRequests.approve({ id });
    const seen = await world.callers.author.changeRequests.get({ id });
    expect(seen).toMatchObject({ status: "approved", baseVersion: 1, proposedVersion: 2, currentVersion: 2 });
    expect(seen.base?.template).toBe("Version 1 says {{ question }}.");
    expect(seen.proposed?.template).toBe("Version 2 says {{ question }}.");
  });
});
