// The other doors that change what `production` serves read the team's review rule again in their
// transaction, after the prompts' locks, holding the team's row (as promptLabels does, see
// prompt-labels/review-race): an admin turning required approvals on while a bulk action, an archive, a
// delete, an import or the sharing of a private prompt changes production (the rule read before was the
// old one) gets it refused as that door refuses it under reviews, and nothing changes.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LIBRARY_MSG, REVIEW_MSG, type LibraryDocument } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import { reviewsTurningOn, someoneWaits, whileReviewsTurnOn } from "../../../testing/review-race-support.ts";
import type { Caller } from "../../services/access/visibility.ts";
import { loadPrompt } from "../../services/prompts/loaded-prompt.ts";
import { deleteLivePrompt } from "../../services/prompts/prompt-writes.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
});
afterAll(() => h.close());

/** A team not yet reviewing production, its prompt shared with the team, versions 1-2, production on v1. */
async function productionWorld() {
  const team = await world.team();
  const { admin, author } = world.callers;
  const prompt = await createPrompt(author, team.id, { visibility: "team", template: "Version 1" });
  await author.promptVersions.create({ promptId: prompt.id, type: "text", template: "Version 2" });
  await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  return { team, prompt };
}

const state = (promptId: string) =>
  h.database.db.prompt.findUniqueOrThrow({
    where: { id: promptId },
    select: { archivedAt: true, latestVersion: true, labels: { where: { name: "production" }, select: { version: true, candidateVersion: true } } },
  });

