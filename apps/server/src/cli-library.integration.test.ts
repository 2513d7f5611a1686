// `npm run cli -- prompts export|import`: a library exported from one team by the command
// line imports into another with the same prompts, versions and labels; --dry-run changes nothing.
import { afterAll, beforeAll, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** Runs `npm run cli -- ...args` against the test database, with `input` on stdin. */
function cli(args: string[], input = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "cli", "--", ...args], { env: { ...process.env, DATABASE_URL: h.database.url }, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

it("exports a team's library to stdout and imports it into another team from stdin", { timeout: 120_000 }, async () => {
  const admin = await createAccount(h);
  const organization = await createOrganization(h, [{ userId: admin.id, role: "admin" }]);
  const [source, target] = [await createTeam(h, organization.id, [], "Source"), await createTeam(h, organization.id, [], "Target")];
  const client = await h.signedInClient(admin.id);
  const prompt = await client.api.prompts.create({ teamId: source.id, name: "ops/summary", title: "Summary", visibility: "team", type: "text", template: "Sum up {{ text }}" });
  await client.api.promptVersions.create({ promptId: prompt.id, template: "Summarize {{ text }}" });
  await client.api.promptLabels.set({ promptId: prompt.id, label: "production", version: 2 });

  // By the team's name (the export) and its slug within the organization (the import), not only its id.
  const exported = await cli(["prompts", "export", "--team", "Source"]);
  expect(exported.code).toBe(0);
  // Saved as is, npm's "> promptly cli" lines included: import reads past them.
  expect(exported.stdout).toContain(`"format": "promptly.library"`);

  const dryRun = await cli(["prompts", "import", "--team", "target", "--org", organization.id, "--dry-run"], exported.stdout);
  expect(dryRun.code).toBe(0);
  expect(dryRun.stderr).toContain("Would import: 1 created, 0 updated, 0 unchanged, 0 conflicts, 2 versions.");
  expect(await h.database.db.prompt.count({ where: { teamId: target.id } })).toBe(0);

  const imported = await cli(["prompts", "import", "--team", target.id], exported.stdout);
  expect(imported.code).toBe(0);
  const copy = await h.database.db.prompt.findFirstOrThrow({
    where: { teamId: target.id },
    select: { name: true, authorId: true, versions: { select: { version: true, template: true }, orderBy: { version: "asc" } }, labels: { select: { name: true, version: true } } },
  });
  expect(copy).toEqual({
    name: "ops/summary",
    authorId: null,
    versions: [{ version: 1, template: "Sum up {{ text }}" }, { version: 2, template: "Summarize {{ text }}" }],
    labels: [{ name: "production", version: 2 }],
  });

  const unknownTeam = await cli(["prompts", "export", "--team", "00000000-0000-4000-8000-000000000000"]);
  expect(unknownTeam.code).toBe(1);
  expect(unknownTeam.stderr).toContain("No team with the id");

  // A name two teams share is refused with the list of them; nothing is exported.
  await createTeam(h, (await createOrganization(h, [])).id, [], "Source");
  const ambiguous = await cli(["prompts", "export", "--team", "source"]);
  expect(ambiguous.code).toBe(1);
  // Listed by organization name, which is random here: each line, in either order.
  expect(ambiguous.stderr).toContain(`"source" names 2 teams; give the team's id, or --org <organization id, slug or name>:\n`);
  expect(ambiguous.stderr).toContain(`\n  ${source.id}  Source  (organization ${organization.name})`);
  expect(ambiguous.stdout).not.toContain("promptly.library");
});
