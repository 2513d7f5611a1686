// The prompt library's behaviour: immutable versions and numbers without gaps under
// concurrency, every validation rule, labels and rollback, archive and delete,
// counters kept by triggers, search and keyset pages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROMPT_MSG, type PromptVisibility } from "@promptly/shared";
import { createHarness, outcome as answer, type Harness } from "../../../testing/harness.ts";
import { createSignedInAccount } from "../../../testing/teams-support.ts";
import { createLibraryWorld, createPrompt, failure, insertPrompts, libraryState, outcome, promptName, watchLibraryWrites } from "../../../testing/prompts-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: Awaited<ReturnType<typeof world.team>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
  await watchLibraryWrites(h);
});
afterAll(() => h.close());

const db = () => h.database.db;
const newPrompt = (visibility: PromptVisibility = "team", options: { template?: string; title?: string; tags?: string[] } = {}) =>
  createPrompt(world.callers.author, team.id, { visibility, ...options });
const saveVersion = async (promptId: string, template: string) =>
  (await world.callers.author.promptVersions.create({ promptId, template })).version;

describe("versions are immutable", () => {
  it.each([
    ["the template", `template = 'Changed'`],
    ["the commit message", `commit_message = 'Rewritten history'`],
    ["the number", `version = 7`],
    ["the config", `config = '{"temperature": 1}'`],
    ["the author", `author_id = '${"00000000-0000-4000-8000-000000000000"}'`],
    ["nothing (the same template again)", `template = template`],
    ["the author to none, typed by hand", `author_id = NULL`],
  ])("a raw SQL UPDATE of %s fails and changes nothing", async (_what, assignment) => {
    const prompt = await newPrompt();
    const before = await db().promptVersion.findUniqueOrThrow({ where: { promptId_version: { promptId: prompt.id, version: 1 } } });
    await expect(
      db().$executeRawUnsafe(`UPDATE prompt_versions SET ${assignment} WHERE prompt_id = $1::uuid AND version = 1`, prompt.id),
    ).rejects.toThrow(/prompt versions are immutable/);
    expect(await db().promptVersion.findUniqueOrThrow({ where: { promptId_version: { promptId: prompt.id, version: 1 } } })).toEqual(before);
  });

  it("a raw SQL DELETE of one version fails; deleting the whole prompt still takes its versions", async () => {
    const prompt = await newPrompt();
    await expect(db().$executeRawUnsafe(`DELETE FROM prompt_versions WHERE prompt_id = $1::uuid`, prompt.id)).rejects.toThrow(
      /prompt versions are immutable/,
    );
    expect(await db().promptVersion.count({ where: { promptId: prompt.id } })).toBe(1);
    await db().prompt.delete({ where: { id: prompt.id } });
    expect(await db().promptVersion.count({ where: { promptId: prompt.id } })).toBe(0);
  });

  it("the one update allowed is the foreign key's: deleting an account keeps its versions, without their author", async () => {
    const leaver = await createSignedInAccount(h);
    await db().teamMember.create({ data: { teamId: team.id, userId: leaver.id, role: "editor" } });
    const prompt = await createPrompt(leaver.api, team.id, { visibility: "team", template: "Kept {{ x }}" });
    await db().user.delete({ where: { id: leaver.id } });
    expect(await db().promptVersion.findMany({ where: { promptId: prompt.id }, select: { authorId: true, template: true } })).toEqual([
      { authorId: null, template: "Kept {{ x }}" },
    ]);
    expect((await world.callers.viewer.prompts.get({ id: prompt.id })).author).toBeNull();
  });
});

describe("concurrency: version numbers without gaps, names unique per team", () => {
  it("20 concurrent promptVersions.create on one prompt give versions 1-21, no gap, no repeat", async () => {
    const prompt = await newPrompt();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        world.callers[index % 2 ? "author" : "editor"].promptVersions.create({ promptId: prompt.id, template: `Take ${index} on {{ x }}` }),
      ),
    );
    expect(answers.map((answer) => answer.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index + 2));
    const versions = await db().promptVersion.findMany({ where: { promptId: prompt.id }, select: { version: true, template: true }, orderBy: { version: "asc" } });
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: 21 }, (_, index) => index + 1));
    // Each answer names the version that holds its own text.
    for (const [index, answer] of answers.entries()) {
      expect(versions.find((v) => v.version === answer.version)?.template).toBe(`Take ${index} on {{ x }}`);
    }
    expect((await db().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).latestVersion).toBe(21);
    expect((await world.callers.viewer.prompts.get({ id: prompt.id })).version.version).toBe(21);
    // The history pages through them newest first.
    const history: number[] = [];
    let cursor: number | undefined;
    do {
      const page = await world.callers.viewer.promptVersions.list({ promptId: prompt.id, limit: 5, cursor });
      history.push(...page.items.map((item) => item.version));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(history).toEqual(Array.from({ length: 21 }, (_, index) => 21 - index));
  });

  it("two concurrent prompts.create with one name in one team: one succeeds, the other is CONFLICT", async () => {
    const name = promptName("race");
    const create = (kind: "author" | "editor") =>
      answer(world.callers[kind].prompts.create({ teamId: team.id, name, title: `By ${kind}`, visibility: "team", type: "text", template: "Hi {{ x }}" }), {
        reason: true,
      });
    const results = await Promise.all([create("author"), create("editor")]);
    expect(results.map((result) => result.code).sort()).toEqual(["CONFLICT", "OK"]);
    expect(results.find((result) => result.code === "CONFLICT")).toMatchObject({ message: PROMPT_MSG.nameTaken, reason: "NAME_TAKEN" });
    const stored = await db().prompt.findMany({ where: { teamId: team.id, name }, select: { id: true } });
    expect(stored).toHaveLength(1);
    expect(await db().promptVersion.count({ where: { promptId: stored[0]!.id } })).toBe(1);
  });

  it("a name is unique per team, not per organization", async () => {
    const name = promptName("twin");
    const other = await world.team("Other");
    const input = { name, title: "Twin", visibility: "team" as const, type: "text" as const, template: "Hi {{ x }}" };
    await world.callers.author.prompts.create({ teamId: team.id, ...input });
    expect(await outcome(world.callers.author.prompts.create({ teamId: other.id, ...input }))).toBe("OK");
    expect(await failure(world.callers.author.prompts.create({ teamId: other.id, ...input }))).toEqual({ code: "CONFLICT", message: PROMPT_MSG.nameTaken });
  });
});