describe("required approvals turned on while another door changes production", () => {
  it("a bulk move of production is refused, naming the prompt; production unchanged", async () => {
    const { team, prompt } = await productionWorld();
    const move = () => world.callers.admin.prompts.bulk({ promptIds: [prompt.id], action: { kind: "setLabel", label: "production" } });
    expect(await whileReviewsTurnOn(h.database.db, team.id, move)).toMatchObject({ applied: false, refused: [{ id: prompt.id, reason: REVIEW_MSG.reviewRequired }] });
    expect(await state(prompt.id)).toMatchObject({ archivedAt: null, labels: [{ version: 1, candidateVersion: null }] });
  });

  it("a bulk archive of a prompt carrying production is refused; the prompt stays live", async () => {
    const { team, prompt } = await productionWorld();
    const archive = () => world.callers.admin.prompts.bulk({ promptIds: [prompt.id], action: { kind: "archive" } });
    expect(await whileReviewsTurnOn(h.database.db, team.id, archive)).toMatchObject({ applied: false, refused: [{ id: prompt.id, reason: REVIEW_MSG.archiveReviewRequired }] });
    expect(await state(prompt.id)).toMatchObject({ archivedAt: null, labels: [{ version: 1 }] });
  });

  it("a bulk archive of prompts carrying no production does not wait for the settings change (it holds no team row)", async () => {
    const { team } = await productionWorld();
    const plain = await createPrompt(world.callers.author, team.id, { visibility: "team", template: "No production" });
    const { commit, pid } = await reviewsTurningOn(h.database.db, team.id);
    let settled = false;
    const archived = world.callers.admin.prompts.bulk({ promptIds: [plain.id], action: { kind: "archive" } }).finally(() => (settled = true));
    // Which comes first: the archive's answer, or a backend waiting for a lock (the team's row, held by the settings change).
    const waited = vi.waitFor(async () => expect(settled || (await someoneWaits(h.database.db, pid))).toBe(true), { timeout: 20_000, interval: 20 });
    const first = await Promise.race([archived.then(() => "archived"), waited.then(() => (settled ? "archived" : "waited"))]);
    await commit();
    expect(await archived).toMatchObject({ refused: [] });
    expect(first).toBe("archived");
    expect(await state(plain.id)).toMatchObject({ archivedAt: expect.any(Date) });
  });

  it("archiving a prompt carrying production is refused; the prompt stays live", async () => {
    const { team, prompt } = await productionWorld();
    const archive = () => world.callers.admin.prompts.archive({ id: prompt.id });
    expect(await whileReviewsTurnOn(h.database.db, team.id, archive)).toEqual({ code: "PRECONDITION_FAILED", message: REVIEW_MSG.archiveReviewRequired });
    expect(await state(prompt.id)).toMatchObject({ archivedAt: null, labels: [{ version: 1 }] });
  });

  it("deleting a version that ends production's split (Langfuse's DELETE) is refused; nothing deleted", async () => {
    const { team, prompt } = await productionWorld();
    await world.callers.admin.promptLabels.split({ promptId: prompt.id, label: "production", version: 2, weight: 30 });
    const caller: Caller = { userId: world.accounts.admin.id, role: "user", isSuperUser: false };
    const loaded = (await loadPrompt(h.database.db, caller, prompt.id))!;
    const context = { actor: { kind: "user" as const, userId: caller.userId }, ip: null, now: new Date() };
    const remove = () => deleteLivePrompt(h.database.db, caller, loaded, prompt.name, { version: 2 }, context);
    expect(await whileReviewsTurnOn(h.database.db, team.id, remove)).toMatchObject({ code: "PRECONDITION", message: REVIEW_MSG.deleteReviewRequired });
    expect(await state(prompt.id)).toMatchObject({ latestVersion: 2, labels: [{ version: 1, candidateVersion: 2 }] });
    expect(await h.database.db.promptVersion.count({ where: { promptId: prompt.id } })).toBe(2);
  });

  it("an import moving production leaves it (needs review), the rest of the import applied", async () => {
    const { team, prompt } = await productionWorld();
    const { admin } = world.callers;
    const document = JSON.parse((await admin.library.export({ teamId: team.id, format: "json" })).data) as LibraryDocument;
    const imported = document.prompts.find((item) => item.name === prompt.name)!;
    imported.labels = { ...imported.labels, production: 2, staging: 2 };
    const plan = await whileReviewsTurnOn(h.database.db, team.id, () => admin.library.applyImport({ teamId: team.id, document }));
    expect((plan as { items: { name: string; notes: string[] }[] }).items.find((item) => item.name === prompt.name)!.notes).toContain(LIBRARY_MSG.productionNeedsReview);
    expect(await state(prompt.id)).toMatchObject({ labels: [{ version: 1 }] });
    expect(await h.database.db.promptLabel.findUnique({ where: { promptId_name: { promptId: prompt.id, name: "staging" } }, select: { version: true } })).toEqual({ version: 2 });
  });

  it("an import leaving production be does not wait for the settings change (it holds no team row)", async () => {
    const { team, prompt } = await productionWorld();
    const { admin } = world.callers;
    const document = JSON.parse((await admin.library.export({ teamId: team.id, format: "json" })).data) as LibraryDocument;
    const imported = document.prompts.find((item) => item.name === prompt.name)!;
    imported.labels = { ...imported.labels, staging: 2 };
    const { commit, pid } = await reviewsTurningOn(h.database.db, team.id);
    let settled = false;
    const applied = admin.library.applyImport({ teamId: team.id, document }).finally(() => (settled = true));
    // Which comes first: the import's answer, or a backend waiting for a lock (the team's row, held by the settings change).
    const waited = vi.waitFor(async () => expect(settled || (await someoneWaits(h.database.db, pid))).toBe(true), { timeout: 20_000, interval: 20 });
    const first = await Promise.race([applied.then(() => "imported"), waited.then(() => (settled ? "imported" : "waited"))]);
    await commit();
    await applied;
    expect(first).toBe("imported");
    expect(await h.database.db.promptLabel.findUnique({ where: { promptId_name: { promptId: prompt.id, name: "staging" } }, select: { version: true } })).toEqual({ version: 2 });
    expect(await state(prompt.id)).toMatchObject({ labels: [{ version: 1 }] });
  });

  it("sharing a private prompt carrying production (moved by a team admin) is refused: no review approved it; it stays private", async () => {
    const { team, prompt } = await productionWorld();
    const { author } = world.callers;
    await author.prompts.update({ id: prompt.id, visibility: "private" });
    const share = () => author.prompts.update({ id: prompt.id, visibility: "team" });
    expect(await whileReviewsTurnOn(h.database.db, team.id, share)).toEqual({ code: "PRECONDITION_FAILED", message: REVIEW_MSG.shareUnreviewed });
    expect(await h.database.db.prompt.findUniqueOrThrow({ where: { id: prompt.id }, select: { visibility: true } })).toEqual({ visibility: "private" });
  });
});
