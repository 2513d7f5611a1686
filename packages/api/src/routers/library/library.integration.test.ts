// Import and export of a library, and bulk work: a round trip between two
// teams keeps prompts, versions, contracts and labels; Langfuse JSON imports with its versions; the
// preview names conflicts and a conflicting import changes nothing; bulk actions are all or nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unzipSync, strFromU8 } from "fflate";
import { LIBRARY_MSG, PROMPT_LABELS_MAX, PROMPT_MSG, type LibraryDocument } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, failure, insertPrompts, libraryState, outcome, watchLibraryWrites } from "../../../testing/prompts-support.ts";
import { exportLibraryForCli } from "../../services/prompts/library-cli.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  await watchLibraryWrites(h);
});
afterAll(() => h.close());

/** A library in a new team: a text prompt in a folder with two versions and a contract, a chat prompt, labels incl. production. */
async function seedLibrary(teamName: string) {
  const team = await world.team(teamName);
  const admin = world.callers.admin;
  const greeting = await admin.prompts.create({
    teamId: team.id, name: "support/greeting", title: "Greeting", description: "Says hello", tags: ["support", "hello"], visibility: "team",
    type: "text", template: "Hello {{ name }}, you are {{ age }}.", variables: [{ name: "age", type: "number", required: false, default: 30 }],
    model: "gpt-4o", config: { temperature: 0.2 }, commitMessage: "first",
  });
  await admin.promptVersions.create({ promptId: greeting.id, template: "Hi {{ name }}!", commitMessage: "shorter" });
  await admin.promptLabels.set({ promptId: greeting.id, label: "production", version: 1 });
  await admin.promptLabels.set({ promptId: greeting.id, label: "staging", version: 2 });
  const triage = await admin.prompts.create({
    teamId: team.id, name: "agents/triage", title: "Triage", visibility: "organization", type: "chat",
    messages: [{ role: "system", content: "You sort {{ topic }} tickets." }, { role: "user", content: "{{ ticket }}" }],
  });
  await admin.promptLabels.set({ promptId: triage.id, label: "production", version: 1 });
  return team;
}

/** The export without what differs between teams and times. */
const comparable = (document: LibraryDocument) =>
  document.prompts.map(({ versions, ...prompt }) => ({ ...prompt, versions: versions.map(({ createdAt: _createdAt, ...version }) => version) }));

const exportJson = async (teamId: string, by = world.callers.admin) =>
  JSON.parse((await by.library.export({ teamId, format: "json" })).data) as LibraryDocument;

