// Change requests of a split release: a request is decided on the label's whole state (its version and
// its split), so one made before the split changed is stale; a request to end a split names the version
// the split ends on as it is when the request is made, under the prompt's lock; and what followers and
// webhooks hear says what moved: a split started (both versions), a candidate promoted, a split rolled back.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PROMPT_MSG, REVIEW_MSG, createChangeRequestInput, splitLabelInput } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, failure } from "../../../testing/prompts-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
});
afterAll(() => h.close());

/** A team requiring `requiredApprovals`, a prompt of the author's with versions 1-3 and production on v1, a webhook on label moves. */
async function splitWorld(requiredApprovals: number) {
  const team = await world.team();
  const { admin, author } = world.callers;
  const prompt = await createPrompt(author, team.id, { visibility: "team", template: "Version 1" });
  for (const n of [2, 3]) await author.promptVersions.create({ promptId: prompt.id, type: "text", template: `Version ${n}` });
  await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  await admin.teams.updateSettings({ id: team.id, requiredApprovals });
  await admin.webhooks.create({ teamId: team.id, url: "https://hooks.example.com/promptly", events: ["prompt.label.moved"] });
  return { team, prompt };
}

const production = async (promptId: string) =>
  h.database.db.promptLabel.findUnique({ where: { promptId_name: { promptId, name: "production" } }, select: { version: true, candidateVersion: true, candidateWeight: true } });

describe("a split request is decided on the label's whole state", () => {
  it("a request made before the split changed is stale, though the label's version is the same; refreshed, it applies", async () => {
    const { prompt } = await splitWorld(1);
    const { admin, author, orgAdmin } = world.callers;
    const tenth = await author.promptLabels.split({ promptId: prompt.id, label: "production", version: 2, weight: 10 });
    const fifth = await author.promptLabels.split({ promptId: prompt.id, label: "production", version: 3, weight: 20 });
    await admin.changeRequests.approve({ id: fifth.changeRequestId! });
    expect(await production(prompt.id)).toEqual({ version: 1, candidateVersion: 3, candidateWeight: 20 });

    // The label still points at v1, but its split is no longer what the first request was asked on.
    expect((await orgAdmin.changeRequests.get({ id: tenth.changeRequestId! })).status).toBe("stale");
    expect(await failure(orgAdmin.changeRequests.approve({ id: tenth.changeRequestId! }))).toEqual({ code: "PRECONDITION_FAILED", message: REVIEW_MSG.stale });
    expect(await production(prompt.id)).toEqual({ version: 1, candidateVersion: 3, candidateWeight: 20 });

    await author.changeRequests.refresh({ id: tenth.changeRequestId! });
    expect((await orgAdmin.changeRequests.get({ id: tenth.changeRequestId! })).status).toBe("open");
    await orgAdmin.changeRequests.approve({ id: tenth.changeRequestId! });
    expect(await production(prompt.id)).toEqual({ version: 1, candidateVersion: 2, candidateWeight: 10 });
  });

  it("a request to end a split is stale once the split's weight changed", async () => {
    const { prompt } = await splitWorld(1);
    const { admin, author, orgAdmin } = world.callers;
    await h.database.db.promptLabel.update({ where: { promptId_name: { promptId: prompt.id, name: "production" } }, data: { candidateVersion: 2, candidateWeight: 10 } });
    const ending = await author.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "promote" });
    const wider = await author.promptLabels.split({ promptId: prompt.id, label: "production", version: 2, weight: 50 });
    await admin.changeRequests.approve({ id: wider.changeRequestId! });
    expect(await failure(orgAdmin.changeRequests.approve({ id: ending.changeRequestId! }))).toEqual({ code: "PRECONDITION_FAILED", message: REVIEW_MSG.stale });
    expect(await production(prompt.id)).toEqual({ version: 1, candidateVersion: 2, candidateWeight: 50 });
  });
});