// ---- validation ----

const lintFailed = (...errors: string[]) => PROMPT_MSG.lintFailed + errors.join("; ");
type Fields = Record<string, unknown>;

/** Rules of a prompt's details: prompts.create (and update / rename for the fields they take). */
const DETAIL_RULES: [rule: string, fields: Fields, message: string][] = [
  ["a name with uppercase", { name: "Support/reply" }, PROMPT_MSG.nameInvalid],
  ["a name with a leading '/'", { name: "/support" }, PROMPT_MSG.nameInvalid],
  ["a name with a trailing '/'", { name: "support/" }, PROMPT_MSG.nameInvalid],
  ["a name with a double '/'", { name: "support//reply" }, PROMPT_MSG.nameInvalid],
  ["a name with a space", { name: "support reply" }, PROMPT_MSG.nameInvalid],
  ["a name of 129 characters", { name: "a".repeat(129) }, PROMPT_MSG.nameTooLong],
  ["an empty name", { name: "" }, PROMPT_MSG.nameRequired],
  ["an empty title", { title: "" }, PROMPT_MSG.titleRequired],
  ["a blank title", { title: "   " }, PROMPT_MSG.titleRequired],
  ["a title of 121 characters", { title: "t".repeat(121) }, PROMPT_MSG.titleTooLong],
  ["a description of 1001 characters", { description: "d".repeat(1001) }, PROMPT_MSG.descriptionTooLong],
  ["11 tags", { tags: Array.from({ length: 11 }, (_, index) => `tag-${index}`) }, PROMPT_MSG.tooManyTags],
  ["a tag with a space", { tags: ["fine", "not fine"] }, PROMPT_MSG.tagInvalid],
  ["a tag with an underscore", { tags: ["snake_case"] }, PROMPT_MSG.tagInvalid],
  ["a tag of 33 characters", { tags: ["t".repeat(33)] }, PROMPT_MSG.tagInvalid],
];

/** Rules of a version's body and settings: prompts.create and promptVersions.create. */
const VERSION_RULES: [rule: string, fields: Fields, message: string][] = [
  ["a model of 101 characters", { model: "m".repeat(101) }, PROMPT_MSG.modelTooLong],
  ["a config that is a string", { config: "temperature=1" }, PROMPT_MSG.configNotObject],
  ["a config that is an array", { config: [0.7] }, PROMPT_MSG.configNotObject],
  ["a config over 16 kB", { config: { stop: "s".repeat(16 * 1024) } }, PROMPT_MSG.configTooLarge],
  ["a commit message of 501 characters", { commitMessage: "c".repeat(501) }, PROMPT_MSG.commitMessageTooLong],
  ["a template over 100,000 characters", { template: `{{ x }}${"x".repeat(100_000)}` }, PROMPT_MSG.textTooLong],
  ["chat messages over 100,000 characters together", { type: "chat", template: undefined, messages: [{ role: "system", content: "s".repeat(60_000) }, { role: "user", content: "u".repeat(40_001) }] }, PROMPT_MSG.textTooLong],
  ["a text prompt with messages", { type: "text", messages: [{ role: "user", content: "Hi" }] }, PROMPT_MSG.templateRequired],
  ["a text prompt without a template", { type: "text", template: undefined }, PROMPT_MSG.templateRequired],
  ["a chat prompt without messages", { type: "chat" }, PROMPT_MSG.messagesRequired],
  ["a variable contract with an invalid name", { variables: [{ name: "1st", type: "string" }] }, PROMPT_MSG.variableNameInvalid],
  // Lint errors refuse the save, each named.
  ["an unbalanced '{{'", { template: "Hello {{ name" }, lintFailed("'{{' without a closing '}}' at character 7")],
  ["an invalid variable name in the template", { template: "Hello {{ 1st }}" }, lintFailed("'{{ 1st }}' is not a valid variable name (letters, digits and _, not starting with a digit)")],
  ["an empty template", { template: "  \n " }, lintFailed("The template is empty")],
  ["a chat prompt with no message", { type: "chat", template: undefined, messages: [] }, lintFailed("A chat prompt needs at least one message")],
  ["an empty chat message", { type: "chat", template: undefined, messages: [{ role: "user", content: " " }] }, lintFailed("Message 1 (user) is empty")],
  ["a default that breaks its type", { template: "{{ count }} items", variables: [{ name: "count", type: "number", default: "many" }] }, lintFailed("The default of 'count' must be a number")],
  ["an enum without options", { template: "In a {{ tone }} tone", variables: [{ name: "tone", type: "enum" }] }, lintFailed("'tone' is an enum without options")],
  ["several lint errors at once", { template: "{{ a } and {{ 2b }}" }, lintFailed("'{{' without a closing '}}' at character 1", "'{{ 2b }}' is not a valid variable name (letters, digits and _, not starting with a digit)")],
];