describe("a round trip between teams loses and duplicates nothing", () => {
  it("export then import into another team gives identical prompts, versions, contracts and labels; a second import adds nothing", async () => {
    const source = await seedLibrary("Source");
    const target = await world.team("Target");
    const document = await exportJson(source.id);
    expect(document).toMatchObject({ format: "promptly.library", version: 1, team: { name: "Source" } });
    expect(document.prompts.map((prompt) => prompt.name)).toEqual(["agents/triage", "support/greeting"]);

    const preview = await world.callers.admin.library.previewImport({ teamId: target.id, document });
    expect(preview.summary).toEqual({ create: 2, update: 0, unchanged: 0, conflict: 0, versions: 3, renamed: 0 });
    expect(await world.callers.admin.library.applyImport({ teamId: target.id, document })).toMatchObject({ summary: preview.summary });
    expect(comparable(await exportJson(target.id))).toEqual(comparable(document));

    const before = await libraryState(h);
    const again = await world.callers.admin.library.applyImport({ teamId: target.id, document });
    expect(again.summary).toMatchObject({ create: 0, update: 0, unchanged: 2, versions: 0 });
    expect(await libraryState(h)).toEqual(before);
  });

  it("an edited export adds only the new version and moves the label to it", async () => {
    const source = await seedLibrary("Edited");
    const target = await world.team("Edited target");
    const document = await exportJson(source.id);
    await world.callers.admin.library.applyImport({ teamId: target.id, document });
    const greeting = document.prompts.find((prompt) => prompt.name === "support/greeting")!;
    greeting.versions.push({ ...greeting.versions[1]!, version: 3, template: "Hey {{ name }}", commitMessage: "third" });
    greeting.labels.staging = 3;
    const preview = await world.callers.admin.library.previewImport({ teamId: target.id, document });
    expect(preview.items.find((item) => item.name === "support/greeting")).toMatchObject({ outcome: "update", newVersions: 1, skippedVersions: 2, labels: [{ name: "staging", version: 3 }] });
    await world.callers.admin.library.applyImport({ teamId: target.id, document });
    const after = (await exportJson(target.id)).prompts.find((prompt) => prompt.name === "support/greeting")!;
    expect(after.versions.map((version) => version.version)).toEqual([1, 2, 3]);
    expect(after.labels).toEqual({ production: 1, staging: 3 });
  });

  it("each exported version carries its contract in force; re-importing it where it came from adds nothing", async () => {
    const source = await seedLibrary("Contracts");
    const document = await exportJson(source.id);
    const greeting = document.prompts.find((prompt) => prompt.name === "support/greeting")!;
    expect(greeting.versions.map((version) => version.variables)).toEqual([
      [{ name: "age", type: "number", required: false, default: 30 }, { name: "name", type: "string", required: true }],
      [{ name: "name", type: "string", required: true }],
    ]);
    expect(document.prompts.find((prompt) => prompt.name === "agents/triage")!.versions[0]!.variables).toEqual([
      { name: "topic", type: "string", required: true },
      { name: "ticket", type: "string", required: true },
    ]);
    // Stored without a contract, exported with it: still the same versions.
    const before = await libraryState(h);
    const again = await world.callers.admin.library.applyImport({ teamId: source.id, document });
    expect(again.summary).toMatchObject({ create: 0, update: 0, unchanged: 2, versions: 0 });
    expect(await libraryState(h)).toEqual(before);
    const zip = await world.callers.admin.library.export({ teamId: source.id, format: "zip" });
    const markdown = strFromU8(unzipSync(new Uint8Array(Buffer.from(zip.data, "base64")))["support/greeting/v2.md"]!);
    expect(markdown).toContain(`variables: [{"name":"name","type":"string","required":true}]`);
  });

  it("the zip holds one Markdown file per version with front matter", async () => {
    const source = await seedLibrary("Zipped");
    const file = await world.callers.viewer.library.export({ teamId: source.id, format: "zip" });
    expect(file).toMatchObject({ encoding: "base64", mimeType: "application/zip" });
    const files = unzipSync(new Uint8Array(Buffer.from(file.data, "base64")));
    expect(Object.keys(files).sort()).toEqual(["agents/triage/v1.md", "support/greeting/v1.md", "support/greeting/v2.md"]);
    const markdown = strFromU8(files["support/greeting/v1.md"]!);
    expect(markdown).toMatch(/^---\nname: "support\/greeting"\n/);
    expect(markdown).toContain(`labels: ["production"]`);
    expect(markdown).toContain("Hello {{ name }}, you are {{ age }}.");
    expect(strFromU8(files["agents/triage/v1.md"]!)).toContain("## system\n\nYou sort {{ topic }} tickets.");
  });
});