describe("a request to end a split", () => {
  it("names the version the split ends on as it is once the prompt's lock is taken", async () => {
    const { prompt } = await splitWorld(1);
    const { author } = world.callers;
    const db = h.database.db;
    await db.promptLabel.update({ where: { promptId_name: { promptId: prompt.id, name: "production" } }, data: { candidateVersion: 2, candidateWeight: 10 } });
    // Another change holds the prompt's lock and changes the split's candidate while the request waits for it.
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const other = db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM prompts WHERE id = ${prompt.id}::uuid FOR UPDATE`;
        locked();
        await released;
        await tx.promptLabel.update({ where: { promptId_name: { promptId: prompt.id, name: "production" } }, data: { candidateVersion: 3 } });
      },
      { timeout: 30_000 },
    );
    await isLocked;
    const asked = author.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "promote" });
    // The request is made only once it waits for the lock.
    await vi.waitFor(
      async () => {
        const [row] = await db.$queryRaw<{ waiting: number }[]>`
          SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
        expect(row!.waiting).toBeGreaterThan(0);
      },
      { timeout: 20_000, interval: 20 },
    );
    release();
    await other;
    const { changeRequestId } = await asked;
    expect(await author.changeRequests.get({ id: changeRequestId! })).toMatchObject({ baseVersion: 1, proposedVersion: 3, proposedWeight: null, status: "open" });
  });
});

describe("one check of a split's weight and versions", () => {
  it("the split and the change request take the same weight rule, and refuse the label's own version alike", async () => {
    const promptId = "00000000-0000-4000-8000-000000000000";
    for (const weight of [0, 100, 1.5]) {
      const split = splitLabelInput.safeParse({ promptId, label: "production", version: 2, weight });
      const request = createChangeRequestInput.safeParse({ promptId, label: "production", version: 2, weight });
      expect([split.error?.issues[0]?.message, request.error?.issues[0]?.message]).toEqual([PROMPT_MSG.splitWeightRange, PROMPT_MSG.splitWeightRange]);
    }
    const { prompt } = await splitWorld(0);
    const { admin } = world.callers;
    expect(await failure(admin.promptLabels.split({ promptId: prompt.id, label: "production", version: 1, weight: 10 }))).toEqual({ code: "BAD_REQUEST", message: PROMPT_MSG.splitSameVersion });
    expect(await failure(admin.changeRequests.create({ promptId: prompt.id, label: "production", version: 1, weight: 10 }))).toEqual({ code: "BAD_REQUEST", message: PROMPT_MSG.splitSameVersion });
  });
});

