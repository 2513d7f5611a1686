// Reviewed promotion to production: the team's review setting, the gate on
// moving `production`, and every change-request procedure × caller kind; self-approval, stale
// requests, two approvals needed, and two admins approving at once moving the label once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROMPT_MSG, REVIEW_MSG, type PromptVisibility } from "@promptly/shared";
import { createHarness, outcome as callOutcome, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, failure, outcome, type PromptCallerKind } from "../../../testing/prompts-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
});
afterAll(() => h.close());

type Api = (typeof world.callers)[PromptCallerKind];

/** A fresh team requiring `requiredApprovals`, and a prompt of the author's there with versions 1-3. */
async function reviewedPrompt(requiredApprovals: number, visibility: PromptVisibility = "team") {
  const team = await world.team();
  await h.database.db.team.update({ where: { id: team.id }, data: { requiredApprovals } });
  const prompt = await createPrompt(world.callers.author, team.id, { visibility, template: "Version 1 says {{ question }}." });
  for (const n of [2, 3]) {
    await world.callers.author.promptVersions.create({ promptId: prompt.id, type: "text", template: `Version ${n} says {{ question }}.` });
  }
  return { team, prompt };
}

const production = async (promptId: string) =>
  (await h.database.db.promptLabel.findUnique({ where: { promptId_name: { promptId, name: "production" } }, select: { version: true } }))?.version ?? null;

const request = (by: Api, promptId: string, version: number, message = "Ship it") =>
  by.changeRequests.create({ promptId, label: "production", version, message });

/** Every caller kind's answer to `call`, each on a fresh set-up. */
async function answers(setup: () => Promise<(api: Api, kind: PromptCallerKind) => Promise<unknown>>, kinds: PromptCallerKind[]) {
  const result: Partial<Record<PromptCallerKind, string>> = {};
  for (const kind of kinds) {
    const call = await setup();
    result[kind] = await outcome(call(world.callers[kind], kind));
  }
  return result;
}

const KINDS: PromptCallerKind[] = ["anonymous", "outsider", "otherOrgMember", "orgMember", "viewer", "editor", "admin", "orgAdmin", "superUser", "author"];

describe("the team's review setting", () => {
  it("teams.updateSettings is team admin level, 0-3, and teams.get / teams.list show it", async () => {
    const result: Partial<Record<PromptCallerKind, string>> = {};
    for (const kind of KINDS.filter((kind) => kind !== "otherOrgMember" && kind !== "author")) {
      const team = await world.team();
      result[kind] = await outcome(world.callers[kind].teams.updateSettings({ id: team.id, requiredApprovals: 2 }));
    }
    expect(result).toEqual({
      anonymous: "UNAUTHORIZED",
      outsider: "NOT_FOUND",
      orgMember: "NOT_FOUND",
      viewer: "FORBIDDEN",
      editor: "FORBIDDEN",
      admin: "OK",
      orgAdmin: "OK",
      superUser: "OK",
    });
    const team = await world.team();
    expect((await world.callers.viewer.teams.get({ id: team.id })).requiredApprovals).toBe(0);
    expect(await world.callers.admin.teams.updateSettings({ id: team.id, requiredApprovals: 3 })).toEqual({ requiredApprovals: 3, requiredPassRate: null });
    expect((await world.callers.viewer.teams.get({ id: team.id })).requiredApprovals).toBe(3);
    expect((await world.callers.viewer.teams.list()).find((listed) => listed.id === team.id)?.requiredApprovals).toBe(3);
    for (const wrong of [4, -1, 1.5]) {
      expect(await failure(world.callers.admin.teams.updateSettings({ id: team.id, requiredApprovals: wrong }))).toEqual({
        code: "BAD_REQUEST",
        message: REVIEW_MSG.approvalsRange,
      });
    }
  });
});