describe("validation: BAD_REQUEST with the rule's message, and nothing changes", () => {
  let prompt: { id: string; name: string };
  beforeAll(async () => {
    prompt = await newPrompt("team");
    await world.callers.superUser.promptLabels.set({ promptId: prompt.id, label: "staging", version: 1 });
  });

  /** Refused with exactly `message`, and the library's tables untouched. */
  const expectRefused = async (call: () => Promise<unknown>, message: string) => {
    const before = await libraryState(h);
    expect(await failure(call())).toEqual({ code: "BAD_REQUEST", message });
    expect(await libraryState(h)).toEqual(before);
  };
  const validPrompt = () => ({ teamId: team.id, name: promptName("valid"), title: "Valid", visibility: "team" as const, type: "text" as const, template: "Hello {{ name }}" });

  it.each([...DETAIL_RULES, ...VERSION_RULES])("prompts.create refuses %s", async (_rule, fields, message) => {
    await expectRefused(() => world.callers.author.prompts.create({ ...validPrompt(), ...fields } as never), message);
  });

  it.each(VERSION_RULES)("promptVersions.create refuses %s", async (_rule, fields, message) => {
    await expectRefused(() => world.callers.author.promptVersions.create({ promptId: prompt.id, template: "Hello {{ name }}", ...fields } as never), message);
  });

  it.each(DETAIL_RULES.filter(([, fields]) => "name" in fields))("prompts.rename refuses %s", async (_rule, fields, message) => {
    await expectRefused(() => world.callers.admin.prompts.rename({ id: prompt.id, name: fields.name as string }), message);
  });

  it.each(DETAIL_RULES.filter(([, fields]) => !("name" in fields)))("prompts.update refuses %s", async (_rule, fields, message) => {
    await expectRefused(() => world.callers.author.prompts.update({ id: prompt.id, ...fields }), message);
  });

  it.each([
    ["'latest'", "latest", PROMPT_MSG.labelLatest],
    ["a label with uppercase", "Staging", PROMPT_MSG.labelInvalid],
    ["a label of 37 characters", "l".repeat(37), PROMPT_MSG.labelInvalid],
    ["an empty label", "", PROMPT_MSG.labelInvalid],
    ["a label with a space", "qa team", PROMPT_MSG.labelInvalid],
  ])("promptLabels.set and promptLabels.remove refuse %s", async (_rule, label, message) => {
    await expectRefused(() => world.callers.admin.promptLabels.set({ promptId: prompt.id, label, version: 1 }), message);
    await expectRefused(() => world.callers.admin.promptLabels.remove({ promptId: prompt.id, label }), message);
  });

  it.each([0, 6, 2.5, -1])("ratings.set refuses %s stars", async (stars) => {
    await expectRefused(() => world.callers.viewer.ratings.set({ promptId: prompt.id, stars }), PROMPT_MSG.starsRange);
  });

  it("prompts.get refuses a version and a label together", async () => {
    expect(await failure(world.callers.viewer.prompts.get({ id: prompt.id, version: 1, label: "staging" }))).toEqual({
      code: "BAD_REQUEST",
      message: PROMPT_MSG.versionOrLabel,
    });
  });

  it("accepts what the rules allow: 128 characters, folders, 10 tags (lowercased, repeats dropped), a chat prompt", async () => {
    const name = `folder/sub-folder/${"n".repeat(128 - 18)}`;
    const created = await world.callers.author.prompts.create({
      ...validPrompt(),
      name,
      title: "t".repeat(120),
      description: "d".repeat(1000),
      tags: [...Array.from({ length: 10 }, (_, index) => `Tag-${index}`), "tag-0"],
      type: "chat",
      template: undefined,
      messages: [{ role: "system", content: "You help {{ customer }}." }, { role: "user", content: "{{ question }}" }],
      model: "m".repeat(100),
      config: { temperature: 0.2 },
      commitMessage: "c".repeat(500),
    });
    expect(created).toEqual({ id: expect.any(String), name, version: 1 });
    const stored = await world.callers.author.prompts.get({ id: created.id });
    expect(stored.tags).toEqual(Array.from({ length: 10 }, (_, index) => `tag-${index}`));
    expect(stored.version).toMatchObject({ type: "chat", template: null, messages: [{ role: "system" }, { role: "user" }], config: { temperature: 0.2 } });
  });
});

// ---- labels, archive, delete ----