describe("what followers and webhooks hear of a split", () => {
  it("a split started names both versions; a promotion, the candidate; a rollback, the version it went back to", async () => {
    const { team, prompt } = await splitWorld(0);
    const { admin, author } = world.callers;
    const newest = async () => (await author.notifications.list()).items[0]?.text;
    const lastDelivery = async () =>
      (await h.database.db.webhookDelivery.findFirst({ where: { subscription: { teamId: team.id } }, orderBy: { createdAt: "desc" }, select: { payload: true } }))?.payload as {
        data: Record<string, unknown>;
      };

    h.clock.advance(1000);
    await admin.promptLabels.split({ promptId: prompt.id, label: "production", version: 2, weight: 10 });
    expect(await newest()).toBe(`Ada Admin split production of ${prompt.name}: v1 90% and v2 10%`);
    expect((await lastDelivery()).data).toMatchObject({ label: "production", version: 1, previousVersion: 1, split: { version: 2, weight: 10 } });

    h.clock.advance(1000);
    await admin.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "promote" });
    expect(await newest()).toBe(`Ada Admin moved production of ${prompt.name} to v2`);
    expect((await lastDelivery()).data).toMatchObject({ version: 2, previousVersion: 1, previousSplit: { version: 2, weight: 10 } });

    h.clock.advance(1000);
    await admin.promptLabels.split({ promptId: prompt.id, label: "production", version: 3, weight: 30 });
    h.clock.advance(1000);
    await admin.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "rollback" });
    expect(await newest()).toBe(`Ada Admin rolled production of ${prompt.name} back to v2`);
    const rollback = (await lastDelivery()).data;
    expect(rollback).toMatchObject({ version: 2, previousVersion: 2, previousSplit: { version: 3, weight: 30 }, rollback: true });
    expect(rollback).not.toHaveProperty("split");
  });

  it("a split rolled back through review is a rollback: audited, notified and sent as one", async () => {
    const { team, prompt } = await splitWorld(1);
    const { admin, author, editor } = world.callers;
    await h.database.db.promptLabel.update({ where: { promptId_name: { promptId: prompt.id, name: "production" } }, data: { candidateVersion: 2, candidateWeight: 10 } });
    const asked = await editor.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "rollback" });
    h.clock.advance(1000);
    await admin.changeRequests.approve({ id: asked.changeRequestId! });
    expect(await production(prompt.id)).toEqual({ version: 1, candidateVersion: null, candidateWeight: null });

    const moves = await h.database.db.auditEvent.findMany({ where: { promptId: prompt.id, action: { startsWith: "prompt.label." } }, orderBy: [{ createdAt: "desc" }, { seq: "desc" }], take: 1 });
    expect(moves[0]).toMatchObject({ action: "prompt.label.rolled_back", before: { label: "production", version: 1, split: { version: 2, weight: 10 } }, after: { label: "production", version: 1 } });
    const delivery = await h.database.db.webhookDelivery.findFirst({ where: { subscription: { teamId: team.id }, event: "prompt.label.moved" }, orderBy: { createdAt: "desc" }, select: { payload: true } });
    expect((delivery?.payload as { data: Record<string, unknown> }).data).toMatchObject({ version: 1, previousVersion: 1, previousSplit: { version: 2, weight: 10 }, rollback: true });
    expect((await author.notifications.list()).items[0]?.text).toBe(`Ada Admin rolled production of ${prompt.name} back to v1`);
  });

  it("a request to end a split says so: its audit entries and webhook events name the split it ends", async () => {
    const { team, prompt } = await splitWorld(1);
    const { admin, editor } = world.callers;
    await admin.webhooks.create({ teamId: team.id, url: "https://hooks.example.com/reviews", events: ["changeRequest.opened", "changeRequest.approved"] });
    await h.database.db.promptLabel.update({ where: { promptId_name: { promptId: prompt.id, name: "production" } }, data: { candidateVersion: 2, candidateWeight: 10 } });
    const rollback = await editor.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "rollback" });
    const promotion = await editor.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "promote" });
    h.clock.advance(1000);
    await admin.changeRequests.approve({ id: rollback.changeRequestId! });

    const entries = await h.database.db.auditEvent.findMany({ where: { promptId: prompt.id, action: { startsWith: "change_request." } }, orderBy: [{ createdAt: "asc" }, { seq: "asc" }], select: { action: true, targetName: true, before: true } });
    const before = { label: "production", version: 1, split: { version: 2, weight: 10 } };
    expect(entries).toEqual([
      { action: "change_request.create", targetName: "production: v1 90% · v2 10% → v1 (split rolled back)", before },
      { action: "change_request.create", targetName: "production: v1 90% · v2 10% → v2 (split promoted)", before },
      { action: "change_request.approve", targetName: "production: v1 90% · v2 10% → v1 (split rolled back)", before },
    ]);
    const approved = await h.database.db.webhookDelivery.findFirst({ where: { subscription: { teamId: team.id }, event: "changeRequest.approved" }, select: { payload: true } });
    expect((approved?.payload as { data: { changeRequest: Record<string, unknown> } }).data.changeRequest).toMatchObject({
      id: rollback.changeRequestId,
      title: "production: v1 90% · v2 10% → v1 (split rolled back)",
      baseVersion: 1,
      baseSplit: { version: 2, weight: 10 },
      proposedVersion: 1,
    });
    expect(promotion.applied).toBe(false);
  });

  it("where the team reviews production, its admin rolls a split back directly; an editor asks for it", async () => {
    const { prompt } = await splitWorld(1);
    const { admin, editor } = world.callers;
    await h.database.db.promptLabel.update({ where: { promptId_name: { promptId: prompt.id, name: "production" } }, data: { candidateVersion: 2, candidateWeight: 10 } });
    const asked = await editor.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "rollback" });
    expect(asked.applied).toBe(false);
    expect(await admin.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "rollback" })).toEqual({ applied: true, changeRequestId: null });
    expect(await production(prompt.id)).toEqual({ version: 1, candidateVersion: null, candidateWeight: null });
    // Promoting still goes to review.
    await h.database.db.promptLabel.update({ where: { promptId_name: { promptId: prompt.id, name: "production" } }, data: { candidateVersion: 3, candidateWeight: 10 } });
    expect((await admin.promptLabels.endSplit({ promptId: prompt.id, label: "production", outcome: "promote" })).applied).toBe(false);
  });
});