describe("split releases", () => {
  it("both exports carry a label's split; an import points the label at its own version alone and says the split was not applied", async () => {
    const source = await seedLibrary("Split source");
    const greeting = await h.database.db.prompt.findFirstOrThrow({ where: { teamId: source.id, name: "support/greeting" }, select: { id: true } });
    expect(await world.callers.admin.promptLabels.split({ promptId: greeting.id, label: "production", version: 2, weight: 10 })).toMatchObject({ applied: true });

    const document = await exportJson(source.id);
    const exported = document.prompts.find((prompt) => prompt.name === "support/greeting")!;
    expect(exported.labels).toEqual({ production: 1, staging: 2 });
    expect(exported.splits).toEqual({ production: { version: 2, weight: 10 } });
    // A prompt without a split exports as before splits existed: no `splits` key.
    expect(Object.keys(document.prompts.find((prompt) => prompt.name === "agents/triage")!)).not.toContain("splits");
    let text = "";
    await exportLibraryForCli(h.database.db, source.id, new Date(), async (part) => void (text += part));
    expect((JSON.parse(text) as LibraryDocument).prompts.find((prompt) => prompt.name === "support/greeting")!.splits).toEqual({ production: { version: 2, weight: 10 } });
    // The zip's front matter: the split label by its plain name on both its versions, the split beside it as the JSON has it.
    const files = unzipSync(new Uint8Array(Buffer.from((await world.callers.viewer.library.export({ teamId: source.id, format: "zip" })).data, "base64")));
    expect(strFromU8(files["support/greeting/v1.md"]!)).toContain(`labels: ["production"]\nsplits: {"production":{"version":2,"weight":10}}\n`);
    expect(strFromU8(files["support/greeting/v2.md"]!)).toContain(`labels: ["production","staging"]\nsplits: {"production":{"version":2,"weight":10}}\n`);
    // A version without a split label has no `splits` key.
    expect(strFromU8(files["agents/triage/v1.md"]!)).toContain(`labels: ["production"]\nmodel: `);

    const target = await world.team("Split target");
    const note = LIBRARY_MSG.splitNotApplied("production", 2, 10);
    const preview = await world.callers.admin.library.previewImport({ teamId: target.id, document });
    expect(preview.items.find((item) => item.name === "support/greeting")).toMatchObject({ outcome: "create", notes: [note] });
    const applied = await world.callers.admin.library.applyImport({ teamId: target.id, document });
    expect(applied.items.find((item) => item.name === "support/greeting")).toMatchObject({
      outcome: "create", labels: [{ name: "production", version: 1 }, { name: "staging", version: 2 }], notes: [note],
    });
    expect(applied.items.find((item) => item.name === "agents/triage")!.notes).toEqual([]);
    const labels = await h.database.db.promptLabel.findMany({
      where: { prompt: { teamId: target.id, name: "support/greeting" } }, select: { name: true, version: true, candidateVersion: true, candidateWeight: true }, orderBy: { name: "asc" },
    });
    expect(labels).toEqual([
      { name: "production", version: 1, candidateVersion: null, candidateWeight: null },
      { name: "staging", version: 2, candidateVersion: null, candidateWeight: null },
    ]);
  });

  /** A seeded library whose greeting's production (on version 1) sends 10% to version 2, and its export. */
  async function splitLibrary(teamName: string) {
    const source = await seedLibrary(teamName);
    const greeting = await h.database.db.prompt.findFirstOrThrow({ where: { teamId: source.id, name: "support/greeting" }, select: { id: true } });
    await world.callers.admin.promptLabels.split({ promptId: greeting.id, label: "production", version: 2, weight: 10 });
    return { source, greeting, document: await exportJson(source.id) };
  }

  it("the note names the split's version by the number it gets here, or says the file does not hold it", async () => {
    const { document } = await splitLibrary("Split numbering");
    const target = await world.team("Split numbering target");
    const here = await world.callers.admin.prompts.create({ teamId: target.id, name: "support/greeting", title: "Greeting", visibility: "team", type: "text", template: "Other one" });
    await world.callers.admin.promptVersions.create({ promptId: here.id, template: "Other two" });
    await world.callers.admin.promptVersions.create({ promptId: here.id, template: "Other three" });
    // The file's versions 1 and 2 are new here: they become 4 and 5, and the split's 10% goes to 5, not 2.
    const applied = await world.callers.admin.library.applyImport({ teamId: target.id, document });
    expect(applied.items.find((item) => item.name === "support/greeting")).toMatchObject({
      outcome: "update", labels: [{ name: "production", version: 4 }, { name: "staging", version: 5 }], notes: [LIBRARY_MSG.splitNotApplied("production", 5, 10)],
    });

    const greeting = document.prompts.find((prompt) => prompt.name === "support/greeting")!;
    greeting.splits = { production: { version: 7, weight: 10 } };
    const preview = await world.callers.admin.library.previewImport({ teamId: (await world.team("Split missing version")).id, document });
    expect(preview.items.find((item) => item.name === "support/greeting")!.notes).toEqual([LIBRARY_MSG.splitUnknownVersion("production", 7)]);
  });

  it("re-importing a team's own export leaves the split as it is, without a note", async () => {
    const { source, greeting, document } = await splitLibrary("Split home");
    const before = await libraryState(h);
    const again = await world.callers.admin.library.applyImport({ teamId: source.id, document });
    expect(again.summary).toMatchObject({ create: 0, update: 0, unchanged: 2, versions: 0 });
    expect(again.items.map((item) => item.notes)).toEqual([[], []]);
    expect(await libraryState(h)).toEqual(before);
    expect(await h.database.db.promptLabel.findUniqueOrThrow({ where: { promptId_name: { promptId: greeting.id, name: "production" } }, select: { version: true, candidateVersion: true, candidateWeight: true } }))
      .toEqual({ version: 1, candidateVersion: 2, candidateWeight: 10 });
    // A different split in the file is still news: the one here stays, the file's is not applied.
    const other = structuredClone(document);
    other.prompts.find((prompt) => prompt.name === "support/greeting")!.splits = { production: { version: 2, weight: 20 } };
    const preview = await world.callers.admin.library.previewImport({ teamId: source.id, document: other });
    expect(preview.items.find((item) => item.name === "support/greeting")!.notes).toEqual([LIBRARY_MSG.splitNotApplied("production", 2, 20)]);
  });

  it("a bad split entry is noted and the file still imports; a split of a label the file does not have is ignored", async () => {
    const { document } = await splitLibrary("Split bad");
    const greeting = document.prompts.find((prompt) => prompt.name === "support/greeting")!;
    greeting.splits = { production: { version: 2, weight: 100 }, staging: { version: "1", weight: 10 }, canary: { version: 2, weight: 0 } };
    // `splits` that is no object at all (a script's null) holds no split: the prompt imports without a note.
    for (const other of document.prompts.filter((prompt) => prompt !== greeting)) other.splits = null;
    const target = await world.team("Split bad target");
    const applied = await world.callers.admin.library.applyImport({ teamId: target.id, document });
    expect(applied.summary).toMatchObject({ create: 2, conflict: 0 });
    expect(applied.items.find((item) => item.name === "support/greeting")).toMatchObject({
      outcome: "create", notes: [LIBRARY_MSG.splitInvalid("production"), LIBRARY_MSG.splitInvalid("staging")],
    });
  });
});

