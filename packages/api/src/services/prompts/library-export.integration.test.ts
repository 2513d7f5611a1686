// The library export over more than one page of prompts and of versions: the JSON is exactly
// JSON.stringify(document, null, 2) of the whole library (the text it always was), every live prompt the
// caller may read comes once in name order with all its versions and labels, and the zip holds a file
// for each of those versions. Prompts without versions come at any page's edge, and the pages are one
// snapshot: what changes while the export is read is not in it.
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { strFromU8, unzipSync } from "fflate";
import type { LibraryDocument } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, insertPrompts } from "../../../testing/prompts-support.ts";
import { exportLibraryForCli } from "./library-cli.ts";
import { libraryExports } from "./library-export.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
});
afterAll(() => h.close());

/** Prompts and versions past a page of each (100 prompts, 25 versions a statement). */
const PROMPTS = 130;
const HISTORY = 70;

it("exports a library of several pages whole, once, in order, as the same JSON text", { timeout: 120_000 }, async () => {
  const team = await world.team("Paging");
  const db = h.database.db;
  const names = Array.from({ length: PROMPTS }, (_, index) => `p/${String(index).padStart(3, "0")}`);
  await insertPrompts(h, names.map((name, index) => ({
    teamId: team.id, name, visibility: index % 10 === 3 ? "private" : "team", authorId: world.accounts.author.id,
    archived: index % 10 === 7, labels: index % 2 ? ["staging"] : [], template: `Answer {{ q${index} }} "quoted"\n\twith é ✓`,
  })));
  // One prompt with a long history, text and chat alike: its versions span three statements.
  const [long] = await insertPrompts(h, [{ teamId: team.id, name: "long", visibility: "team", authorId: null }]);
  await db.$executeRaw`
    INSERT INTO prompt_versions (prompt_id, version, type, template, messages, config, commit_message)
    SELECT ${long!.id}::uuid, n, CASE WHEN n % 3 = 0 THEN 'chat' ELSE 'text' END::prompt_type,
           CASE WHEN n % 3 = 0 THEN NULL ELSE 'Version ' || n || ' of {{ x }}' END,
           CASE WHEN n % 3 = 0 THEN jsonb_build_array(jsonb_build_object('role', 'user', 'content', 'Message ' || n)) END,
           jsonb_build_object('n', n), 'v' || n
    FROM generate_series(2, ${HISTORY}) AS n`;
  await db.$executeRaw`UPDATE prompts SET latest_version = ${HISTORY} WHERE id = ${long!.id}::uuid`;
  await db.promptLabel.create({ data: { promptId: long!.id, name: "production", version: 42 } });

  for (const [who, seesPrivate] of [[world.callers.author, true], [world.callers.viewer, false]] as const) {
    const exported = await who.library.export({ teamId: team.id, format: "json" });
    // The text is the document as JSON.stringify(document, null, 2) writes it, byte for byte.
    expect(JSON.stringify(JSON.parse(exported.data), null, 2)).toBe(exported.data);
    const document = JSON.parse(exported.data) as LibraryDocument;
    const expected = [
      ...names.filter((_, index) => index % 10 !== 7 && (seesPrivate || index % 10 !== 3)),
      "long",
    ].sort();
    expect(document.prompts.map((prompt) => prompt.name)).toEqual(expected);
    for (const prompt of document.prompts.filter((prompt) => prompt.name !== "long")) {
      const index = Number(prompt.name.slice(2));
      expect(prompt.versions).toMatchObject([{ version: 1, type: "text", template: `Answer {{ q${index} }} "quoted"\n\twith é ✓` }]);
      expect(prompt.labels).toEqual(index % 2 ? { staging: 1 } : {});
    }
    const history = document.prompts.find((prompt) => prompt.name === "long")!;
    expect(history.labels).toEqual({ production: 42 });
    expect(history.versions.map((version) => version.version)).toEqual(Array.from({ length: HISTORY }, (_, index) => index + 1));
    expect(history.versions[41]).toMatchObject({ version: 42, type: "chat", messages: [{ role: "user", content: "Message 42" }], config: { n: 42 }, commitMessage: "v42" });
    expect(history.versions[69]).toMatchObject({ version: 70, type: "text", template: "Version 70 of {{ x }}", variables: [{ name: "x" }] });

    const zip = await who.library.export({ teamId: team.id, format: "zip" });
    const files = unzipSync(Buffer.from(zip.data, "base64"));
    const expectedFiles = expected.flatMap((name) => (name === "long" ? history.versions.map((version) => `long/v${version.version}.md`) : [`${name}/v1.md`]));
    expect(Object.keys(files)).toEqual(expectedFiles);
    expect(strFromU8(files["long/v42.md"]!)).toContain("labels: [\"production\"]");
    expect(strFromU8(files["long/v42.md"]!)).toMatch(/\n## user\n\nMessage 42\n$/);
  }
});

it("exports an empty library as the same document", async () => {
  const team = await world.team("Empty");
  const exported = await world.callers.admin.library.export({ teamId: team.id, format: "json" });
  const { exportedAt } = JSON.parse(exported.data) as LibraryDocument;
  expect(exported.data).toBe(JSON.stringify({ format: "promptly.library", version: 1, exportedAt, team: { name: "Empty" }, prompts: [] }, null, 2));
});

/** Prompts with no version, as a prompt's row may be (latest_version 0). */
async function insertVersionless(teamId: string, names: string[]) {
  const { organizationId } = await h.database.db.team.findUniqueOrThrow({ where: { id: teamId }, select: { organizationId: true } });
  await h.database.db.prompt.createMany({ data: names.map((name) => ({ organizationId, teamId, name, title: `Prompt ${name}`, visibility: "team" as const, latestVersion: 0 })) });
}

it("exports prompts without versions at the edges of pages of prompts and of versions", { timeout: 120_000 }, async () => {
  const team = await world.team("Edges");
  const names = Array.from({ length: PROMPTS }, (_, index) => `e/${String(index).padStart(3, "0")}`);
  // The first prompt; one right after a statement of 25 versions; the last two of the first page and the
  // first of the second; the last of the library.
  const versionless = new Set([0, 26, 98, 99, 100, PROMPTS - 1]);
  await insertVersionless(team.id, names.filter((_, index) => versionless.has(index)));
  const stored = await insertPrompts(h, names.filter((_, index) => !versionless.has(index)).map((name) => ({ teamId: team.id, name, visibility: "team", authorId: null })));
  // A history of 30 just before a versionless prompt at the end of the first page: its versions end mid-statement.
  const long = stored.find((prompt) => prompt.name === "e/097")!;
  await h.database.db.$executeRaw`
    INSERT INTO prompt_versions (prompt_id, version, type, template) SELECT ${long.id}::uuid, n, 'text', 'Version ' || n FROM generate_series(2, 30) AS n`;
  await h.database.db.$executeRaw`UPDATE prompts SET latest_version = 30 WHERE id = ${long.id}::uuid`;

  const exported = await world.callers.viewer.library.export({ teamId: team.id, format: "json" });
  expect(JSON.stringify(JSON.parse(exported.data), null, 2)).toBe(exported.data);
  const document = JSON.parse(exported.data) as LibraryDocument;
  expect(document.prompts.map((prompt) => prompt.name)).toEqual(names);
  expect(document.prompts.map((prompt) => prompt.versions.map((version) => version.version))).toEqual(names.map((name, index) =>
    versionless.has(index) ? [] : name === "e/097" ? Array.from({ length: 30 }, (_, version) => version + 1) : [1]));

  const zip = await world.callers.viewer.library.export({ teamId: team.id, format: "zip" });
  expect(Object.keys(unzipSync(Buffer.from(zip.data, "base64")))).toEqual(document.prompts.flatMap((prompt) => prompt.versions.map((version) => `${prompt.name}/v${version.version}.md`)));
});

it("exports the library as it was when the export began, whatever changes between its pages", { timeout: 120_000 }, async () => {
  const team = await world.team("Snapshot");
  const db = h.database.db;
  const names = Array.from({ length: PROMPTS }, (_, index) => `s/${String(index).padStart(3, "0")}`);
  const prompts = await insertPrompts(h, names.map((name) => ({ teamId: team.id, name, visibility: "team", authorId: null })));
  const now = new Date();
  const exportText = async (betweenPages: () => Promise<void> = async () => {}) => {
    let text = "";
    let parts = 0;
    await exportLibraryForCli(db, team.id, now, async (part) => {
      text += part;
      // The second part is the first prompt's: the first page of prompts has been read.
      if (++parts === 2) await betweenPages();
    });
    return text;
  };
  const before = await exportText();

  const renamed = prompts[0]!;
  const later = prompts[120]!;
  const during = await exportText(async () => {
    // A prompt already passed renamed to a name still to come, a version and a label added on the second page.
    await db.$executeRaw`UPDATE prompts SET name = 'z/renamed' WHERE id = ${renamed.id}::uuid`;
    await db.$executeRaw`INSERT INTO prompt_versions (prompt_id, version, type, template) VALUES (${later.id}::uuid, 2, 'text', 'Added')`;
    await db.$executeRaw`UPDATE prompts SET latest_version = 2 WHERE id = ${later.id}::uuid`;
    await db.promptLabel.create({ data: { promptId: later.id, name: "production", version: 2 } });
  });
  expect(during).toBe(before);
  // The changes were made, and the next export has them.
  const after = JSON.parse(await exportText()) as LibraryDocument;
  expect(after.prompts.map((prompt) => prompt.name)).toEqual([...names.slice(1), "z/renamed"]);
  expect(after.prompts.find((prompt) => prompt.name === later.name)).toMatchObject({ labels: { production: 2 }, versions: [{ version: 1 }, { version: 2 }] });
});

it("ends the export's transaction when its reader fails", async () => {
  const team = await world.team("Broken pipe");
  await insertPrompts(h, [{ teamId: team.id, name: "one", visibility: "team", authorId: null }]);
  const open = async () => {
    const [{ count }] = await h.database.db.$queryRaw<[{ count: number }]>`
      SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`;
    return count;
  };
  await expect(exportLibraryForCli(h.database.db, team.id, new Date(), () => Promise.reject(new Error("EPIPE")))).rejects.toThrow("EPIPE");
  expect(await open()).toBe(0);
});

it("builds two exports of the app at once; a third waits its turn instead of holding a third connection", async () => {
  const team = await world.team("Busy");
  await insertPrompts(h, [{ teamId: team.id, name: "one", visibility: "team", authorId: null }]);
  // The prompts locked: an export that has begun waits in its first read of them, its connection held.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const lockTaken = new Promise<void>((resolve) => (locked = resolve));
  const holder = h.database.db.$transaction(async (tx) => {
    await tx.$executeRaw`LOCK TABLE prompts IN ACCESS EXCLUSIVE MODE`;
    locked();
    await released;
  }, { timeout: 60_000 });
  await lockTaken;
  const exports = [1, 2, 3].map(() => world.callers.viewer.library.export({ teamId: team.id, format: "json" }));
  try {
    // Until all three have asked for their turn (each passes the procedure's checks first) and two wait on
    // the lock: the third then waits for its turn, not for the lock.
    const waitingOnLock = async () => {
      const [{ count }] = await h.database.db.$queryRaw<[{ count: number }]>`
        SELECT count(*)::int AS count FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FROM prompts%'`;
      return count;
    };
    const asked = () => libraryExports.activeCount + libraryExports.pendingCount;
    await vi.waitFor(async () => {
      expect(asked()).toBe(3);
      expect(await waitingOnLock()).toBe(2);
    }, { timeout: 20_000, interval: 20 });
    expect({ active: libraryExports.activeCount, pending: libraryExports.pendingCount }).toEqual({ active: 2, pending: 1 });
  } finally {
    release();
    await holder;
    // Settled before the test ends either way (the harness closes its database after).
    await Promise.allSettled(exports);
  }
  const texts = await Promise.all(exports);
  expect(texts.map((text) => (JSON.parse(text.data) as LibraryDocument).prompts.map((prompt) => prompt.name))).toEqual([["one"], ["one"], ["one"]]);
});