describe("the gate on production", () => {
  it("with 0 approvals required, team admins move production directly as before", async () => {
    const { prompt } = await reviewedPrompt(0);
    expect(await world.callers.admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 2 })).toEqual({ label: "production", version: 2 });
    expect((await world.callers.viewer.prompts.get({ id: prompt.id })).requiredApprovals).toBe(0);
    await world.callers.admin.promptLabels.remove({ promptId: prompt.id, label: "production" });
    expect(await production(prompt.id)).toBeNull();
  });

  it("with approvals required nobody moves or removes production directly, team and organization admins and super users included", async () => {
    const { prompt } = await reviewedPrompt(1);
    await h.database.db.promptLabel.create({ data: { promptId: prompt.id, name: "production", version: 1 } });
    for (const kind of ["editor", "admin", "orgAdmin", "superUser", "author"] as const) {
      expect(await callOutcome(world.callers[kind].promptLabels.set({ promptId: prompt.id, label: "production", version: 2 }), { reason: true })).toEqual({
        code: "PRECONDITION_FAILED",
        message: REVIEW_MSG.reviewRequired,
        reason: "REVIEW_REQUIRED",
      });
      expect(await callOutcome(world.callers[kind].promptLabels.remove({ promptId: prompt.id, label: "production" }), { reason: true })).toMatchObject({
        code: "PRECONDITION_FAILED",
        reason: "REVIEW_REQUIRED",
      });
    }
    expect(await production(prompt.id)).toBe(1);
    // Other labels move as before; a reader learns that the team reviews.
    expect(await outcome(world.callers.editor.promptLabels.set({ promptId: prompt.id, label: "staging", version: 3 }))).toBe("OK");
    expect((await world.callers.viewer.prompts.get({ id: prompt.id })).requiredApprovals).toBe(1);
  });

  it("a private prompt is not exempt: nobody moves its production directly, and it has no change request (nobody else could review it)", async () => {
    const { prompt } = await reviewedPrompt(2, "private");
    for (const kind of ["author", "superUser"] as const) {
      expect(await callOutcome(world.callers[kind].promptLabels.set({ promptId: prompt.id, label: "production", version: 2 }), { reason: true })).toEqual({
        code: "PRECONDITION_FAILED",
        message: REVIEW_MSG.reviewRequired,
        reason: "REVIEW_REQUIRED",
      });
    }
    expect(await production(prompt.id)).toBeNull();
    expect(await failure(request(world.callers.author, prompt.id, 3))).toEqual({ code: "PRECONDITION_FAILED", message: REVIEW_MSG.privatePrompt });
    expect((await world.callers.author.prompts.get({ id: prompt.id })).requiredApprovals).toBe(2);
  });
});

