// Comments on prompts: the four procedures and the mention autocomplete ×
// every caller kind × every visibility, validation, replies one level deep, the deleted thread's stub,
// mentions, archived prompts, pages, and the card's comment count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMENT_MSG, MSG, PROMPT_MSG, PROMPT_VISIBILITIES, mentionToken, type PromptVisibility } from "@promptly/shared";
import { createHarness, outcome as answer, type Harness } from "../../../testing/harness.ts";
import { advanceClock } from "../../../testing/teams-support.ts";
import { PROMPT_CALLER_KINDS, callerTable, createLibraryWorld, failure, insertPrompts, outcome, type PromptCallerKind } from "../../../testing/prompts-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: Awaited<ReturnType<typeof world.team>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
});
afterAll(() => h.close());

const db = () => h.database.db;
const api = (kind: PromptCallerKind) => world.callers[kind];
const newPrompt = async (visibility: PromptVisibility = "team", options: { archived?: boolean } = {}) =>
  (await insertPrompts(h, [{ teamId: team.id, visibility, authorId: world.accounts.author.id, archived: options.archived }]))[0]!;
const comment = async (by: PromptCallerKind, promptId: string, body = "Looks good", extra: { parentId?: string; version?: number } = {}) =>
  (await api(by).comments.create({ promptId, body, ...extra })).id;
const listed = async (by: PromptCallerKind, promptId: string) => (await api(by).comments.list({ promptId })).items;
const commentCount = async (promptId: string) => {
  const page = await api("author").prompts.list({ organizationId: world.organization.id, limit: 100 });
  return page.items.find((item) => item.id === promptId)?.commentCount;
};

// ---- who may ----

const CODES = { UA: "UNAUTHORIZED", NF: "NOT_FOUND", FB: "FORBIDDEN", OK: "OK" } as const;
const table = (text: string) => callerTable(CODES, text);

// The columns: anon = anonymous, out = another organization's admin, oorg = another organization's
// member, orgM = member of the organization outside the team, view / edit / adm = the team's viewer,
// editor and admin, oadm = organization admin, su = super user, auth = the prompt's author (an editor).

/** Read, write, edit or delete one's own: every reader of the prompt. A comment on a prompt one cannot read does not exist. */
const READERS = table(`
  private        UA   NF   NF   NF   NF   NF   NF   NF   OK   OK
  team           UA   NF   NF   NF   OK   OK   OK   OK   OK   OK
  organization   UA   NF   NF   OK   OK   OK   OK   OK   OK   OK
`); //           anon out  oorg orgM view edit adm  oadm su   auth

/** Edit the author's comment: only the author, whoever else reads it. */
const EDIT_OTHERS = table(`
  private        UA   NF   NF   NF   NF   NF   NF   NF   FB   OK
  team           UA   NF   NF   NF   FB   FB   FB   FB   FB   OK
  organization   UA   NF   NF   FB   FB   FB   FB   FB   FB   OK
`); //           anon out  oorg orgM view edit adm  oadm su   auth

/** Delete the author's comment: the author, or team admin level (comment.moderate). */
const DELETE_OTHERS = table(`
  private        UA   NF   NF   NF   NF   NF   NF   NF   OK   OK
  team           UA   NF   NF   NF   FB   FB   OK   OK   OK   OK
  organization   UA   NF   NF   FB   FB   FB   OK   OK   OK   OK
`); //           anon out  oorg orgM view edit adm  oadm su   auth