describe("versions and labels", () => {
  it("get shows production when set, else the latest; a version or a label on request", async () => {
    const prompt = await newPrompt("team", { template: "One {{ x }}" });
    const shown = async (choose: { version?: number; label?: string } = {}) => (await world.callers.viewer.prompts.get({ id: prompt.id, ...choose })).version;
    expect(await shown()).toMatchObject({ version: 1, template: "One {{ x }}" });
    await saveVersion(prompt.id, "Two {{ x }}");
    await saveVersion(prompt.id, "Three {{ x }}");
    expect(await shown()).toMatchObject({ version: 3, template: "Three {{ x }}" });
    await world.callers.admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 2 });
    expect(await shown()).toMatchObject({ version: 2, template: "Two {{ x }}" });
    expect(await shown({ label: "latest" })).toMatchObject({ version: 3 });
    expect(await shown({ label: "production" })).toMatchObject({ version: 2 });
    expect(await shown({ version: 1 })).toMatchObject({ version: 1, template: "One {{ x }}" });
    await world.callers.editor.promptLabels.set({ promptId: prompt.id, label: "staging", version: 3 });
    expect(await shown({ label: "staging" })).toMatchObject({ version: 3 });
    const detail = await world.callers.viewer.prompts.get({ id: prompt.id });
    expect(detail).toMatchObject({ latestVersion: 3, labels: [{ name: "production", version: 2 }, { name: "staging", version: 3 }] });
    expect((await world.callers.viewer.promptVersions.list({ promptId: prompt.id })).items.map((item) => [item.version, item.labels])).toEqual([
      [3, ["staging"]],
      [2, ["production"]],
      [1, []],
    ]);
  });

  it("a label or a version that does not exist is NOT_FOUND", async () => {
    const prompt = await newPrompt();
    expect(await failure(world.callers.viewer.prompts.get({ id: prompt.id, label: "canary" }))).toEqual({ code: "NOT_FOUND", message: PROMPT_MSG.labelNotFound });
    expect(await failure(world.callers.viewer.prompts.get({ id: prompt.id, label: "production" }))).toEqual({ code: "NOT_FOUND", message: PROMPT_MSG.labelNotFound });
    expect(await failure(world.callers.viewer.prompts.get({ id: prompt.id, version: 2 }))).toEqual({ code: "NOT_FOUND", message: PROMPT_MSG.versionNotFound });
    const before = await libraryState(h);
    expect(await failure(world.callers.admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 2 }))).toEqual({
      code: "NOT_FOUND",
      message: PROMPT_MSG.versionNotFound,
    });
    expect(await failure(world.callers.editor.promptLabels.remove({ promptId: prompt.id, label: "staging" }))).toEqual({
      code: "NOT_FOUND",
      message: PROMPT_MSG.labelNotFound,
    });
    expect(await libraryState(h)).toEqual(before);
    expect(await failure(world.callers.viewer.prompts.get({ id: "00000000-0000-4000-8000-000000000000" }))).toMatchObject({ code: "NOT_FOUND" });
  });

  it("rolls back: production moves to an older version, and get follows it", async () => {
    const prompt = await newPrompt("team", { template: "Stable {{ x }}" });
    await saveVersion(prompt.id, "Risky {{ x }}");
    await world.callers.admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 2 });
    expect((await world.callers.viewer.prompts.get({ id: prompt.id })).version.template).toBe("Risky {{ x }}");
    expect(await world.callers.orgAdmin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 })).toEqual({ label: "production", version: 1 });
    expect((await world.callers.viewer.prompts.get({ id: prompt.id })).version.template).toBe("Stable {{ x }}");
    expect(await db().promptLabel.findMany({ where: { promptId: prompt.id }, select: { name: true, version: true, movedById: true } })).toEqual([
      { name: "production", version: 1, movedById: world.accounts.orgAdmin.id },
    ]);
    // Removing production: get shows the latest again.
    await world.callers.admin.promptLabels.remove({ promptId: prompt.id, label: "production" });
    expect((await world.callers.viewer.prompts.get({ id: prompt.id })).version.version).toBe(2);
  });

  it("production is team admin level, with its own message; the author cannot rate their prompt", async () => {
    const prompt = await newPrompt();
    expect(await failure(world.callers.editor.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 }))).toEqual({
      code: "FORBIDDEN",
      message: PROMPT_MSG.protectedLabel,
    });
    expect(await failure(world.callers.author.ratings.set({ promptId: prompt.id, stars: 5 }))).toEqual({ code: "FORBIDDEN", message: PROMPT_MSG.ownPromptRating });
  });
});

describe("the contract in force", () => {
  it("a version saved without a contract answers each variable of its template as a required string", async () => {
    const prompt = await newPrompt("team", { template: "Hello {{customer}}" });
    expect((await db().promptVersion.findFirstOrThrow({ where: { promptId: prompt.id }, select: { variables: true } })).variables).toEqual([]);
    expect((await world.callers.viewer.prompts.get({ id: prompt.id })).version.variables).toEqual([{ name: "customer", type: "string", required: true }]);
  });

  it("described variables as described, the others of the template after them (a chat prompt's too)", async () => {
    const created = await world.callers.author.prompts.create({
      teamId: team.id, name: promptName("chat"), title: "Chat", visibility: "team", type: "chat",
      messages: [{ role: "system", content: "You help {{ customer }} in a {{ tone }} tone." }, { role: "user", content: "{{ question }}" }],
      variables: [{ name: "tone", type: "enum", options: ["warm", "brief"], description: "how to sound" }],
    });
    expect((await world.callers.viewer.prompts.get({ id: created.id })).version.variables).toEqual([
      { name: "tone", type: "enum", options: ["warm", "brief"], description: "how to sound" },
      { name: "customer", type: "string", required: true },
      { name: "question", type: "string", required: true },
    ]);
  });
});