describe("change requests × caller kinds", () => {
  it("create: the prompt's editors (team editor level); readers below are FORBIDDEN, others NOT_FOUND", async () => {
    const result = await answers(async () => {
      const { prompt } = await reviewedPrompt(1);
      return (api) => request(api, prompt.id, 2);
    }, KINDS);
    expect(result).toEqual({
      anonymous: "UNAUTHORIZED",
      outsider: "NOT_FOUND",
      otherOrgMember: "NOT_FOUND",
      orgMember: "NOT_FOUND",
      viewer: "FORBIDDEN",
      editor: "OK",
      admin: "OK",
      orgAdmin: "OK",
      superUser: "OK",
      author: "OK",
    });
  });

  it("create records the base and the proposal, refuses the version production has, a second open request for one version, and an archived prompt", async () => {
    const { prompt, team } = await reviewedPrompt(1);
    const { id } = await request(world.callers.author, prompt.id, 2, "Better wording");
    const stored = await h.database.db.changeRequest.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({ baseVersion: null, proposedVersion: 2, message: "Better wording", authorId: world.accounts.author.id, status: "open", label: "production" });
    expect(await failure(request(world.callers.editor, prompt.id, 2))).toEqual({ code: "CONFLICT", message: REVIEW_MSG.duplicateOpen });
    // Another version may be proposed beside it.
    expect(await outcome(request(world.callers.editor, prompt.id, 3))).toBe("OK");
    expect(await failure(request(world.callers.editor, prompt.id, 9))).toEqual({ code: "NOT_FOUND", message: PROMPT_MSG.versionNotFound });
    expect(await outcome(world.callers.author.changeRequests.create({ promptId: prompt.id, label: "staging" as "production", version: 2, message: "" }))).toBe("BAD_REQUEST");

    const other = await createPrompt(world.callers.author, team.id, { visibility: "team" });
    await h.database.db.promptLabel.create({ data: { promptId: other.id, name: "production", version: 1 } });
    expect(await failure(request(world.callers.author, other.id, 1))).toEqual({ code: "CONFLICT", message: REVIEW_MSG.alreadyInProduction });
    // It carries production under review, so only an archive request archives it; here it was archived before.
    await h.database.db.prompt.update({ where: { id: other.id }, data: { archivedAt: new Date() } });
    expect(await failure(request(world.callers.author, other.id, 1))).toEqual({ code: "CONFLICT", message: REVIEW_MSG.archived });
  });

  it("get and list: readers of the prompt only; get has both versions, the reviews and what the caller may do", async () => {
    const { prompt, team } = await reviewedPrompt(1);
    await h.database.db.promptLabel.create({ data: { promptId: prompt.id, name: "production", version: 1 } });
    const { id } = await request(world.callers.author, prompt.id, 3, "Say version 3");
    const result: Partial<Record<PromptCallerKind, string>> = {};
    for (const kind of KINDS) result[kind] = await outcome(world.callers[kind].changeRequests.get({ id }));
    expect(result).toEqual({
      anonymous: "UNAUTHORIZED",
      outsider: "NOT_FOUND",
      otherOrgMember: "NOT_FOUND",
      orgMember: "NOT_FOUND",
      viewer: "OK",
      editor: "OK",
      admin: "OK",
      orgAdmin: "OK",
      superUser: "OK",
      author: "OK",
    });
    const seen = await world.callers.author.changeRequests.get({ id });
    expect(seen).toMatchObject({
      status: "open",
      baseVersion: 1,
      currentVersion: 1,
      proposedVersion: 3,
      message: "Say version 3",
      approvals: 0,
      approvalsNeeded: 1,
      isAuthor: true,
      isReviewer: false,
      can: { approve: false, reject: false, withdraw: true, refresh: false },
      approveBlockedReason: REVIEW_MSG.ownApproval,
    });
    expect(seen.base?.template).toBe("Version 1 says {{ question }}.");
    expect(seen.proposed?.template).toBe("Version 3 says {{ question }}.");
    expect((await world.callers.admin.changeRequests.get({ id })).can).toEqual({ approve: true, reject: true, withdraw: false, refresh: false });
    expect((await world.callers.viewer.changeRequests.get({ id })).can).toEqual({ approve: false, reject: false, withdraw: false, refresh: false });

    const listed = async (api: Api, input: Parameters<Api["changeRequests"]["list"]>[0]) => (await api.changeRequests.list(input)).map((item) => item.id);
    expect(await listed(world.callers.viewer, { teamId: team.id })).toEqual([id]);
    expect(await listed(world.callers.viewer, { promptId: prompt.id, status: "open" })).toEqual([id]);
    expect(await listed(world.callers.viewer, { promptId: prompt.id, status: "approved" })).toEqual([]);
    expect(await listed(world.callers.orgMember, { teamId: team.id })).toEqual([]);
    expect(await listed(world.callers.outsider, { promptId: prompt.id })).toEqual([]);
    expect(await outcome(world.callers.anonymous.changeRequests.list({ teamId: team.id }))).toBe("UNAUTHORIZED");
  });

  it("approve: team admin level; the author's own approval is refused with its reason, also for an admin author", async () => {
    const result = await answers(async () => {
      const { prompt } = await reviewedPrompt(1);
      const { id } = await request(world.callers.author, prompt.id, 2);
      return (api) => api.changeRequests.approve({ id, comment: "Looks good" });
    }, KINDS);
    expect(result).toEqual({
      anonymous: "UNAUTHORIZED",
      outsider: "NOT_FOUND",
      otherOrgMember: "NOT_FOUND",
      orgMember: "NOT_FOUND",
      viewer: "FORBIDDEN",
      editor: "FORBIDDEN",
      admin: "OK",
      orgAdmin: "OK",
      superUser: "OK",
      author: "FORBIDDEN",
    });
    const { prompt } = await reviewedPrompt(1);
    const { id } = await request(world.callers.admin, prompt.id, 2);
    expect(await failure(world.callers.admin.changeRequests.approve({ id }))).toEqual({ code: "FORBIDDEN", message: REVIEW_MSG.ownApproval });
    expect(await production(prompt.id)).toBeNull();
  });

  it("an approval reaching the count moves production in its transaction; the request is then closed", async () => {
    const { prompt } = await reviewedPrompt(1);
    const { id } = await request(world.callers.author, prompt.id, 2);
    expect(await world.callers.admin.changeRequests.approve({ id, comment: "Looks good" })).toEqual({ id, status: "approved", approvals: 1, approvalsNeeded: 1 });
    expect(await production(prompt.id)).toBe(2);
    expect(await h.database.db.promptLabel.findFirst({ where: { promptId: prompt.id, name: "production" }, select: { movedById: true } })).toEqual({
      movedById: world.accounts.admin.id,
    });
    const seen = await world.callers.author.changeRequests.get({ id });
    expect(seen).toMatchObject({ status: "approved", reviews: [{ decision: "approved", comment: "Looks good", reviewer: { id: world.accounts.admin.id } }] });
    expect(seen.closedAt).not.toBeNull();
    for (const call of [
      () => world.callers.orgAdmin.changeRequests.approve({ id }),
      () => world.callers.orgAdmin.changeRequests.reject({ id, comment: "No" }),
      () => world.callers.author.changeRequests.withdraw({ id }),
    ]) {
      expect(await failure(call())).toEqual({ code: "CONFLICT", message: REVIEW_MSG.notOpen });
    }
  });

  it("two approvals required: two distinct admins; the same admin twice does not count", async () => {
    const { prompt } = await reviewedPrompt(2);
    const { id } = await request(world.callers.author, prompt.id, 3);
    expect(await world.callers.admin.changeRequests.approve({ id })).toEqual({ id, status: "open", approvals: 1, approvalsNeeded: 2 });
    expect(await production(prompt.id)).toBeNull();
    expect(await failure(world.callers.admin.changeRequests.approve({ id }))).toEqual({ code: "CONFLICT", message: REVIEW_MSG.alreadyReviewed });
    expect((await world.callers.admin.changeRequests.get({ id })).approveBlockedReason).toBe(REVIEW_MSG.alreadyReviewed);
    expect(await world.callers.orgAdmin.changeRequests.approve({ id })).toEqual({ id, status: "approved", approvals: 2, approvalsNeeded: 2 });
    expect(await production(prompt.id)).toBe(3);
  });

  it("reject: team admin level with a comment; it closes the request and production stays", async () => {
    const result = await answers(async () => {
      const { prompt } = await reviewedPrompt(1);
      const { id } = await request(world.callers.author, prompt.id, 2);
      return (api) => api.changeRequests.reject({ id, comment: "Not yet" });
    }, KINDS);
    expect(result).toEqual({
      anonymous: "UNAUTHORIZED",
      outsider: "NOT_FOUND",
      otherOrgMember: "NOT_FOUND",
      orgMember: "NOT_FOUND",
      viewer: "FORBIDDEN",
      editor: "FORBIDDEN",
      admin: "OK",
      orgAdmin: "OK",
      superUser: "OK",
      author: "FORBIDDEN",
    });
    const { prompt } = await reviewedPrompt(2);
    const { id } = await request(world.callers.author, prompt.id, 2);
    await world.callers.admin.changeRequests.approve({ id });
    expect(await failure(world.callers.orgAdmin.changeRequests.reject({ id, comment: " " }))).toEqual({ code: "BAD_REQUEST", message: REVIEW_MSG.rejectCommentRequired });
    // The admin who approved changes their mind: their approval becomes the rejection.
    expect(await world.callers.admin.changeRequests.reject({ id, comment: "Found a typo" })).toEqual({ id, status: "rejected", approvals: 0, approvalsNeeded: 2 });
    expect((await world.callers.viewer.changeRequests.get({ id })).reviews).toMatchObject([{ decision: "rejected", comment: "Found a typo" }]);
    expect(await production(prompt.id)).toBeNull();
  });

  it("withdraw: the author only", async () => {
    const result = await answers(async () => {
      const { prompt } = await reviewedPrompt(1);
      const { id } = await request(world.callers.author, prompt.id, 2);
      return (api) => api.changeRequests.withdraw({ id });
    }, KINDS);
    expect(result).toEqual({
      anonymous: "UNAUTHORIZED",
      outsider: "NOT_FOUND",
      otherOrgMember: "NOT_FOUND",
      orgMember: "NOT_FOUND",
      viewer: "FORBIDDEN",
      editor: "FORBIDDEN",
      admin: "FORBIDDEN",
      orgAdmin: "FORBIDDEN",
      superUser: "FORBIDDEN",
      author: "OK",
    });
  });

  it("an archived prompt's requests cannot be approved", async () => {
    const { prompt } = await reviewedPrompt(1);
    const { id } = await request(world.callers.author, prompt.id, 2);
    await world.callers.admin.prompts.archive({ id: prompt.id });
    expect(await failure(world.callers.admin.changeRequests.approve({ id }))).toEqual({ code: "CONFLICT", message: REVIEW_MSG.archived });
    expect(await production(prompt.id)).toBeNull();
  });
});