describe.each(PROMPT_VISIBILITIES)("a %s prompt", (visibility) => {
  let promptId: string;
  beforeAll(async () => {
    promptId = (await newPrompt(visibility)).id;
  });

  it.each(PROMPT_CALLER_KINDS)("comments.list, create, and update / delete of one's own comment: %s", async (kind) => {
    const expected = READERS[visibility][kind];
    expect(await outcome(api(kind).comments.list({ promptId }))).toBe(expected);
    expect(await outcome(api(kind).comments.mentionCandidates({ promptId, q: "" }))).toBe(expected);
    const created = await answer(api(kind).comments.create({ promptId, body: `From ${kind}` }));
    expect(created.code).toBe(expected);
    if (expected !== "OK") return;
    const id = (created.value as { id: string }).id;
    expect((await listed(kind, promptId)).find((thread) => thread.id === id)).toMatchObject({
      body: `From ${kind}`,
      author: { id: world.accounts[kind as Exclude<PromptCallerKind, "anonymous">].id },
      can: { edit: true, delete: true, reply: true },
    });
    expect(await outcome(api(kind).comments.update({ id, body: `Edited by ${kind}` }))).toBe("OK");
    expect(await db().promptComment.findUnique({ where: { id }, select: { body: true } })).toEqual({ body: `Edited by ${kind}` });
    expect(await outcome(api(kind).comments.delete({ id }))).toBe("OK");
    expect(await db().promptComment.findUnique({ where: { id } })).toBeNull();
  });

  it.each(PROMPT_CALLER_KINDS)("comments.replies answers as comments.list: %s", async (kind) => {
    const thread = await comment("author", promptId, "A thread");
    await comment("author", promptId, "A reply", { parentId: thread });
    const expected = READERS[visibility][kind];
    expect(await outcome(api(kind).comments.list({ promptId }))).toBe(expected);
    expect(await outcome(api(kind).comments.replies({ id: thread }))).toBe(expected);
  });

  it.each(PROMPT_CALLER_KINDS)("comments.update of the author's comment: %s", async (kind) => {
    const id = await comment("author", promptId, "The author's words");
    expect(await outcome(api(kind).comments.update({ id, body: "Someone else's words" }))).toBe(EDIT_OTHERS[visibility][kind]);
    const stored = await db().promptComment.findUniqueOrThrow({ where: { id } });
    expect(stored.body).toBe(kind === "author" ? "Someone else's words" : "The author's words");
  });

  it.each(PROMPT_CALLER_KINDS)("comments.delete of the author's comment: %s", async (kind) => {
    const id = await comment("author", promptId, "To be moderated");
    const expected = DELETE_OTHERS[visibility][kind];
    expect(await outcome(api(kind).comments.delete({ id }))).toBe(expected);
    expect(await db().promptComment.count({ where: { id } })).toBe(expected === "OK" ? 0 : 1);
    if (READERS[visibility][kind] === "OK" && expected !== "OK") {
      // What the page offers is what the procedures answer.
      const thread = (await listed(kind, promptId)).find((item) => item.id === id);
      expect(thread?.can).toEqual({ edit: false, delete: false, reply: true });
    }
  });
});

it("the refusals say why", async () => {
  const { id: promptId } = await newPrompt("team");
  const id = await comment("author", promptId);
  expect(await failure(api("editor").comments.update({ id, body: "Mine now" }))).toEqual({ code: "FORBIDDEN", message: COMMENT_MSG.editOwnOnly });
  expect(await failure(api("viewer").comments.delete({ id }))).toEqual({ code: "FORBIDDEN", message: COMMENT_MSG.deleteOwnOnly });
  // A moderator may delete but never rewrite someone's words.
  expect(await failure(api("admin").comments.update({ id, body: "Moderated" }))).toEqual({ code: "FORBIDDEN", message: COMMENT_MSG.editOwnOnly });
});

it("with rate limits on, one person's 61st comment in ten minutes is refused (429) and stores nothing; another person may still post", async () => {
  const { id: promptId } = await newPrompt("team");
  const byViewer = () => db().promptComment.count({ where: { promptId, authorId: world.accounts.viewer.id } });
  h.services.config.rateLimits = true;
  try {
    // A reader's thread and its replies count together: 60 in ten minutes.
    const thread = await comment("viewer", promptId, "Thread");
    for (let i = 1; i < 60; i++) await comment("viewer", promptId, `Reply ${i}`, { parentId: thread });
    expect(await failure(api("viewer").comments.create({ promptId, body: "One too many", parentId: thread }))).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: MSG.tooManyRequests,
    });
    expect(await failure(api("viewer").comments.create({ promptId, body: "A new thread" }))).toEqual({ code: "TOO_MANY_REQUESTS", message: MSG.tooManyRequests });
    expect(await byViewer()).toBe(60);
    // Counted per person: the editor is not held back by the viewer's comments.
    await comment("editor", promptId, "Still here", { parentId: thread });
    expect(await db().promptComment.count({ where: { promptId } })).toBe(61);
  } finally {
    h.services.config.rateLimits = false;
    await h.services.rateLimits.reset();
  }
});