describe("archive, restore, delete", () => {
  it("an archived prompt takes no new version, label move, edit or rename (CONFLICT) until restored", async () => {
    const prompt = await newPrompt();
    await world.callers.author.promptLabels.set({ promptId: prompt.id, label: "staging", version: 1 });
    const archived = await world.callers.author.prompts.archive({ id: prompt.id });
    expect(archived.archivedAt).toBeInstanceOf(Date);
    // Idempotent: archiving again keeps the first date.
    expect(await world.callers.admin.prompts.archive({ id: prompt.id })).toEqual(archived);
    const before = await libraryState(h);
    const conflict = { code: "CONFLICT", message: PROMPT_MSG.archived };
    expect(await failure(world.callers.author.promptVersions.create({ promptId: prompt.id, template: "New {{ x }}" }))).toEqual(conflict);
    expect(await failure(world.callers.admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 }))).toEqual(conflict);
    expect(await failure(world.callers.author.promptLabels.set({ promptId: prompt.id, label: "staging", version: 1 }))).toEqual(conflict);
    expect(await failure(world.callers.author.promptLabels.remove({ promptId: prompt.id, label: "staging" }))).toEqual(conflict);
    expect(await failure(world.callers.author.prompts.update({ id: prompt.id, title: "Edited" }))).toEqual(conflict);
    expect(await failure(world.callers.admin.prompts.rename({ id: prompt.id, name: `${prompt.name}-x` }))).toEqual(conflict);
    expect(await libraryState(h)).toEqual(before);
    // Still readable, with its history.
    expect((await world.callers.viewer.prompts.get({ id: prompt.id })).archivedAt).toEqual(archived.archivedAt);

    expect(await world.callers.author.prompts.restore({ id: prompt.id })).toEqual({ archivedAt: null });
    expect(await world.callers.author.promptVersions.create({ promptId: prompt.id, template: "New {{ x }}" })).toEqual({ version: 2 });
    expect(await world.callers.author.promptLabels.set({ promptId: prompt.id, label: "staging", version: 2 })).toEqual({ label: "staging", version: 2 });
  });

  it.each([
    ["update", (id: string) => world.callers.author.prompts.update({ id, title: "Edited late", tags: ["late"] })],
    ["rename", (id: string) => world.callers.admin.prompts.rename({ id, name: `late-${id.slice(0, 8)}` })],
  ] as const)("%s waits for an archive holding the prompt's row, then reads it archived (CONFLICT), like a label move", async (_name, change) => {
    const prompt = await newPrompt();
    const before = await db().prompt.findUniqueOrThrow({ where: { id: prompt.id }, select: { name: true, title: true, tags: true } });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    // A second transaction archives the prompt and keeps its row locked until told to commit.
    const archiving = db().$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE prompts SET archived_at = now() WHERE id = ${prompt.id}::uuid`;
      holding();
      await released;
    }, { timeout: 30_000 });
    await held;
    const changing = failure(change(prompt.id));
    // The change has loaded the prompt (live then) and now waits for the row's lock.
    const waiting = async () =>
      (await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_locks WHERE locktype IN ('tuple', 'transactionid') AND NOT granted`)[0]!.n;
    for (let tries = 0; (await waiting()) === 0; tries += 1) {
      if (tries > 200) throw new Error("the change never waited for the archive's lock");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    release();
    await archiving;
    expect(await changing).toEqual({ code: "CONFLICT", message: PROMPT_MSG.archived });
    expect(await db().prompt.findUniqueOrThrow({ where: { id: prompt.id }, select: { name: true, title: true, tags: true } })).toEqual(before);
  });

  it("archiving an archived prompt or restoring a live one changes nothing", async () => {
    const prompt = await newPrompt();
    let before = await libraryState(h);
    expect(await world.callers.author.prompts.restore({ id: prompt.id })).toEqual({ archivedAt: null });
    expect(await libraryState(h)).toEqual(before);
    const { archivedAt } = await world.callers.author.prompts.archive({ id: prompt.id });
    before = await libraryState(h);
    h.clock.advance(60_000);
    expect(await world.callers.admin.prompts.archive({ id: prompt.id })).toEqual({ archivedAt });
    expect(await libraryState(h)).toEqual(before);
  });

  it("the list leaves archived prompts out unless asked for them", async () => {
    const space = await world.space("Archive");
    const live = await createPrompt(world.callers.author, space.team.id, { visibility: "team" });
    const gone = await createPrompt(world.callers.author, space.team.id, { visibility: "team" });
    await world.callers.admin.prompts.archive({ id: gone.id });
    const ids = async (archived?: boolean) => (await world.callers.viewer.prompts.list({ organizationId: space.organizationId, archived })).items.map((item) => item.id);
    expect(await ids()).toEqual([live.id]);
    expect(await ids(true)).toEqual([gone.id]);
  });

  it("deletes for good only an archived prompt, with its versions, labels, bookmarks and ratings", async () => {
    const prompt = await newPrompt();
    await saveVersion(prompt.id, "Second {{ x }}");
    await world.callers.admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 2 });
    await world.callers.viewer.bookmarks.add({ promptId: prompt.id });
    await world.callers.viewer.ratings.set({ promptId: prompt.id, stars: 3 });
    const before = await libraryState(h);
    expect(await failure(world.callers.admin.prompts.delete({ id: prompt.id }))).toEqual({ code: "CONFLICT", message: PROMPT_MSG.notArchived });
    expect(await libraryState(h)).toEqual(before);
    await world.callers.admin.prompts.archive({ id: prompt.id });
    expect(await outcome(world.callers.admin.prompts.delete({ id: prompt.id }))).toBe("OK");
    expect(await libraryState(h)).toMatchObject({
      prompts: before.prompts! - 1,
      versions: before.versions! - 2,
      labels: before.labels! - 1,
      bookmarks: before.bookmarks! - 1,
      ratings: before.ratings! - 1,
    });
    expect(await outcome(world.callers.superUser.prompts.get({ id: prompt.id }))).toBe("NOT_FOUND");
  });
});