describe("Langfuse prompts", () => {
  const langfuse = [
    { name: "movie-critic", version: 1, type: "text", prompt: "As a {{criticLevel}} critic, rate {{movie}}.", config: { model: "gpt-4o", temperature: 0.7 }, labels: ["staging"], tags: ["movies"], commitMessage: "first" },
    { name: "movie-critic", version: 2, type: "text", prompt: "As a {{criticLevel}} movie critic, review {{movie}}.", config: {}, labels: ["production", "latest"], tags: ["movies"] },
    { name: "chat-helper", version: 1, type: "chat", prompt: [{ role: "system", content: "Help with {{task}}" }], config: null, labels: [], tags: [] },
  ];

  it("an array of versions creates each prompt with its versions and labels", async () => {
    const team = await world.team("Langfuse");
    const plan = await world.callers.admin.library.applyImport({ teamId: team.id, document: langfuse });
    expect(plan.summary).toMatchObject({ create: 2, versions: 3 });
    const exported = await exportJson(team.id);
    const critic = exported.prompts.find((prompt) => prompt.name === "movie-critic")!;
    expect(critic).toMatchObject({ title: "Movie critic", tags: ["movies"], labels: { production: 2, staging: 1 } });
    expect(critic.versions.map((version) => [version.version, version.template, version.model])).toEqual([
      [1, "As a {{criticLevel}} critic, rate {{movie}}.", "gpt-4o"],
      [2, "As a {{criticLevel}} movie critic, review {{movie}}.", ""],
    ]);
    expect(exported.prompts.find((prompt) => prompt.name === "chat-helper")!.versions[0]).toMatchObject({ type: "chat", messages: [{ role: "system", content: "Help with {{task}}" }] });
  });

  it("one object imports too", async () => {
    const team = await world.team("Langfuse one");
    const plan = await world.callers.editor.library.previewImport({ teamId: team.id, document: langfuse[0] });
    expect(plan.items).toEqual([expect.objectContaining({ name: "movie-critic", outcome: "create", newVersions: 1, labels: [{ name: "staging", version: 1 }] })]);
  });

  it("a name Promptly refuses takes the nearest it accepts: the preview lists each rename, applying makes them, and the file's includes follow", async () => {
    const team = await world.team("Langfuse renames");
    const document = [
      { name: "Support Reply", version: 1, type: "text", prompt: "Dear customer,", labels: ["staging"], tags: [] },
      { name: "Support Reply", version: 2, type: "text", prompt: "Dear {{name}},", labels: ["latest"], tags: [] },
      { name: "Agents/Triage Bot", version: 1, type: "chat", prompt: [{ role: "system", content: "Open with @@@langfusePrompt:name=Support Reply|label=staging@@@" }], labels: [], tags: [] },
      { name: "movie-critic", version: 1, type: "text", prompt: "As is", labels: [], tags: [] },
    ];
    const preview = await world.callers.editor.library.previewImport({ teamId: team.id, document });
    expect(preview.summary).toMatchObject({ create: 3, conflict: 0, versions: 4, renamed: 2 });
    expect(preview.items.map(({ name, renamedFrom, outcome, notes }) => ({ name, renamedFrom, outcome, notes }))).toEqual([
      { name: "support-reply", renamedFrom: "Support Reply", outcome: "create", notes: [LIBRARY_MSG.renamed("Support Reply")] },
      { name: "agents/triage-bot", renamedFrom: "Agents/Triage Bot", outcome: "create", notes: [LIBRARY_MSG.renamed("Agents/Triage Bot")] },
      { name: "movie-critic", renamedFrom: null, outcome: "create", notes: [] },
    ]);
    expect((await world.callers.editor.library.applyImport({ teamId: team.id, document })).summary).toEqual(preview.summary);
    const exported = await exportJson(team.id);
    // The title keeps the name as it was.
    expect(exported.prompts.map((prompt) => [prompt.name, prompt.title])).toEqual([["agents/triage-bot", "Triage Bot"], ["movie-critic", "Movie critic"], ["support-reply", "Support Reply"]]);
    expect(exported.prompts[0]!.versions[0]!.messages).toEqual([{ role: "system", content: "Open with @@@langfusePrompt:name=support-reply|label=staging@@@" }]);
    const includes = await h.services.db.promptDependency.findMany({ where: { teamId: team.id }, select: { childName: true, childLabel: true } });
    expect(includes).toEqual([{ childName: "support-reply", childLabel: "staging" }]);
    // The same file again is all here already.
    expect((await world.callers.editor.library.previewImport({ teamId: team.id, document })).summary).toMatchObject({ create: 0, update: 0, unchanged: 3, renamed: 2 });
  });

  it("two names of a file that become one are a conflict, and nothing is imported", async () => {
    const team = await world.team("Langfuse twins");
    const document = [
      { name: "Support Reply", version: 1, type: "text", prompt: "One", labels: [], tags: [] },
      { name: "support-reply", version: 1, type: "text", prompt: "Two", labels: [], tags: [] },
    ];
    const preview = await world.callers.admin.library.previewImport({ teamId: team.id, document });
    expect(preview.items.map(({ name, renamedFrom, outcome }) => ({ name, renamedFrom, outcome }))).toEqual([
      { name: "support-reply", renamedFrom: "Support Reply", outcome: "create" },
      { name: "support-reply", renamedFrom: null, outcome: "conflict" },
    ]);
    expect(preview.items[1]!.problems).toEqual([LIBRARY_MSG.duplicateName]);
    expect(await failure(world.callers.admin.library.applyImport({ teamId: team.id, document }))).toEqual({ code: "CONFLICT", message: LIBRARY_MSG.hasConflicts });
  });

  it("what is neither format is refused, naming both", async () => {
    const team = await world.team("Neither");
    expect(await failure(world.callers.admin.library.previewImport({ teamId: team.id, document: { hello: "world" } }))).toEqual({ code: "BAD_REQUEST", message: LIBRARY_MSG.notADocument });
  });
});

