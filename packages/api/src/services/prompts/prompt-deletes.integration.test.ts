// Deleting a version of a live prompt that `production` serves in a split, as a team admin: where the
// team does not review production, the split ends in favour of the version left (one move of production,
// audited as one); where it does, nobody deletes it directly and nothing changes. A split label that goes
// (removed, or with the prompt) is audited with its split.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REVIEW_MSG } from "@promptly/shared";
import { createAccount, createHarness, createOrganization, createTeam, outcome, type Harness } from "../../../testing/harness.ts";
import type { Caller } from "../access/visibility.ts";
import { loadPrompt } from "./loaded-prompt.ts";
import { deleteLivePrompt } from "./prompt-writes.ts";

let h: Harness;
let adminId: string;
let organizationId: string;
let admin: Awaited<ReturnType<Harness["signedInClient"]>>["api"];

beforeAll(async () => {
  h = await createHarness();
  adminId = (await createAccount(h, { fullName: "Ada Admin" })).id;
  organizationId = (await createOrganization(h, [{ userId: adminId, role: "member" }], "Acme")).id;
  admin = (await h.signedInClient(adminId)).api;
});
afterAll(async () => {
  await h.close();
});

let teams = 0;

/** A team requiring `requiredApprovals`, its prompt with production on v1 split onto v2 at 30 (set before reviews are required). */
async function splitProduction(requiredApprovals: number) {
  teams += 1;
  const teamId = (await createTeam(h, organizationId, [{ userId: adminId, role: "admin" }], `Team ${teams}`)).id;
  const name = `support/delete-${teams}`;
  const prompt = await admin.prompts.create({ teamId, name, title: "Reply", visibility: "team", type: "text", template: "Version one" });
  await admin.promptVersions.create({ promptId: prompt.id, template: "Version two" });
  await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  await admin.promptLabels.split({ promptId: prompt.id, label: "production", version: 2, weight: 30 });
  await h.database.db.team.update({ where: { id: teamId }, data: { requiredApprovals } });
  const caller: Caller = { userId: adminId, role: "user", isSuperUser: false };
  const loaded = (await loadPrompt(h.database.db, caller, prompt.id))!;
  // Without a version: the prompt's every version, so the prompt.
  const remove = (version: number | undefined) => deleteLivePrompt(h.database.db, caller, loaded, name, version === undefined ? {} : { version }, { actor: { kind: "user", userId: adminId }, ip: null, now: new Date() });
  return { promptId: prompt.id, remove };
}

const production = (promptId: string) =>
  h.database.db.promptLabel.findUnique({ where: { promptId_name: { promptId, name: "production" } }, select: { version: true, candidateVersion: true, candidateWeight: true } });

describe("deleting a version of production's split", () => {
  it("by a team admin where production is not reviewed: production moves onto the version left, audited as a move", async () => {
    const w = await splitProduction(0);
    await w.remove(1);
    expect(await production(w.promptId)).toEqual({ version: 2, candidateVersion: null, candidateWeight: null });
    expect(await h.database.db.promptVersion.findMany({ where: { promptId: w.promptId }, select: { version: true } })).toEqual([{ version: 2 }]);
    const moves = await h.database.db.auditEvent.findMany({ where: { promptId: w.promptId, action: { in: ["prompt.label.set", "prompt.label.remove"] } }, orderBy: { createdAt: "asc" }, select: { action: true, before: true, after: true } });
    expect(moves.at(-1)).toEqual({ action: "prompt.label.set", before: { label: "production", version: 1, split: { version: 2, weight: 30 } }, after: { label: "production", version: 2 } });
  });

  it("where the team reviews production: refused, and nothing changes", async () => {
    const w = await splitProduction(1);
    expect(await outcome(w.remove(1))).toMatchObject({ code: "PRECONDITION", message: REVIEW_MSG.deleteReviewRequired });
    expect(await production(w.promptId)).toEqual({ version: 1, candidateVersion: 2, candidateWeight: 30 });
  });
});

describe("a split label that goes keeps its split in the audit trail", () => {
  it("removed: its removal names the split it served", async () => {
    const w = await splitProduction(0);
    await admin.promptLabels.set({ promptId: w.promptId, label: "staging", version: 1 });
    await admin.promptLabels.split({ promptId: w.promptId, label: "staging", version: 2, weight: 40 });
    await admin.promptLabels.remove({ promptId: w.promptId, label: "staging" });
    const removal = await h.database.db.auditEvent.findFirst({ where: { promptId: w.promptId, action: "prompt.label.remove" }, select: { before: true, after: true } });
    expect(removal).toEqual({ before: { label: "staging", version: 1, split: { version: 2, weight: 40 } }, after: { label: "staging", version: null } });
  });

  it("deleted with the prompt's every version: the delete names each label with its split", async () => {
    const w = await splitProduction(0);
    await w.remove(undefined);
    const deleted = await h.database.db.auditEvent.findFirst({ where: { targetId: w.promptId, action: "prompt.delete" }, select: { before: true } });
    expect(deleted?.before).toMatchObject({ versions: [1, 2], labels: [{ name: "production", version: 1, split: { version: 2, weight: 30 } }] });
  });
});