describe("stale requests", () => {
  it("a request whose base moved is stale: approving is refused (and marks it), its author refreshes it, which clears approvals", async () => {
    const { prompt } = await reviewedPrompt(2);
    const first = await request(world.callers.author, prompt.id, 2);
    const second = await request(world.callers.editor, prompt.id, 3);
    await world.callers.admin.changeRequests.approve({ id: second.id });
    await world.callers.admin.changeRequests.approve({ id: first.id });
    await world.callers.orgAdmin.changeRequests.approve({ id: first.id });
    expect(await production(prompt.id)).toBe(2);

    expect((await world.callers.viewer.changeRequests.list({ promptId: prompt.id, status: "stale" })).map((item) => item.id)).toEqual([second.id]);
    expect(await callOutcome(world.callers.orgAdmin.changeRequests.approve({ id: second.id }), { reason: true })).toEqual({
      code: "PRECONDITION_FAILED",
      message: REVIEW_MSG.stale,
      reason: "REQUEST_STALE",
    });
    expect((await h.database.db.changeRequest.findUniqueOrThrow({ where: { id: second.id } })).status).toBe("stale");
    expect(await production(prompt.id)).toBe(2);
    const seen = await world.callers.editor.changeRequests.get({ id: second.id });
    expect(seen).toMatchObject({ status: "stale", baseVersion: null, currentVersion: 2, can: { refresh: true, approve: false } });

    expect(await failure(world.callers.author.changeRequests.refresh({ id: second.id }))).toEqual({ code: "FORBIDDEN", message: REVIEW_MSG.authorOnly });
    expect(await failure(world.callers.viewer.changeRequests.refresh({ id: second.id }))).toMatchObject({ code: "FORBIDDEN" });
    expect(await world.callers.editor.changeRequests.refresh({ id: second.id })).toEqual({ id: second.id, status: "open", baseVersion: 2 });
    expect(await world.callers.editor.changeRequests.get({ id: second.id })).toMatchObject({ status: "open", approvals: 0, reviews: [], base: { version: 2 } });
    expect(await failure(world.callers.editor.changeRequests.refresh({ id: second.id }))).toEqual({ code: "CONFLICT", message: REVIEW_MSG.notStale });
    await world.callers.admin.changeRequests.approve({ id: second.id });
    await world.callers.orgAdmin.changeRequests.approve({ id: second.id });
    expect(await production(prompt.id)).toBe(3);
  });
});