describe("conflicts and protected labels", () => {
  it("the preview names conflicts, and applying such an import changes nothing", async () => {
    const source = await seedLibrary("Conflicting source");
    const target = await world.team("Conflicting target");
    await world.callers.admin.prompts.create({ teamId: target.id, name: "support/greeting", title: "Chat one", visibility: "team", type: "chat", messages: [{ role: "user", content: "hi" }] });
    const document = await exportJson(source.id);
    document.prompts.push({ ...document.prompts[0]!, name: "Bad Name!" });
    const preview = await world.callers.admin.library.previewImport({ teamId: target.id, document });
    expect(preview.items.filter((item) => item.outcome === "conflict")).toEqual([
      expect.objectContaining({ name: "support/greeting", problems: [LIBRARY_MSG.typeDiffers("chat", "text")] }),
      expect.objectContaining({ name: "Bad Name!", problems: [LIBRARY_MSG.invalidName] }),
    ]);
    expect(preview.items.find((item) => item.name === "agents/triage")!.outcome).toBe("create");
    const before = await libraryState(h);
    expect(await failure(world.callers.admin.library.applyImport({ teamId: target.id, document }))).toEqual({ code: "CONFLICT", message: LIBRARY_MSG.hasConflicts });
    expect(await libraryState(h)).toEqual(before);
  });

  it(`a prompt the import would give more than ${PROMPT_LABELS_MAX} labels is a conflict in the preview, and applying it changes nothing`, async () => {
    const source = await seedLibrary("Crowded source");
    const document = await exportJson(source.id);
    const triage = document.prompts.find((prompt) => prompt.name === "agents/triage")!;
    const many = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`label-${i}`, 1]));
    // production (here already in the source) and 100 new names: 101 labels.
    triage.labels = { production: 1, ...many(PROMPT_LABELS_MAX) };

    const target = await world.team("Crowded target");
    const preview = await world.callers.admin.library.previewImport({ teamId: target.id, document });
    expect(preview.items.map(({ name, outcome, problems }) => ({ name, outcome, problems }))).toEqual([
      { name: "agents/triage", outcome: "conflict", problems: [LIBRARY_MSG.tooManyLabels(PROMPT_LABELS_MAX + 1)] },
      { name: "support/greeting", outcome: "create", problems: [] },
    ]);
    const before = await libraryState(h);
    expect(await failure(world.callers.admin.library.applyImport({ teamId: target.id, document }))).toEqual({ code: "CONFLICT", message: LIBRARY_MSG.hasConflicts });
    expect(await libraryState(h)).toEqual(before);

    // Into the prompt here: its stored labels count with the new ones, and exactly the limit imports.
    const here = await world.callers.admin.library.previewImport({ teamId: source.id, document });
    expect(here.items.find((item) => item.name === "agents/triage")).toMatchObject({ outcome: "conflict", problems: [LIBRARY_MSG.tooManyLabels(PROMPT_LABELS_MAX + 1)] });
    triage.labels = { production: 1, ...many(PROMPT_LABELS_MAX - 1) };
    const applied = await world.callers.admin.library.applyImport({ teamId: source.id, document });
    expect(applied.items.find((item) => item.name === "agents/triage")).toMatchObject({ outcome: "update", problems: [] });
    expect(Object.keys((await exportJson(source.id)).prompts.find((prompt) => prompt.name === "agents/triage")!.labels)).toHaveLength(PROMPT_LABELS_MAX);
  });

  it("an editor's import leaves production unset; with reviews required nobody sets it directly", async () => {
    const source = await seedLibrary("Protected source");
    const document = await exportJson(source.id);
    const byEditor = await world.team("Editor target");
    const plan = await world.callers.editor.library.applyImport({ teamId: byEditor.id, document });
    expect(plan.items.every((item) => item.notes.includes(LIBRARY_MSG.productionNotAllowed))).toBe(true);
    expect((await exportJson(byEditor.id)).prompts.map((prompt) => prompt.labels)).toEqual([{}, { staging: 2 }]);

    const reviewed = await world.team("Reviewed target");
    await h.database.db.team.update({ where: { id: reviewed.id }, data: { requiredApprovals: 1 } });
    const reviewedPlan = await world.callers.admin.library.applyImport({ teamId: reviewed.id, document });
    expect(reviewedPlan.items.every((item) => item.notes.includes(LIBRARY_MSG.productionNeedsReview))).toBe(true);
    expect((await exportJson(reviewed.id)).prompts.map((prompt) => prompt.labels.production)).toEqual([undefined, undefined]);
  });

  it("export needs prompt.read in the team, import prompt.write; other tenants get NOT_FOUND", async () => {
    const team = await seedLibrary("Permissions");
    const document = await exportJson(team.id);
    const c = world.callers;
    expect(await outcome(c.viewer.library.export({ teamId: team.id, format: "json" }))).toBe("OK");
    expect(await outcome(c.orgMember.library.export({ teamId: team.id, format: "json" }))).toBe("NOT_FOUND");
    expect(await outcome(c.outsider.library.export({ teamId: team.id, format: "json" }))).toBe("NOT_FOUND");
    expect(await outcome(c.anonymous.library.export({ teamId: team.id, format: "json" }))).toBe("UNAUTHORIZED");
    expect(await outcome(c.viewer.library.previewImport({ teamId: team.id, document }))).toBe("FORBIDDEN");
    expect(await outcome(c.viewer.library.applyImport({ teamId: team.id, document }))).toBe("FORBIDDEN");
    expect(await outcome(c.outsider.library.applyImport({ teamId: team.id, document }))).toBe("NOT_FOUND");
  });

  it("a private prompt is exported only to its author", async () => {
    const team = await world.team("Private");
    await world.callers.editor.prompts.create({ teamId: team.id, name: "mine", title: "Mine", visibility: "private", type: "text", template: "x" });
    expect((await exportJson(team.id, world.callers.editor)).prompts.map((prompt) => prompt.name)).toEqual(["mine"]);
    expect((await exportJson(team.id, world.callers.admin)).prompts).toEqual([]);
  });
});