describe("ratings and bookmarks: counters kept by triggers", () => {
  it("keeps the average, the counts and each person's own stars", async () => {
    const prompt = await newPrompt();
    const stats = async () => {
      const [detail, row] = await Promise.all([
        world.callers.viewer.prompts.get({ id: prompt.id }),
        db().prompt.findUniqueOrThrow({ where: { id: prompt.id }, select: { ratingCount: true, ratingSum: true, ratingAverage: true, bookmarkCount: true } }),
      ]);
      expect([detail.ratingAverage, detail.ratingCount, detail.bookmarkCount]).toEqual([row.ratingAverage, row.ratingCount, row.bookmarkCount]);
      return { ...row, myRating: detail.myRating, bookmarked: detail.bookmarked };
    };
    expect(await stats()).toEqual({ ratingCount: 0, ratingSum: 0, ratingAverage: 0, bookmarkCount: 0, myRating: null, bookmarked: false });
    expect(await world.callers.viewer.ratings.set({ promptId: prompt.id, stars: 5 })).toEqual({ myRating: 5, ratingAverage: 5, ratingCount: 1 });
    await world.callers.editor.ratings.set({ promptId: prompt.id, stars: 4 });
    expect(await world.callers.admin.ratings.set({ promptId: prompt.id, stars: 2 })).toEqual({ myRating: 2, ratingAverage: 11 / 3, ratingCount: 3 });
    // Changing one's stars replaces them.
    expect(await world.callers.viewer.ratings.set({ promptId: prompt.id, stars: 1 })).toEqual({ myRating: 1, ratingAverage: 7 / 3, ratingCount: 3 });
    expect(await stats()).toMatchObject({ ratingCount: 3, ratingSum: 7, ratingAverage: 7 / 3, myRating: 1 });
    expect(await world.callers.editor.ratings.clear({ promptId: prompt.id })).toEqual({ myRating: null, ratingAverage: 1.5, ratingCount: 2 });
    expect(await world.callers.editor.ratings.clear({ promptId: prompt.id })).toEqual({ myRating: null, ratingAverage: 1.5, ratingCount: 2 });

    expect(await world.callers.viewer.bookmarks.add({ promptId: prompt.id })).toEqual({ bookmarked: true });
    expect(await world.callers.viewer.bookmarks.add({ promptId: prompt.id })).toEqual({ bookmarked: true });
    await world.callers.orgAdmin.bookmarks.add({ promptId: prompt.id });
    expect(await stats()).toMatchObject({ bookmarkCount: 2, bookmarked: true });
    expect(await world.callers.orgAdmin.bookmarks.remove({ promptId: prompt.id })).toEqual({ bookmarked: false });
    expect(await world.callers.orgAdmin.bookmarks.remove({ promptId: prompt.id })).toEqual({ bookmarked: false });
    expect(await stats()).toMatchObject({ bookmarkCount: 1, ratingCount: 2, ratingSum: 3 });
  });

  it("an account deleted takes its stars and bookmarks out of the counters", async () => {
    const prompt = await newPrompt();
    const leaver = await createSignedInAccount(h);
    await db().teamMember.create({ data: { teamId: team.id, userId: leaver.id, role: "viewer" } });
    await leaver.api.ratings.set({ promptId: prompt.id, stars: 1 });
    await leaver.api.bookmarks.add({ promptId: prompt.id });
    await world.callers.viewer.ratings.set({ promptId: prompt.id, stars: 5 });
    expect(await db().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ ratingCount: 2, ratingAverage: 3, bookmarkCount: 1 });
    await db().user.delete({ where: { id: leaver.id } });
    expect(await db().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ ratingCount: 1, ratingSum: 5, ratingAverage: 5, bookmarkCount: 0 });
  });
});

describe("who makes a prompt private", () => {
  it.each([
    ["editor", "FORBIDDEN"],
    ["admin", "FORBIDDEN"],
    ["orgAdmin", "FORBIDDEN"],
    ["author", "OK"],
    ["superUser", "OK"],
  ] as const)("%s: %s", async (kind, expected) => {
    const prompt = await newPrompt("organization");
    const before = await libraryState(h);
    const result = await answer(world.callers[kind].prompts.update({ id: prompt.id, visibility: "private" }));
    expect(result.code).toBe(expected);
    if (expected === "FORBIDDEN") {
      expect(result.message).toBe(PROMPT_MSG.privateAuthorOnly);
      expect(await libraryState(h)).toEqual(before);
      return;
    }
    // Private means the author's alone, whoever made it so.
    expect(await db().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).toMatchObject({ visibility: "private", authorId: world.accounts.author.id });
    expect(await outcome(world.callers.author.prompts.get({ id: prompt.id }))).toBe("OK");
    expect(await outcome(world.callers.admin.prompts.get({ id: prompt.id }))).toBe("NOT_FOUND");
  });

  it("the author brings a private prompt back to the team; other edits keep it private", async () => {
    const prompt = await newPrompt("private");
    await world.callers.author.prompts.update({ id: prompt.id, title: "Still mine", visibility: "private" });
    expect(await outcome(world.callers.editor.prompts.get({ id: prompt.id }))).toBe("NOT_FOUND");
    await world.callers.author.prompts.update({ id: prompt.id, visibility: "team" });
    expect(await world.callers.editor.prompts.get({ id: prompt.id })).toMatchObject({ title: "Still mine", visibility: "team" });
  });
});

describe("names", () => {
  it("rename: a free name is taken at once, a taken one is CONFLICT; nameAvailable says which", async () => {
    const first = await newPrompt();
    const second = await newPrompt();
    const target = promptName("support/replies/renamed");
    expect(await world.callers.author.prompts.nameAvailable({ teamId: team.id, name: target })).toEqual({ available: true });
    await world.callers.admin.prompts.rename({ id: first.id, name: target });
    expect(await world.callers.author.prompts.nameAvailable({ teamId: team.id, name: target })).toEqual({ available: false });
    expect(await world.callers.author.prompts.nameAvailable({ teamId: team.id, name: first.name })).toEqual({ available: true });
    const before = await libraryState(h);
    expect(await failure(world.callers.admin.prompts.rename({ id: second.id, name: target }))).toEqual({ code: "CONFLICT", message: PROMPT_MSG.nameTaken });
    expect(await libraryState(h)).toEqual(before);
    expect((await world.callers.viewer.prompts.get({ id: first.id })).name).toBe(target);
  });
});