it("with rate limits on, a post refused for another reason (no such thread or version, a reply to a reply or to a deleted thread) uses up none of the 60", async () => {
  const { id: promptId } = await newPrompt("team");
  const thread = await comment("editor", promptId, "Thread");
  const reply = await comment("editor", promptId, "Reply", { parentId: thread });
  const gone = await comment("editor", promptId, "Soon a stub");
  await comment("editor", promptId, "Keeps the stub", { parentId: gone });
  await api("editor").comments.delete({ id: gone });
  h.services.config.rateLimits = true;
  try {
    const refusals = [
      { parentId: "00000000-0000-4000-8000-000000000000", code: "NOT_FOUND", message: COMMENT_MSG.notFound },
      { version: 99, code: "NOT_FOUND", message: COMMENT_MSG.versionNotFound },
      { parentId: reply, code: "BAD_REQUEST", message: COMMENT_MSG.replyToReply },
      { parentId: gone, code: "CONFLICT", message: COMMENT_MSG.replyToDeleted },
    ];
    for (const { code, message, ...extra } of refusals) {
      expect(await failure(api("viewer").comments.create({ promptId, body: "Refused", ...extra }))).toEqual({ code, message });
    }
    // All 60 are still there.
    for (let i = 0; i < 60; i++) await comment("viewer", promptId, `Reply ${i}`, { parentId: thread });
    expect(await failure(api("viewer").comments.create({ promptId, body: "One too many" }))).toEqual({ code: "TOO_MANY_REQUESTS", message: MSG.tooManyRequests });
  } finally {
    h.services.config.rateLimits = false;
    await h.services.rateLimits.reset();
  }
});

it("with rate limits on, an edit that mentions someone anew counts as a comment: past the limit it is refused and changes nothing; an edit notifying nobody goes through", async () => {
  const { id: promptId } = await newPrompt("team");
  const token = (kind: "editor" | "admin") => mentionToken({ id: world.accounts[kind].id, name: kind });
  const stored = (id: string) => db().promptComment.findUniqueOrThrow({ where: { id }, select: { body: true, mentions: { select: { userId: true } } } });
  const mentionNotices = (commentId: string, kind: "editor" | "admin") =>
    db().notification.count({ where: { commentId, userId: world.accounts[kind].id, kind: "mention" } });
  h.services.config.rateLimits = true;
  try {
    const id = await comment("viewer", promptId, "Thread");
    for (let i = 1; i < 59; i++) await comment("viewer", promptId, `Reply ${i}`, { parentId: id });
    // The 60th: an edit naming the editor, who hears of it.
    await api("viewer").comments.update({ id, body: `Thread for ${token("editor")}` });
    expect(await mentionNotices(id, "editor")).toBe(1);
    // Taking the mention out notifies nobody: not counted, not refused.
    await api("viewer").comments.update({ id, body: "Thread, no one named" });
    expect(await stored(id)).toEqual({ body: "Thread, no one named", mentions: [] });
    // Naming someone anew is one too many: refused, nothing changed, no one notified.
    expect(await failure(api("viewer").comments.update({ id, body: `Thread for ${token("admin")}` }))).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: MSG.tooManyRequests,
    });
    expect(await stored(id)).toEqual({ body: "Thread, no one named", mentions: [] });
    expect(await mentionNotices(id, "admin")).toBe(0);
    expect(await failure(api("viewer").comments.create({ promptId, body: "A new thread" }))).toEqual({ code: "TOO_MANY_REQUESTS", message: MSG.tooManyRequests });
    // An edit that names no one new still goes through.
    await api("viewer").comments.update({ id, body: "Thread, typo fixed" });
    expect(await stored(id)).toEqual({ body: "Thread, typo fixed", mentions: [] });
  } finally {
    h.services.config.rateLimits = false;
    await h.services.rateLimits.reset();
  }
});

// ---- validation ----

