// The zip export is safe whatever names the database holds: rows written before names were checked
// as strictly as today (or by hand) may be '..', absolute or full of backslashes. Extracted by the
// most naive tool, the archive writes nothing outside its folder, and no prompt overwrites another.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { strFromU8, unzipSync } from "fflate";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, insertPrompts } from "../../../testing/prompts-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let root: string;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  // The database's own name check would keep out some of the names below: this test plays a database that holds them anyway.
  await h.database.db.$executeRawUnsafe(`ALTER TABLE prompts DROP CONSTRAINT prompts_name_check`);
  root = mkdtempSync(join(tmpdir(), "promptly-zip-"));
});
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  await h.close();
});

/** What a careless unzip does: every entry written at join(folder, its name), folders made on the way. */
function naiveExtract(files: Record<string, Uint8Array>, folder: string) {
  for (const [name, data] of Object.entries(files)) {
    const target = join(folder, name);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, data);
  }
}

/** Every file under `folder`, as paths relative to it. */
const filesUnder = (folder: string) =>
  (readdirSync(folder, { recursive: true, withFileTypes: true }) as { isFile(): boolean; parentPath: string; name: string }[])
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)));

const HOSTILE = [
  "..", ".", "../../escaped", "../../../../escaped-far", "a/../b", "./c", "/absolute", "//double/slash",
  "..\\..\\backslashed", "d\\e", "x/./y", "x/y/.", "trailing/",
];
/** Valid names that a careless normalization of the hostile ones would collide with (or a file with a folder). */
const ORDINARY = ["b", "c", "d/e", "x/y", "absolute", "escaped", "f", "f/v1.md"];

describe("the zip export of hostile names", () => {
  it("extracted naively, writes only inside its folder and keeps one file per version of every prompt", async () => {
    const team = await world.team("Hostile");
    const names = [...HOSTILE, ...ORDINARY];
    await insertPrompts(h, names.map((name) => ({ teamId: team.id, name, visibility: "team" as const, authorId: world.accounts.admin.id })));

    const file = await world.callers.admin.library.export({ teamId: team.id, format: "zip" });
    const files = unzipSync(new Uint8Array(Buffer.from(file.data, "base64")));
    // Deep inside the temporary folder, so whatever escapes still lands where this test can see it.
    const folder = join(root, "one", "two", "three", "archive");
    mkdirSync(folder, { recursive: true });
    naiveExtract(files, folder);
    const written = filesUnder(root);
    expect(written.filter((path) => !path.startsWith(join("one", "two", "three", "archive") + sep))).toEqual([]);
    for (const entry of Object.keys(files)) {
      expect(entry, "a plain relative path").not.toMatch(/\\|^\/|(^|\/)\.{0,2}(\/|$)/);
    }

    // One file per version (each prompt has one), and each prompt's own name in its front matter.
    expect(Object.keys(files)).toHaveLength(names.length);
    const exported = Object.values(files).map((data) => JSON.parse(/^name: (.*)$/m.exec(strFromU8(data))![1]!) as string);
    expect(exported.sort()).toEqual([...names].sort());
    // Valid names keep their place.
    for (const name of ["b", "c", "d/e", "x/y", "absolute", "escaped", "f"]) expect(files[`${name}/v1.md`], name).toBeDefined();
  });
});