describe("facets and the dashboard", () => {
  it("counts folders at every depth and tags, of the live prompts the caller reads", async () => {
    const space = await world.space("Facets");
    const make = (name: string, tags: string[], visibility: PromptVisibility = "team") =>
      createPrompt(world.callers.author, space.team.id, { visibility, name, tags });
    await make("support/email/reply", ["email", "support"]);
    await make("support/email/escalate", ["email"]);
    await make("support/chat", ["chat"]);
    await make("top-level", ["email"]);
    await make("secret/plan", ["secret"], "private");
    const archived = await make("old/thing", ["old"]);
    await world.callers.author.prompts.archive({ id: archived.id });
    expect(await world.callers.viewer.prompts.facets({ organizationId: space.organizationId })).toEqual({
      folders: [
        { path: "support", count: 3 },
        { path: "support/email", count: 2 },
      ],
      tags: [
        { tag: "email", count: 3 },
        { tag: "chat", count: 1 },
        { tag: "support", count: 1 },
      ],
    });
    expect((await world.callers.author.prompts.facets({ organizationId: space.organizationId })).tags).toContainEqual({ tag: "secret", count: 1 });
    const folder = async (name: string) =>
      (await world.callers.viewer.prompts.list({ organizationId: space.organizationId, folder: name, sort: "name" })).items.map((item) => item.name);
    expect(await folder("support/email")).toEqual(["support/email/escalate", "support/email/reply"]);
    expect(await folder("support")).toEqual(["support/chat", "support/email/escalate", "support/email/reply"]);
  });

  it("stats: the organization's readable prompts, the caller's bookmarks and the ratings, the team's members", async () => {
    const space = await world.space("Stats");
    const a = await createPrompt(world.callers.author, space.team.id, { visibility: "team" });
    const b = await createPrompt(world.callers.author, space.team.id, { visibility: "organization" });
    await createPrompt(world.callers.author, space.team.id, { visibility: "private" });
    await world.callers.viewer.bookmarks.add({ promptId: a.id });
    await world.callers.viewer.ratings.set({ promptId: a.id, stars: 5 });
    await world.callers.editor.ratings.set({ promptId: b.id, stars: 2 });
    await world.callers.editor.bookmarks.add({ promptId: b.id });
    expect(await world.callers.viewer.dashboard.stats({ organizationId: space.organizationId, teamId: space.team.id })).toEqual({
      totalPrompts: 2,
      promptsThisMonth: 2,
      teamMembers: 4,
      teamMembersThisMonth: 4,
      bookmarks: 1,
      bookmarksThisMonth: 1,
      averageRating: 3.5,
      ratingCount: 2,
    });
    expect(await world.callers.author.dashboard.stats({ organizationId: space.organizationId })).toMatchObject({ totalPrompts: 3, bookmarks: 0, teamMembers: null });
    // A team filter names a team the caller sees.
    expect(await outcome(world.callers.orgMember.dashboard.stats({ organizationId: space.organizationId, teamId: space.team.id }))).toBe("NOT_FOUND");
    expect(await outcome(world.callers.viewer.dashboard.stats({ organizationId: space.organizationId, teamId: team.id }))).toBe("NOT_FOUND");
    expect((await world.callers.viewer.dashboard.popular({ organizationId: space.organizationId })).map((item) => item.id)).toEqual([a.id, b.id]);
  });
});

// ---- search and pages ----

describe("search", () => {
  let organizationId: string;
  const ids: Record<string, string> = {};
  const found = async (q: string) => (await world.callers.viewer.prompts.list({ organizationId, q })).items.map((item) => item.id);
  beforeAll(async () => {
    const space = await world.space("Search");
    organizationId = space.organizationId;
    const make = (title: string, options: { template?: string; tags?: string[] } = {}) =>
      createPrompt(world.callers.author, space.team.id, { visibility: "team", title, ...options });
    ids.customer = (await make("Customer onboarding email")).id;
    ids.rewritten = (await make("Quarterly report", { template: "Summarise the walrus figures for {{ quarter }}." })).id;
    await saveVersion(ids.rewritten, "Summarise the narwhal figures for {{ quarter }}.");
    ids.tagged = (await make("Invoice reminder", { tags: ["billing", "finance"] })).id;
    ids.other = (await make("Release notes")).id;
    const chat = await world.callers.author.prompts.create({
      teamId: space.team.id,
      name: promptName("chat"),
      title: "Support chat",
      visibility: "team",
      type: "chat",
      messages: [{ role: "system", content: "You are a patient librarian." }, { role: "user", content: "Find {{ book }}." }],
    });
    ids.chat = chat.id;
  });

  it("finds a word of a chat prompt's messages", async () => {
    expect(await found("librarian")).toEqual([ids.chat]);
  });

  it("finds a word of the latest version's template, not of an older version's", async () => {
    expect(await found("narwhal")).toEqual([ids.rewritten]);
    expect(await found("walrus")).toEqual([]);
  });

  it("finds by a tag", async () => {
    expect(await found("billing")).toEqual([ids.tagged]);
    expect(await found("finance")).toEqual([ids.tagged]);
  });

  it.each(["Custo", "customer", "onboa", "customer onb"])("finds by the beginning of the title's words: %j", async (q) => {
    expect(await found(q)).toEqual([ids.customer]);
  });

  it.each(["custmer", "Custmer onboarding"])("finds through a typo: %j", async (q) => {
    expect(await found(q)).toEqual([ids.customer]);
  });

  it("finds nothing for a word nowhere, or for punctuation alone", async () => {
    expect(await found("zeppelin")).toEqual([]);
    expect(await found("&|!:*")).toEqual([]);
  });
});