describe("validation", () => {
  let promptId: string;
  beforeAll(async () => {
    promptId = (await newPrompt("team")).id;
    await api("author").promptVersions.create({ promptId, template: "Second {{ x }}" });
  });

  it.each([
    ["an empty body", "", COMMENT_MSG.bodyRequired],
    ["only spaces and line breaks", "  \n\t ", COMMENT_MSG.bodyRequired],
    ["5,001 characters", "x".repeat(5001), COMMENT_MSG.bodyTooLong],
    ["a NUL character", "a\u0000b", MSG.multilineControlCharacters],
  ])("create and update refuse %s", async (_what, body, message) => {
    expect(await failure(api("viewer").comments.create({ promptId, body }))).toEqual({ code: "BAD_REQUEST", message });
    const id = await comment("viewer", promptId);
    expect(await failure(api("viewer").comments.update({ id, body }))).toEqual({ code: "BAD_REQUEST", message });
  });

  it("5,000 characters are accepted, trimmed; line breaks and tabs are kept", async () => {
    const id = await comment("viewer", promptId, `  ${"y".repeat(5000)}  `);
    expect((await db().promptComment.findUniqueOrThrow({ where: { id } })).body).toBe("y".repeat(5000));
    const multi = await comment("viewer", promptId, "line 1\n\tline 2");
    expect((await db().promptComment.findUniqueOrThrow({ where: { id: multi } })).body).toBe("line 1\n\tline 2");
  });

  it("a version ties the comment to it; an unknown version is NOT_FOUND", async () => {
    const id = await comment("viewer", promptId, "On v2", { version: 2 });
    expect((await listed("viewer", promptId)).find((thread) => thread.id === id)?.version).toBe(2);
    expect(await failure(api("viewer").comments.create({ promptId, body: "On v3", version: 3 }))).toEqual({
      code: "NOT_FOUND",
      message: COMMENT_MSG.versionNotFound,
    });
    expect((await answer(api("viewer").comments.create({ promptId, body: "On v0", version: 0 }))).code).toBe("BAD_REQUEST");
  });

  it("a reply to a reply is refused with a clear message; a reply to another prompt's comment is NOT_FOUND", async () => {
    const thread = await comment("author", promptId, "Thread");
    const reply = await comment("viewer", promptId, "Reply", { parentId: thread });
    expect(await failure(api("editor").comments.create({ promptId, body: "Deeper", parentId: reply }))).toEqual({
      code: "BAD_REQUEST",
      message: COMMENT_MSG.replyToReply,
    });
    const other = await newPrompt("team");
    expect(await failure(api("editor").comments.create({ promptId: other.id, body: "Elsewhere", parentId: thread }))).toEqual({
      code: "NOT_FOUND",
      message: COMMENT_MSG.notFound,
    });
    // The database refuses it too, whatever code writes.
    await expect(
      db().promptComment.create({ data: { promptId, parentId: reply, authorId: world.accounts.editor.id, body: "Sneaky" } }),
    ).rejects.toThrow(/a reply answers a top-level comment/);
  });

  it("a forged cursor is BAD_REQUEST with the same refusal as every list's", async () => {
    expect(await answer(api("viewer").comments.list({ promptId, cursor: "not-a-cursor" }), { reason: true })).toEqual({
      code: "BAD_REQUEST", message: PROMPT_MSG.invalidCursor, reason: "INVALID_CURSOR",
    });
  });
});

// ---- threads ----

