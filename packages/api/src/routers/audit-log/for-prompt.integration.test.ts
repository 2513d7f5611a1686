// A prompt's activity comes a page at a time: its events only accumulate (every version, label move and
// test case change), so one answer holding them all would grow without end. Pages are keyset, newest
// first, and following the cursors gives every event once; who may read them is unchanged.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_PAGE_SIZE } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, outcome } from "../../../testing/prompts-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

beforeAll(async () => {
  h = await createHarness({ rateLimits: false });
  world = await createLibraryWorld(h);
});
afterAll(async () => h?.close());

/** The prompt's events as the database orders them, newest first. */
const storedNewestFirst = async (promptId: string) =>
  (await h.database.db.auditEvent.findMany({ where: { promptId }, orderBy: [{ createdAt: "desc" }, { seq: "desc" }], select: { id: true } })).map((event) => event.id);

describe("auditLog.forPrompt pages", () => {
  it("a prompt with more events than a page: the first page holds a page, the cursors give every event once, newest first", async () => {
    const team = await world.team("Busy");
    const { author, viewer } = world.accounts;
    const { id: promptId } = await createPrompt(author.api, team.id, { visibility: "team" });
    await author.api.promptVersions.create({ promptId, type: "text", template: "Two" });
    // A label moved back and forth, as a loop or years of CI would; several moves share a moment
    // (the clock moves every fifth), so the order within one moment counts too.
    for (let n = 0; n < AUDIT_PAGE_SIZE + 10; n++) {
      if (n % 5 === 0) h.clock.advance(1000);
      await author.api.promptLabels.set({ promptId, label: "staging", version: (n % 2) + 1 });
    }
    const stored = await storedNewestFirst(promptId);
    expect(stored.length).toBeGreaterThan(AUDIT_PAGE_SIZE);

    const first = await viewer.api.auditLog.forPrompt({ promptId });
    expect(first.items).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.nextCursor).toBe(first.items.at(-1)!.id);
    expect(first.items[0]).toMatchObject({ action: "prompt.label.set", after: { label: "staging", version: 2 } });
    expect(first.items[0]).not.toHaveProperty("ip");

    const seen = first.items.map((event) => event.id);
    let cursor = first.nextCursor ?? undefined;
    while (cursor) {
      const page = await viewer.api.auditLog.forPrompt({ promptId, cursor });
      expect(page.items.length).toBeGreaterThan(0);
      expect(page.items.length).toBeLessThanOrEqual(AUDIT_PAGE_SIZE);
      seen.push(...page.items.map((event) => event.id));
      cursor = page.nextCursor ?? undefined;
    }
    expect(seen).toEqual(stored);
    // The oldest of them, on the last page: the prompt's creation.
    expect((await h.database.db.auditEvent.findUniqueOrThrow({ where: { id: seen.at(-1)! } })).action).toBe("prompt.create");
  });

  it("a cursor of another prompt's event gives nothing of this prompt's", async () => {
    const team = await world.team("Apart");
    const { author, viewer } = world.accounts;
    const one = await createPrompt(author.api, team.id, { visibility: "team" });
    const other = await createPrompt(author.api, team.id, { visibility: "team" });
    const [foreign] = await storedNewestFirst(other.id);
    expect((await viewer.api.auditLog.forPrompt({ promptId: one.id, cursor: foreign! })).items).toEqual([]);
  });

  it("who may read a page is who may read the prompt, with or without a cursor", async () => {
    const team = await world.team("Paged readers");
    const { author, viewer, orgMember, outsider } = world.accounts;
    const shared = await createPrompt(author.api, team.id, { visibility: "team" });
    const mine = await createPrompt(author.api, team.id, { visibility: "private" });
    const [sharedCursor] = await storedNewestFirst(shared.id);
    const [mineCursor] = await storedNewestFirst(mine.id);
    const cases: [string, () => Promise<unknown>, string][] = [
      ["viewer, team prompt", () => viewer.api.auditLog.forPrompt({ promptId: shared.id, cursor: sharedCursor! }), "OK"],
      ["organization member outside the team", () => orgMember.api.auditLog.forPrompt({ promptId: shared.id, cursor: sharedCursor! }), "NOT_FOUND"],
      ["outsider", () => outsider.api.auditLog.forPrompt({ promptId: shared.id, cursor: sharedCursor! }), "NOT_FOUND"],
      ["viewer, someone's private prompt", () => viewer.api.auditLog.forPrompt({ promptId: mine.id, cursor: mineCursor! }), "NOT_FOUND"],
      ["author, own private prompt", () => author.api.auditLog.forPrompt({ promptId: mine.id, cursor: mineCursor! }), "OK"],
      ["signed out", () => world.callers.anonymous.auditLog.forPrompt({ promptId: shared.id, cursor: sharedCursor! }), "UNAUTHORIZED"],
    ];
    for (const [who, call, expected] of cases) expect([who, await outcome(call())]).toEqual([who, expected]);
  });
});