describe("concurrency", () => {
  /** Counts writes to prompt_labels of one prompt. */
  async function countLabelWrites() {
    await h.database.db.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS test_label_writes (prompt_id uuid NOT NULL)`);
    await h.database.db.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION test_count_label_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO test_label_writes VALUES (COALESCE(NEW.prompt_id, OLD.prompt_id)); RETURN NULL; END $$`);
    await h.database.db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS test_count_label_write ON prompt_labels`);
    await h.database.db.$executeRawUnsafe(`
      CREATE TRIGGER test_count_label_write AFTER INSERT OR UPDATE OR DELETE ON prompt_labels
      FOR EACH ROW EXECUTE FUNCTION test_count_label_write()`);
    return async (promptId: string) => {
      const [row] = await h.database.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM test_label_writes WHERE prompt_id = ${promptId}::uuid`;
      return row!.n;
    };
  }

  it("two admins approving at once with one approval required move the label once; one approval is refused", async () => {
    const labelWrites = await countLabelWrites();
    for (let round = 0; round < 5; round++) {
      const { prompt } = await reviewedPrompt(1);
      const { id } = await request(world.callers.author, prompt.id, 2);
      const results = await Promise.all([
        callOutcome(world.callers.admin.changeRequests.approve({ id })),
        callOutcome(world.callers.orgAdmin.changeRequests.approve({ id })),
      ]);
      expect(results.map((result) => result.code).sort()).toEqual(["CONFLICT", "OK"]);
      expect(results.find((result) => result.code === "CONFLICT")?.message).toBe(REVIEW_MSG.notOpen);
      expect(await labelWrites(prompt.id)).toBe(1);
      expect(await production(prompt.id)).toBe(2);
      const stored = await h.database.db.changeRequest.findUniqueOrThrow({ where: { id }, include: { reviews: true } });
      expect(stored.status).toBe("approved");
      expect(stored.reviews).toHaveLength(1);
    }
  });

  it("with two required, two admins approving at once both count and the label moves once", async () => {
    const labelWrites = await countLabelWrites();
    const { prompt } = await reviewedPrompt(2);
    const { id } = await request(world.callers.author, prompt.id, 3);
    const results = await Promise.all([world.callers.admin.changeRequests.approve({ id }), world.callers.orgAdmin.changeRequests.approve({ id })]);
    expect(results.map((result) => result.status).sort()).toEqual(["approved", "open"]);
    expect(await labelWrites(prompt.id)).toBe(1);
    expect(await production(prompt.id)).toBe(3);
  });
});