describe("threads", () => {
  it("newest thread first, replies oldest first under their thread, 20 threads a page", async () => {
    const { id: promptId } = await newPrompt("team");
    const threads: string[] = [];
    for (let index = 0; index < 22; index++) {
      threads.push(await comment(index % 2 ? "viewer" : "editor", promptId, `Thread ${index}`));
      await advanceClock(h, 1000);
    }
    const first = await comment("admin", promptId, "First reply", { parentId: threads[0] });
    await advanceClock(h, 1000);
    const second = await comment("author", promptId, "Second reply", { parentId: threads[0] });
    const page1 = await api("viewer").comments.list({ promptId });
    expect(page1.items.map((thread) => thread.id)).toEqual(threads.slice(2).reverse());
    expect(page1.nextCursor).not.toBeNull();
    const page2 = await api("viewer").comments.list({ promptId, cursor: page1.nextCursor! });
    expect(page2.items.map((thread) => thread.id)).toEqual([threads[1], threads[0]]);
    expect(page2.nextCursor).toBeNull();
    expect(page2.items[1]!.replies.map((reply) => [reply.id, reply.parentId, reply.can.reply])).toEqual([
      [first, threads[0], false],
      [second, threads[0], false],
    ]);
    expect(await commentCount(promptId)).toBe(24);
  });

  it("a thread carries its newest 50 replies and how many it has; comments.replies gives the earlier ones a page at a time going back, each once, in order", async () => {
    const { id: promptId } = await newPrompt("team");
    const thread = await comment("editor", promptId, "A busy thread");
    const quiet = await comment("editor", promptId, "A quiet thread");
    // 123 replies, three to an instant: ties are ordered by id, across page edges too.
    const start = Date.now();
    await db().promptComment.createMany({
      data: Array.from({ length: 123 }, (_, index) => ({
        promptId, parentId: thread, authorId: world.accounts.viewer.id, body: `Reply ${index}`, createdAt: new Date(start + Math.floor(index / 3) * 1000),
      })),
    });
    const stored = await db().promptComment.findMany({ where: { parentId: thread }, select: { id: true, createdAt: true } });
    const expected = stored
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((reply) => reply.id);

    const items = await listed("viewer", promptId);
    const busy = items.find((item) => item.id === thread)!;
    expect(busy.replies.map((reply) => reply.id)).toEqual(expected.slice(-50));
    expect(busy.replyCount).toBe(123);
    expect(busy.repliesCursor).not.toBeNull();
    expect(items.find((item) => item.id === quiet)).toMatchObject({ replies: [], replyCount: 0, repliesCursor: null });

    // Each page is oldest first and comes before the one read just before it.
    let earlier: string[] = [];
    const pages: number[] = [];
    for (let cursor: string | null = busy.repliesCursor; cursor; ) {
      const page = await api("viewer").comments.replies({ id: thread, cursor });
      pages.push(page.items.length);
      earlier = [...page.items.map((reply) => reply.id), ...earlier];
      expect(page.items.every((reply) => reply.parentId === thread && reply.can.reply === false)).toBe(true);
      cursor = page.nextCursor;
    }
    expect(pages).toEqual([50, 23]);
    expect([...earlier, ...busy.replies.map((reply) => reply.id)]).toEqual(expected);
    // Without a cursor it starts at the newest reply, as the list does.
    expect((await api("viewer").comments.replies({ id: thread })).items.map((reply) => reply.id)).toEqual(expected.slice(-50));
  });

  it("comments.replies: a reply is no thread, and an unknown id or a forged cursor is refused as comments.list refuses", async () => {
    const { id: promptId } = await newPrompt("team");
    const thread = await comment("editor", promptId);
    const reply = await comment("viewer", promptId, "A reply", { parentId: thread });
    expect(await failure(api("viewer").comments.replies({ id: reply }))).toEqual({ code: "NOT_FOUND", message: COMMENT_MSG.notFound });
    expect(await outcome(api("viewer").comments.replies({ id: "00000000-0000-4000-8000-000000000000" }))).toBe("NOT_FOUND");
    expect(await answer(api("viewer").comments.replies({ id: thread, cursor: "not-a-cursor" }), { reason: true })).toEqual({
      code: "BAD_REQUEST", message: PROMPT_MSG.invalidCursor, reason: "INVALID_CURSOR",
    });
  });

  it("an edit is shown as edited; an unchanged text is no edit", async () => {
    const { id: promptId } = await newPrompt("team");
    const id = await comment("viewer", promptId, "Frist");
    expect((await listed("viewer", promptId))[0]!.editedAt).toBeNull();
    await api("viewer").comments.update({ id, body: "Frist" });
    expect((await listed("viewer", promptId))[0]!.editedAt).toBeNull();
    await advanceClock(h, 60_000);
    const before = h.clock.now();
    await api("viewer").comments.update({ id, body: "First" });
    const [edited] = await listed("viewer", promptId);
    expect(edited!.body).toBe("First");
    expect(edited!.editedAt!.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(edited!.editedAt!.getTime() - edited!.createdAt.getTime()).toBeGreaterThanOrEqual(60_000);
  });

  it("deleting a thread with replies keeps a stub; its last reply's delete takes the stub with it", async () => {
    const { id: promptId } = await newPrompt("team");
    const thread = await comment("editor", promptId, `Thread for ${mentionToken({ id: world.accounts.viewer.id, name: "Vera" })}`);
    const reply = await comment("viewer", promptId, "Reply", { parentId: thread });
    const alone = await comment("viewer", promptId, "Alone");
    expect(await commentCount(promptId)).toBe(3);

    expect(await api("editor").comments.delete({ id: thread })).toEqual({ id: thread, kept: "stub" });
    const stub = (await listed("viewer", promptId)).find((item) => item.id === thread);
    expect(stub).toMatchObject({ deleted: true, body: "", author: null, mentions: [], can: { edit: false, delete: false, reply: false } });
    expect(stub!.replies.map((item) => item.id)).toEqual([reply]);
    expect(await db().commentMention.count({ where: { commentId: thread } })).toBe(0);
    expect(await commentCount(promptId)).toBe(2);
    // The stub is no longer a comment: no edit, no second delete, no new reply.
    expect(await failure(api("editor").comments.update({ id: thread, body: "Back" }))).toEqual({ code: "NOT_FOUND", message: COMMENT_MSG.notFound });
    expect(await failure(api("admin").comments.delete({ id: thread }))).toEqual({ code: "NOT_FOUND", message: COMMENT_MSG.notFound });
    expect(await failure(api("admin").comments.create({ promptId, body: "Hello?", parentId: thread }))).toEqual({
      code: "CONFLICT",
      message: COMMENT_MSG.replyToDeleted,
    });

    expect(await api("viewer").comments.delete({ id: alone })).toEqual({ id: alone, kept: "nothing" });
    expect(await api("admin").comments.delete({ id: reply })).toEqual({ id: reply, kept: "nothing" });
    expect(await listed("viewer", promptId)).toEqual([]);
    expect(await db().promptComment.count({ where: { promptId } })).toBe(0);
    expect(await commentCount(promptId)).toBe(0);
  });

  it("a thread and its new reply never cross: concurrent reply and delete leave a stub with the reply, or no thread and a NOT_FOUND", async () => {
    const { id: promptId } = await newPrompt("team");
    for (let round = 0; round < 5; round++) {
      const thread = await comment("editor", promptId, `Round ${round}`);
      const [replied, deleted] = await Promise.all([
        answer(api("viewer").comments.create({ promptId, body: "Quick reply", parentId: thread })),
        answer(api("editor").comments.delete({ id: thread })),
      ]);
      expect(deleted.code).toBe("OK");
      const stored = await db().promptComment.findUnique({ where: { id: thread }, select: { deletedAt: true, replies: { select: { id: true } } } });
      if (replied.code === "OK") expect(stored).toMatchObject({ deletedAt: expect.any(Date), replies: [{ id: (replied.value as { id: string }).id }] });
      else expect([replied.code, stored]).toEqual(["NOT_FOUND", null]);
    }
  });
});

// ---- mentions ----

describe("mentions", () => {
  const token = (kind: Exclude<PromptCallerKind, "anonymous">, name = "Someone") => mentionToken({ id: world.accounts[kind].id, name });
  const mentionsOf = async (commentId: string) =>
    (await db().commentMention.findMany({ where: { commentId }, select: { userId: true } })).map((row) => row.userId).sort();
  const ids = (...kinds: Exclude<PromptCallerKind, "anonymous">[]) => kinds.map((kind) => world.accounts[kind].id).sort();

  it("mentions of readers in the organization are stored; anyone else's token stays text; the list names them as they are today", async () => {
    const { id: promptId } = await newPrompt("team");
    const body = `Hi ${token("viewer", "Old Name")} and ${token("admin")}, also ${token("orgMember")} ${token("outsider")} ${token("otherOrgMember")}`;
    const id = await comment("author", promptId, body);
    expect(await mentionsOf(id)).toEqual(ids("viewer", "admin"));
    const [listedComment] = await listed("viewer", promptId);
    expect(listedComment!.body).toBe(body);
    expect(listedComment!.mentions.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [
        { id: world.accounts.viewer.id, fullName: "Vera Viewer" },
        { id: world.accounts.admin.id, fullName: "Ada Admin" },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it("an edit follows the text: removed mentions go, new ones come", async () => {
    const { id: promptId } = await newPrompt("organization");
    const id = await comment("author", promptId, `Ping ${token("viewer")}`);
    await api("author").comments.update({ id, body: `Ping ${token("orgMember")} and ${token("editor")}` });
    expect(await mentionsOf(id)).toEqual(ids("orgMember", "editor"));
  });

  it("mentionCandidates: readers of the prompt in its organization, the caller aside, searched by name, at most 10", async () => {
    const team$ = await newPrompt("team");
    const names = async (promptId: string, q = "", by: PromptCallerKind = "author") =>
      (await api(by).comments.mentionCandidates({ promptId, q })).map((person) => person.fullName);
    expect(await names(team$.id)).toEqual(["Ada Admin", "Ed Editor", "Olga Orgadmin", "Vera Viewer"]);
    // Addresses match too, and theirs end in random hex: "EDIT" (a "t") can be in no one's but a name.
    expect(await names(team$.id, "EDIT")).toEqual(["Ed Editor"]);
    expect(await names(team$.id, "%")).toEqual([]);
    const organization$ = await newPrompt("organization");
    expect(await names(organization$.id, "", "viewer")).toEqual(["Ada Admin", "Alex Author", "Ed Editor", "Mia Member", "Olga Orgadmin"]);
    const private$ = await newPrompt("private");
    expect(await names(private$.id, "", "superUser")).toEqual(["Alex Author"]);
    expect(await names(private$.id)).toEqual([]);
  });

  it("mentionCandidates: found by two letters of a name, or by part of the address, with the address to tell them apart", async () => {
    const { id: promptId } = await newPrompt("team");
    const candidates = (q: string) => api("author").comments.mentionCandidates({ promptId, q });
    expect((await candidates("ve")).map((person) => person.fullName)).toEqual(["Vera Viewer"]);
    const viewer = world.accounts.viewer;
    const byAddress = await candidates(viewer.email.split("@")[0]!.toUpperCase());
    expect(byAddress).toEqual([expect.objectContaining({ id: viewer.id, fullName: "Vera Viewer", email: viewer.email })]);
  });
});

// ---- archived prompts ----

it("an archived prompt's comments are read-only: no new comment, reply or edit; deleting still works", async () => {
  const { id: promptId } = await newPrompt("team");
  const thread = await comment("viewer", promptId, "Before the archive");
  const other = await comment("editor", promptId, "Also before");
  await api("admin").prompts.archive({ id: promptId });
  expect(await failure(api("viewer").comments.create({ promptId, body: "After" }))).toEqual({ code: "CONFLICT", message: COMMENT_MSG.archived });
  expect(await failure(api("viewer").comments.create({ promptId, body: "After", parentId: thread }))).toEqual({
    code: "CONFLICT",
    message: COMMENT_MSG.archived,
  });
  expect(await failure(api("viewer").comments.update({ id: thread, body: "Changed" }))).toEqual({ code: "CONFLICT", message: COMMENT_MSG.archived });
  const [first] = await listed("viewer", promptId);
  expect(first!.can).toEqual({ edit: false, delete: false, reply: false });
  expect((await listed("viewer", promptId)).find((item) => item.id === thread)!.can).toEqual({ edit: false, delete: true, reply: false });
  expect(await outcome(api("viewer").comments.delete({ id: thread }))).toBe("OK");
  expect(await outcome(api("admin").comments.delete({ id: other }))).toBe("OK");
});

it("deleting the prompt deletes its comments", async () => {
  const { id: promptId } = await newPrompt("team");
  const id = await comment("viewer", promptId, "Goes with the prompt");
  await api("admin").prompts.archive({ id: promptId });
  await api("admin").prompts.delete({ id: promptId });
  expect(await db().promptComment.count({ where: { id } })).toBe(0);
});