describe("bulk work", () => {
  async function threePrompts(teamName: string) {
    const team = await world.team(teamName);
    const ids = [];
    for (const name of ["a/b/one", "a/b/two", "c/three"]) {
      ids.push((await world.callers.editor.prompts.create({ teamId: team.id, name, title: name, visibility: "team", type: "text", template: "t {{ x }}" })).id);
    }
    return { team, ids };
  }
  const prompt = (id: string) => h.database.db.prompt.findUniqueOrThrow({ where: { id }, select: { name: true, tags: true, archivedAt: true } });

  it("adds and removes tags on every prompt at once", async () => {
    const { ids } = await threePrompts("Bulk tags");
    expect(await world.callers.editor.prompts.bulk({ promptIds: ids, action: { kind: "addTags", tags: ["Alpha", "beta"] } })).toEqual({ applied: true, changed: 3, unchanged: 0, refused: [] });
    expect((await prompt(ids[0]!)).tags).toEqual(["alpha", "beta"]);
    expect(await world.callers.editor.prompts.bulk({ promptIds: ids.slice(0, 2), action: { kind: "removeTags", tags: ["alpha"] } })).toMatchObject({ applied: true, changed: 2 });
    expect((await prompt(ids[1]!)).tags).toEqual(["beta"]);
  });

  it("moves prompts to a folder, and refuses the whole move on a name conflict", async () => {
    const { team, ids } = await threePrompts("Bulk move");
    expect(await world.callers.admin.prompts.bulk({ promptIds: ids.slice(0, 2), action: { kind: "moveToFolder", folder: "c" } })).toMatchObject({ applied: true, changed: 2 });
    expect((await prompt(ids[0]!)).name).toBe("c/one");
    await world.callers.editor.prompts.create({ teamId: team.id, name: "d/one", title: "d one", visibility: "team", type: "text", template: "x" });
    const before = await libraryState(h);
    const refused = await world.callers.admin.prompts.bulk({ promptIds: ids, action: { kind: "moveToFolder", folder: "d" } });
    expect(refused).toEqual({ applied: false, changed: 0, unchanged: 0, refused: [{ id: ids[0], name: "c/one", reason: LIBRARY_MSG.bulkNameTaken("d/one") }] });
    expect(await libraryState(h)).toEqual(before);
    expect(await world.callers.editor.prompts.bulk({ promptIds: ids, action: { kind: "moveToFolder", folder: "" } })).toMatchObject({ applied: false });
  });

  it("sets and removes a label; production only for a team admin, and never directly with reviews", async () => {
    const { team, ids } = await threePrompts("Bulk labels");
    expect(await world.callers.editor.prompts.bulk({ promptIds: ids, action: { kind: "setLabel", label: "staging" } })).toMatchObject({ applied: true, changed: 3 });
    expect(await h.database.db.promptLabel.count({ where: { promptId: { in: ids }, name: "staging" } })).toBe(3);
    expect(await world.callers.editor.prompts.bulk({ promptIds: ids, action: { kind: "removeLabel", label: "staging" } })).toMatchObject({ applied: true, changed: 3 });
    const refused = await world.callers.editor.prompts.bulk({ promptIds: ids, action: { kind: "setLabel", label: "production" } });
    expect(refused.refused.map((item) => item.reason)).toEqual([PROMPT_MSG.protectedLabel, PROMPT_MSG.protectedLabel, PROMPT_MSG.protectedLabel]);
    expect(await world.callers.admin.prompts.bulk({ promptIds: ids, action: { kind: "setLabel", label: "production" } })).toMatchObject({ applied: true, changed: 3 });
    await h.database.db.team.update({ where: { id: team.id }, data: { requiredApprovals: 1 } });
    expect(await world.callers.admin.prompts.bulk({ promptIds: ids, action: { kind: "removeLabel", label: "production" } })).toMatchObject({ applied: false });
    expect(await h.database.db.promptLabel.count({ where: { promptId: { in: ids }, name: "production" } })).toBe(3);
  });

  it("archives and restores; one refused prompt leaves all unchanged", async () => {
    const { team, ids } = await threePrompts("Bulk archive");
    const others = await world.callers.admin.prompts.create({ teamId: team.id, name: "admins", title: "Admin's", visibility: "team", type: "text", template: "x" });
    // The editor may archive what they wrote, not the admin's prompt.
    const before = await libraryState(h);
    const refused = await world.callers.editor.prompts.bulk({ promptIds: [...ids, others.id], action: { kind: "archive" } });
    expect(refused).toMatchObject({ applied: false, refused: [{ id: others.id, name: "admins", reason: LIBRARY_MSG.bulkNotAllowed }] });
    expect(await libraryState(h)).toEqual(before);
    expect(await world.callers.admin.prompts.bulk({ promptIds: [...ids, others.id], action: { kind: "archive" } })).toMatchObject({ applied: true, changed: 4 });
    expect((await prompt(ids[2]!)).archivedAt).not.toBeNull();
    expect(await world.callers.editor.prompts.bulk({ promptIds: ids, action: { kind: "addTags", tags: ["x"] } })).toMatchObject({ applied: false, refused: [{ reason: PROMPT_MSG.archived }, { reason: PROMPT_MSG.archived }, { reason: PROMPT_MSG.archived }] });
    expect(await world.callers.admin.prompts.bulk({ promptIds: ids, action: { kind: "restore" } })).toMatchObject({ applied: true, changed: 3 });
  });

  it("a prompt the caller cannot read is refused as not found, without its name", async () => {
    const { ids } = await threePrompts("Bulk hidden");
    const result = await world.callers.outsider.prompts.bulk({ promptIds: ids.slice(0, 1), action: { kind: "archive" } });
    expect(result).toEqual({ applied: false, changed: 0, unchanged: 0, refused: [{ id: ids[0], name: null, reason: LIBRARY_MSG.bulkNotFound }] });
  });

  it("archives 500 prompts in one transaction; one refused among them leaves all 500 unchanged", async () => {
    const team = await world.team("Bulk 500");
    const rows = await insertPrompts(h, [
      ...Array.from({ length: 499 }, () => ({ teamId: team.id, visibility: "team" as const, authorId: world.accounts.editor.id })),
      { teamId: team.id, visibility: "team" as const, authorId: world.accounts.admin.id },
    ]);
    const ids = rows.map((row) => row.id);
    const before = await libraryState(h);
    const refused = await world.callers.editor.prompts.bulk({ promptIds: ids, action: { kind: "archive" } });
    expect(refused).toMatchObject({ applied: false, refused: [{ id: ids[499], reason: LIBRARY_MSG.bulkNotAllowed }] });
    expect(await libraryState(h)).toEqual(before);
    expect(await world.callers.admin.prompts.bulk({ promptIds: ids, action: { kind: "archive" } })).toEqual({ applied: true, changed: 500, unchanged: 0, refused: [] });
    expect(await h.database.db.prompt.count({ where: { id: { in: ids }, archivedAt: { not: null } } })).toBe(500);
    expect(await outcome(world.callers.admin.prompts.bulk({ promptIds: [...ids, ids[0]!.replace(/.$/, "0")], action: { kind: "restore" } }))).toBe("BAD_REQUEST");
  });
});