describe("keyset pages", () => {
  let organizationId: string;
  const all: { id: string; name: string }[] = [];
  beforeAll(async () => {
    // Ties everywhere: one batch shares its update time, names repeat across two teams, counts and averages repeat.
    const space = await world.space("Pages");
    organizationId = space.organizationId;
    const second = await world.team("Second", organizationId);
    const { viewer, editor, admin } = world.accounts;
    const raters = [viewer.id, editor.id, admin.id];
    const rows = ["alpha", "alpha/beta", "alpha-beta", "alpha.beta", "alpha_beta", "zulu"].flatMap((name, index) =>
      [space.team.id, second.id].map((teamId, copy) => ({
        teamId,
        name,
        title: `Page walrus ${index % 3 ? "ledger" : "walrus"}`,
        visibility: "team" as const,
        authorId: world.accounts.author.id,
        template: copy ? "The walrus {{ x }}" : "Nothing {{ x }}",
        bookmarkedBy: raters.slice(0, index % 3),
        ratedBy: raters.slice(0, (index + copy) % 3).map((userId) => ({ userId, stars: 4 })),
      })),
    );
    all.push(...(await insertPrompts(h, rows)));
    // A few later updates, so the update times are not all one.
    for (const prompt of all.slice(0, 3)) {
      h.clock.advance(1000);
      await world.callers.author.prompts.update({ id: prompt.id, description: "Touched" });
    }
    // An organization prompt of the same organization the viewer reads, a private one they do not.
    all.push(await createPrompt(world.callers.author, second.id, { visibility: "organization", title: "Page walrus shared" }));
    await createPrompt(world.callers.author, second.id, { visibility: "private", title: "Page walrus private" });
  });

  type ListInput = Parameters<(typeof world.callers)["viewer"]["prompts"]["list"]>[0];
  const walk = async (input: Omit<ListInput, "organizationId" | "cursor" | "limit">) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 50; page++) {
      const result = await world.callers.viewer.prompts.list({ organizationId, ...input, limit: 2, cursor });
      expect(result.items.length).toBeLessThanOrEqual(2);
      seen.push(...result.items.map((item) => item.id));
      if (!result.nextCursor) return seen;
      cursor = result.nextCursor;
    }
    throw new Error("the pages never end");
  };

  it.each([
    [{ sort: "updated" }],
    [{ sort: "name" }],
    [{ sort: "rating" }],
    [{ sort: "bookmarks" }],
    [{}],
    [{ q: "walrus" }],
    [{ q: "walrus ledger" }],
    [{ q: "walrus", sort: "name" }],
  ] as const)("limit 2 walks every item exactly once, in the order of one big page: %j", async (input) => {
    const whole = (await world.callers.viewer.prompts.list({ organizationId, ...input, limit: 100 })).items;
    const walked = await walk(input);
    expect(walked).toEqual(whole.map((item) => item.id));
    expect(new Set(walked).size).toBe(walked.length);
    if (!("q" in input) || input.q === "walrus") expect(walked.sort()).toEqual(all.map((prompt) => prompt.id).sort());
  });

  it("orders each sort by its key, ties by id", async () => {
    const list = async (sort: "updated" | "name" | "rating" | "bookmarks") =>
      (await world.callers.viewer.prompts.list({ organizationId, sort, limit: 100 })).items;
    type Item = Awaited<ReturnType<typeof list>>[number];
    /** Each item after the one before: its key further in `direction`, or the same key and the id further in it (byte order, as PostgreSQL's "C"). */
    const inOrder = (items: Item[], key: (item: Item) => number | string, direction: 1 | -1) =>
      items.every((item, index) => {
        if (index === 0) return true;
        const previous = items[index - 1]!;
        const compare = (a: number | string, b: number | string) => (a === b ? 0 : a > b ? 1 : -1);
        const byKey = compare(key(item), key(previous));
        return byKey === direction || (byKey === 0 && compare(item.id, previous.id) === direction);
      });
    const byName = await list("name");
    expect(byName.map((item) => item.name).slice(0, 3)).toEqual(["alpha", "alpha", "alpha-beta"]);
    expect(inOrder(byName, (item) => item.name, 1)).toBe(true);
    expect(inOrder(await list("rating"), (item) => item.ratingAverage, -1)).toBe(true);
    expect(inOrder(await list("bookmarks"), (item) => item.bookmarkCount, -1)).toBe(true);
    expect(inOrder(await list("updated"), (item) => item.updatedAt.toISOString(), -1)).toBe(true);
    // The fixture has ties and differences in every key.
    for (const sort of ["rating", "bookmarks", "updated"] as const) {
      const keys = (await list(sort)).map((item) => (sort === "rating" ? item.ratingAverage : sort === "bookmarks" ? item.bookmarkCount : item.updatedAt.getTime()));
      expect(new Set(keys).size).toBeGreaterThan(1);
      expect(new Set(keys).size).toBeLessThan(keys.length);
    }
  });

  const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const someId = "00000000-0000-4000-8000-000000000000";
  it.each([
    ["not base64 JSON", {}, "%%%not-a-cursor%%%"],
    ["not a pair", {}, cursorOf({ updatedAt: "2026-01-01T00:00:00.000Z" })],
    ["a pair without an id", {}, cursorOf(["2026-01-01T00:00:00.000Z", "nope"])],
    ["a date that is no date", {}, cursorOf(["yesterday", someId])],
    ["a date out of range", {}, cursorOf(["0000-01-01T00:00:00Z", someId])],
    ["a name cursor with a NUL", { sort: "name" }, cursorOf(["a\u0000", someId])],
    ["a count out of range", { sort: "bookmarks" }, cursorOf([1e12, someId])],
    ["a count that is no number", { sort: "bookmarks" }, cursorOf(["7", someId])],
    ["a rating that is no number", { sort: "rating" }, cursorOf([null, someId])],
    ["a rank that is no number", { q: "walrus" }, cursorOf(["high", someId])],
  ] as const)("an invalid cursor is BAD_REQUEST: %s", async (_what, input, cursor) => {
    expect(await failure(world.callers.viewer.prompts.list({ organizationId, ...input, cursor }))).toEqual({
      code: "BAD_REQUEST",
      message: PROMPT_MSG.invalidCursor,
    });
  });
});
