// `npm run cli -- eval` against a running server (issue 29, acceptance 4): an API key with the run
// scope starts an evaluation of the `staging` version, the command follows it to the end, prints the
// summary, writes JUnit XML, and exits 0 at or above --min-pass, 1 below, 2 on the server's refusal.
//
// TODO(issue 29, after merging h/evalengine): enable. This needs the evaluation engine's REST routes
// (POST /api/v1/prompts/{name}/evaluations, GET /api/v1/evaluations/{id} and GET
// /api/v1/evaluations/{id}/items answering evaluationItemsAnswer of packages/shared/src/evaluations.ts)
// and its queue's worker running in this test's process (start it beside createApp below), which are
// not on this branch. Until then the suite is skipped; the command's arguments and its JUnit writer are
// unit-tested in apps/server/src/eval/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { startFakeProvider, type FakeProvider } from "@promptly/api/testing/fake-provider";
import { createApp } from "./app.ts";
import { createLogger } from "./logger.ts";
import { listenForTests, type TestServer } from "../test/test-server.ts";

let h: Harness;
let provider: FakeProvider;
let server: TestServer;
let runKey: string;
let dir: string;

/** Runs `npm run cli -- eval ...args` with the server's URL and `key` in the environment. */
function cli(args: string[], key = runKey): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "-s", "cli", "--", "eval", ...args], {
      env: { ...process.env, PROMPTLY_URL: server.base, PROMPTLY_API_KEY: key },
      stdio: "pipe",
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  h = await createHarness();
  server = await listenForTests(createApp({ services: h.services, logger: createLogger("error", { write: () => undefined }) }));
});
afterAll(async () => {
  await server?.close();
  await h?.close();
});

describe("npm run cli -- eval, what needs no evaluation", () => {
  it("exits 2 with the server's refusal of a bad key, and when no server answers", { timeout: 120_000 }, async () => {
    const badKey = await cli(["support/reply", "--label", "staging", "--min-pass", "90"], "pk_not_a_key");
    expect([badKey.code, badKey.stdout]).toEqual([2, ""]);
    expect(badKey.stderr).toMatch(/ \(401\)\n$/);
    const nobody = await cli(["support/reply", "--url", "http://127.0.0.1:9"], "pk_any");
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toContain("Could not reach the server at http://127.0.0.1:9");
    const usage = await cli(["--label", "staging"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Name one prompt to evaluate\nusage: npm run cli --");
  });
});

describe.skip("npm run cli -- eval (needs the evaluation engine's routes: see the TODO above)", () => {
  beforeAll(async () => {
    provider = await startFakeProvider();
    dir = await mkdtemp(join(tmpdir(), "promptly-eval-"));
    const person = await createAccount(h, { fullName: "Ada Admin" });
    const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }], "Acme");
    const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
    const admin = (await h.signedInClient(person.id)).api;
    await admin.providers.create({ organizationId: organization.id, kind: "openai-compatible", name: "Local", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
    const prompt = await admin.prompts.create({ teamId, name: "support/reply", title: "Reply", visibility: "team", type: "text", template: "Hi {{ customer }}", model: "gpt-4o-mini" });
    await admin.promptLabels.set({ promptId: prompt.id, label: "staging", version: 1 });
    // The fake provider echoes: three cases of four pass (75 %).
    await admin.testCases.import({
      promptId: prompt.id,
      format: "jsonl",
      content: [
        ...["Ada", "Bob", "Cy"].map((customer) => JSON.stringify({ variables: { customer }, assertions: [{ type: "contains", value: `Echo: Hi ${customer}` }] })),
        JSON.stringify({ variables: { customer: "Dee <&>" }, assertions: [{ type: "contains", value: "never said" }] }),
      ].join("\n"),
    });
    runKey = (await admin.apiKeys.create({ teamId, name: "ci", scopes: ["run"] })).key;
  });
  afterAll(async () => {
    await Promise.all([provider?.close(), dir ? rm(dir, { recursive: true, force: true }) : undefined]);
  });

  it("exits 0 at or above --min-pass, printing progress and the summary, and writes JUnit XML", { timeout: 120_000 }, async () => {
    const junit = join(dir, "out.xml");
    const result = await cli(["support/reply", "--label", "staging", "--min-pass", "75", "--junit", junit, "--poll-ms", "50"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Evaluation \S+ of support\/reply: 4 runs \(v1\)$/m);
    expect(result.stdout).toContain("done: 4 done, 0 failed, 0 remaining of 4");
    expect(result.stdout).toMatch(/^v1: 75 % passed, p50 \d+ ms, \d+ tokens, cost /m);
    const xml = await readFile(junit, "utf8");
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="promptly eval support\/reply" tests="4" failures="1" errors="0">/);
    expect(xml).toContain('<testsuite name="support/reply v1" tests="4" failures="1" errors="0" skipped="0"');
    expect(xml).toContain("Dee &lt;&amp;&gt;");
    expect(xml.match(/<testcase /g)).toHaveLength(4);
  });

  it("exits 1 below --min-pass, naming the version and its rate", { timeout: 120_000 }, async () => {
    const result = await cli(["support/reply", "--label", "staging", "--min-pass", "90", "--poll-ms", "50"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Below the required 90 %: v1 at 75 %.");
  });

  it("exits 2 with the server's message for a bad key and an unknown prompt", { timeout: 120_000 }, async () => {
    const badKey = await cli(["support/reply", "--label", "staging"], "pk_not_a_key");
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/\(401\)$/m);
    const unknown = await cli(["nope/none", "--label", "staging"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/\(404\)$/m);
  });
});