describe("the audit trail of imports and bulk work", () => {
  const eventsOf = (promptIds: string[]) =>
    h.database.db.auditEvent.findMany({ where: { targetId: { in: promptIds } }, orderBy: [{ createdAt: "asc" }, { seq: "asc" }], select: { action: true, targetId: true, after: true, actorId: true } });

  it("a bulk label move writes one label event per prompt, with its actor; a refused bulk writes none", async () => {
    const team = await world.team("Bulk audit");
    const ids = [];
    for (const name of ["x/one", "x/two"]) {
      ids.push((await world.callers.editor.prompts.create({ teamId: team.id, name, title: name, visibility: "team", type: "text", template: "t" })).id);
    }
    const before = (await eventsOf(ids)).length;
    await world.callers.editor.prompts.bulk({ promptIds: ids, action: { kind: "setLabel", label: "staging" } });
    const moves = (await eventsOf(ids)).slice(before);
    expect(moves.map((event) => [event.action, event.targetId, event.after])).toEqual(
      expect.arrayContaining(ids.map((id) => ["prompt.label.set", id, { label: "staging", version: 1 }])),
    );
    expect(moves).toHaveLength(2);
    const refused = await world.callers.editor.prompts.bulk({ promptIds: ids, action: { kind: "setLabel", label: "production" } });
    expect(refused.applied).toBe(false);
    expect(await eventsOf(ids)).toHaveLength(before + 2);
  });

  it("an import writes one event per prompt created, version saved and label moved", async () => {
    const source = await seedLibrary("Audit source");
    const target = await world.team("Audit target");
    await world.callers.admin.library.applyImport({ teamId: target.id, document: await exportJson(source.id) });
    const imported = await h.database.db.prompt.findMany({ where: { teamId: target.id }, select: { id: true, name: true } });
    const events = await eventsOf(imported.map((prompt) => prompt.id));
    const count = (action: string) => events.filter((event) => event.action === action).length;
    // Each prompt created, each version it brings saved (greeting v1 and v2, triage v1), each label moved
    // (greeting production and staging, triage production).
    expect([count("prompt.create"), count("prompt.version"), count("prompt.label.set")]).toEqual([2, 3, 3]);
  });
});
