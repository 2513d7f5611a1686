// The library's import and export hold a page of a prompt's history at a time, not all of it: under the
// server's heap cap (start.sh, 128 MB of old space), the command line previews a small document against a
// prompt whose stored versions hold far more text than that, and exports that prompt whole.
import { afterAll, beforeAll, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { LIBRARY_FORMAT, LIBRARY_FORMAT_VERSION } from "@promptly/shared";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** Runs `npm run -s cli -- ...args` with node's old space capped as start.sh caps the server's, `input` on stdin. */
function cappedCli(args: string[], input = ""): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, DATABASE_URL: h.database.url, NODE_OPTIONS: `${process.env["NODE_OPTIONS"] ?? ""} --max-old-space-size=128`.trim() };
    const child = spawn("npm", ["run", "-s", "cli", "--", ...args], { env, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Stored versions of 100,000 characters each (the most a version's text may hold): 200 MB of text in all. */
const STORED = 2000;
const body = (version: number) => `${"a".repeat(99_990)} v${version}`;

let team: { id: string };
let prompt: { id: string };

beforeAll(async () => {
  const admin = await createAccount(h);
  const organization = await createOrganization(h, [{ userId: admin.id, role: "admin" }]);
  team = await createTeam(h, organization.id, [], "History");
  const client = await h.signedInClient(admin.id);
  prompt = await client.api.prompts.create({ teamId: team.id, name: "long/history", title: "History", visibility: "team", type: "text", template: body(1) });
  // Versions 2..STORED written directly (saving 2,000 versions one by one through the API would take minutes).
  await h.database.db.$executeRaw`
    INSERT INTO prompt_versions (prompt_id, version, type, template)
    SELECT ${prompt.id}::uuid, n, 'text', repeat('a', 99990) || ' v' || n FROM generate_series(2, ${STORED}) AS n`;
  await h.database.db.$executeRaw`UPDATE prompts SET latest_version = ${STORED} WHERE id = ${prompt.id}::uuid`;
}, 120_000);

it("previews an import against a prompt with 200 MB of stored versions within the server's heap", { timeout: 300_000 }, async () => {
  // One version stored already (on a late page of the history), one new, and a label on the stored one.
  const document = {
    format: LIBRARY_FORMAT,
    version: LIBRARY_FORMAT_VERSION,
    exportedAt: "2026-12-07T06:00:00.000Z",
    team: { name: "History" },
    prompts: [{
      name: "long/history", title: "History", labels: { staging: 1 },
      versions: [{ version: 1, type: "text", template: body(STORED - 3) }, { version: 2, type: "text", template: "Something new" }],
    }],
  };
  const preview = await cappedCli(["prompts", "import", "--team", team.id, "--dry-run"], JSON.stringify(document));
  expect({ code: preview.code, signal: preview.signal, heap: /heap out of memory/i.test(preview.stderr) }).toEqual({ code: 0, signal: null, heap: false });
  expect(preview.stderr).toContain("update    long/history (+1 versions)");
  expect(preview.stderr).toContain("Would import: 0 created, 1 updated, 0 unchanged, 0 conflicts, 1 versions.");
  // The dry run changed nothing.
  expect(await h.database.db.promptVersion.count({ where: { promptId: prompt.id } })).toBe(STORED);
  expect(await h.database.db.promptLabel.count({ where: { promptId: prompt.id } })).toBe(0);
});

it("exports a prompt with 200 MB of stored versions within the server's heap, every version once", { timeout: 300_000 }, async () => {
  const exported = await cappedCli(["prompts", "export", "--team", team.id]);
  expect({ code: exported.code, signal: exported.signal, heap: /heap out of memory/i.test(exported.stderr) }).toEqual({ code: 0, signal: null, heap: false });
  const document = JSON.parse(exported.stdout) as { prompts: { name: string; versions: { version: number; template: string }[] }[] };
  expect(document.prompts.map((exportedPrompt) => exportedPrompt.name)).toEqual(["long/history"]);
  const versions = document.prompts[0]!.versions;
  expect(versions.map((version) => version.version)).toEqual(Array.from({ length: STORED }, (_, index) => index + 1));
  expect(versions.every((version) => version.template === body(version.version))).toBe(true);
  // The same text as before, a line break after it.
  expect(exported.stdout).toBe(`${JSON.stringify(document, null, 2)}\n`);
});
