// `npm run cli -- eval` against a running server, as a pipeline runs it: a
// child process with PROMPTLY_URL and PROMPTLY_API_KEY in its environment, its exit code real. The
// server answers the REST API and its evaluation worker runs the queue; the model is the local fake
// provider (it echoes the prompt). An API key with the run scope evaluates the `staging` version (3
// cases of 4 pass) and the `legacy` one (1 of 4): the command follows each to the end, prints its
// progress and summary, writes JUnit XML (read back by a strict reader) and exits 0 at or above
// --min-pass, 1 below, 2 on the server's refusal, no server, or cases that could not run (the
// provider's connection pointed where nothing listens). The report's source, GET
// /api/v1/evaluations/{id}/items, is read directly too: a two-version evaluation's items in order. An
// evaluation started by a split label evaluates the label's own version, every time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { evaluationItemsAnswer, runtimeEvaluationSummary } from "@promptly/shared";
import { startFakeProvider, type FakeProvider } from "@promptly/api/testing/fake-provider";
import { createApp } from "./app.ts";
import { createLogger } from "./logger.ts";
import { listenForTests, type TestServer } from "../test/test-server.ts";
import { readXml } from "../test/xml-reader.ts";

let h: Harness;
let provider: FakeProvider;
let server: TestServer;
let runKey: string;
let dir: string;
let admin: Awaited<ReturnType<Harness["signedInClient"]>>["api"];
let teamId: string;
let promptId: string;
let connectionId: string;

/** The repository's root, where `npm run cli` runs. */
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/**
 * Runs `eval ...args` with the server's URL and `key` in the environment, as `npm run cli -- eval`
 * does (`tsx apps/server/src/cli.ts`), without npm's own start-up: a child process, its exit code real.
 */
function cli(args: string[], key = runKey): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/cli.ts", "eval", ...args], {
      cwd: ROOT,
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
  [h, provider, dir] = await Promise.all([createHarness(), startFakeProvider(), mkdtemp(join(tmpdir(), "promptly-eval-"))]);
  server = await listenForTests(createApp({ services: h.services, logger: createLogger("error", { write: () => undefined }) }));
  // The worker of a booted server: this process's queue lanes run the evaluations the CLI starts.
  await h.services.evaluations.startWorker(h.services.db);
  const person = await createAccount(h, { fullName: "Ada Admin" });
  const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }], "Acme");
  teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
  admin = (await h.signedInClient(person.id)).api;
  connectionId = (await admin.providers.create({ organizationId: organization.id, kind: "openai-compatible", name: "Local", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey })).id;
  promptId = (await admin.prompts.create({ teamId, name: "support/reply", title: "Reply", visibility: "team", type: "text", template: "Hi {{ customer }}", model: "gpt-4o-mini" })).id;
  await admin.promptVersions.create({ promptId, template: "Hello {{ customer }}, how can I help?", model: "gpt-4o-mini" });
  await admin.promptLabels.set({ promptId, label: "legacy", version: 1 });
  await admin.promptLabels.set({ promptId, label: "staging", version: 2 });
  // The provider echoes. v2 ("Echo: Hello Ada, how can I help?") passes the three greetings and is
  // too long for the fourth case (75 %); v1 ("Echo: Hi Ada") passes only the fourth (25 %).
  await admin.testCases.import({
    promptId,
    format: "jsonl",
    content: [
      ...["Ada", "Bob", "Cy"].map((customer) => JSON.stringify({ variables: { customer }, assertions: [{ type: "contains", value: `Hello ${customer}` }] })),
      JSON.stringify({ variables: { customer: "Dee <&>" }, assertions: [{ type: "contains", value: "Dee <&>" }, { type: "maxLength", value: "20" }] }),
    ].join("\n"),
  });
  runKey = (await admin.apiKeys.create({ teamId, name: "ci", scopes: ["run"] })).key;
});
afterAll(async () => {
  await server?.close();
  await h?.close();
  await Promise.all([provider?.close(), dir ? rm(dir, { recursive: true, force: true }) : undefined]);
});

describe("npm run cli -- eval against a running server", () => {
  /** The JUnit XML read back strictly: the root, and per suite its attributes and per case its name and outcome (the child that is not system-out). */
  async function junitOf(file: string) {
    const root = readXml(await readFile(file, "utf8"));
    const suites = root.children.map((suite) => ({
      attributes: suite.attributes,
      cases: suite.children
        .filter((child) => child.name === "testcase")
        .map((testcase) => {
          const outcome = testcase.children.find((child) => child.name !== "system-out");
          return { name: testcase.attributes.name, outcome: outcome ? `${outcome.name}: ${outcome.attributes.message}` : "passed", out: testcase.children.at(-1)!.text };
        }),
    }));
    return { root, suites };
  }

  it("exits 0 at or above --min-pass, printing progress and the summary, and writes JUnit XML: a testsuite for the version, a testcase per case", { timeout: 60_000 }, async () => {
    const junit = join(dir, "staging.xml");
    const result = await cli(["support/reply", "--label", "staging", "--min-pass", "70", "--junit", junit, "--poll-ms", "50"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^Evaluation [0-9a-f-]{36} of support\/reply: 4 runs \(v2\)$/);
    // Progress: a line per change, ending done.
    const progress = lines.filter((line) => /^(queued|running|done): /.test(line));
    expect(progress.at(-1)).toBe("done: 4 done (1 failed), 0 could not run, 0 remaining of 4");
    expect(lines).toContainEqual(expect.stringMatching(/^v2: 75 % passed, p50 \d+ ms, \d+ tokens, cost /));
    expect(lines).toContain(`JUnit XML written to ${junit}`);
    expect(lines).toContain("Every version passes at least 70 % of the cases.");

    const { root, suites } = await junitOf(junit);
    expect(root.attributes).toEqual({ name: "promptly eval support/reply", tests: "4", failures: "1", errors: "0" });
    expect(suites.map((suite) => suite.attributes.name)).toEqual(["support/reply v2"]);
    expect(suites[0]!.attributes).toMatchObject({ tests: "4", failures: "1", errors: "0", skipped: "0" });
    expect(suites[0]!.cases.map(({ name, outcome }) => [name, outcome])).toEqual([
      ["case 1", "passed"],
      ["case 2", "passed"],
      ["case 3", "passed"],
      ["case 4", expect.stringMatching(/^failure: maxLength "20": /)],
    ]);
    // The provider's words, markup and all, come back as they were.
    expect(suites[0]!.cases[3]!.out).toBe('variables: {"customer":"Dee <&>"}\noutput:\nEcho: Hello Dee <&>, how can I help?');
  });

  it("exits 1 below --min-pass, naming the version and its rate, and still writes the report", { timeout: 60_000 }, async () => {
    const junit = join(dir, "legacy.xml");
    const result = await cli(["support/reply", "--label", "legacy", "--min-pass", "70", "--junit", junit, "--poll-ms", "50"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^v1: 25 % passed, /m);
    expect(result.stderr).toBe("Below the required 70 %: v1 at 25 %.\n");
    const { suites } = await junitOf(junit);
    expect(suites.map((suite) => [suite.attributes.name, suite.attributes.tests, suite.attributes.failures])).toEqual([["support/reply v1", "4", "3"]]);
    expect(suites[0]!.cases.map(({ outcome }) => outcome.split(":")[0])).toEqual(["failure", "failure", "failure", "passed"]);
  });

  it("exits 2 when cases could not run, whatever --min-pass, saying how many and the first one's reason", { timeout: 60_000 }, async () => {
    // A base URL where nothing listens: a port a server of our own held and gave back.
    const { createServer } = await import("node:net");
    const closedPort = await new Promise<number>((resolve) => {
      const held = createServer().listen(0, "127.0.0.1", () => {
        const { port } = held.address() as { port: number };
        held.close(() => resolve(port));
      });
    });
    await admin.providers.update({ id: connectionId, baseUrl: `http://127.0.0.1:${closedPort}/v1`, apiKey: provider.apiKey });
    try {
      const junit = join(dir, "unreachable.xml");
      const result = await cli(["support/reply", "--label", "staging", "--min-pass", "0", "--junit", junit, "--poll-ms", "50"]);
      expect(result.code).toBe(2);
      const lines = result.stdout.split("\n");
      expect(lines.filter((line) => /^(queued|running|done): /.test(line)).at(-1)).toBe("done: 0 done (0 failed), 4 could not run, 0 remaining of 4");
      expect(lines).toContainEqual(expect.stringMatching(/^v2: no case judged, 4 cases could not run, p50 unknown, /));
      expect(result.stderr).toBe(`4 cases could not run: Could not reach Local at 127.0.0.1:${closedPort}: is the server running?\n`);
      const { suites } = await junitOf(junit);
      expect(suites[0]!.attributes).toMatchObject({ tests: "4", failures: "0", errors: "4" });
    } finally {
      await admin.providers.update({ id: connectionId, baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
    }
  });

  it("GET /api/v1/evaluations/{id}/items: every item of a two-version evaluation, by version then case, with its outcome", { timeout: 30_000 }, async () => {
    const started = await admin.evaluations.start({ promptId, versions: [2, 1] });
    await expect.poll(async () => (await admin.evaluations.get({ id: started.id })).status, { timeout: 15_000, interval: 50 }).toBe("done");
    const response = await fetch(`${server.base}/api/v1/evaluations/${started.id}/items`, { headers: { authorization: `Bearer ${runKey}` } });
    expect(response.status).toBe(200);
    const { items } = evaluationItemsAnswer.parse(await response.json());
    expect(items.map((item) => [item.version, item.position, item.status])).toEqual([
      [1, 0, "failed"], [1, 1, "failed"], [1, 2, "failed"], [1, 3, "passed"],
      [2, 0, "passed"], [2, 1, "passed"], [2, 2, "passed"], [2, 3, "failed"],
    ]);
    expect(items[0]).toMatchObject({ variables: { customer: "Ada" }, output: "Echo: Hi Ada", error: null, results: [{ type: "contains", value: "Hello Ada", pass: false }] });
    expect(items[7]!.results).toEqual([{ type: "contains", value: "Dee <&>", pass: true }, expect.objectContaining({ type: "maxLength", value: "20", pass: false })]);
    expect(items.every((item) => item.latencyMs !== null)).toBe(true);
  });

  it("exits 2, printing why, on the server's refusal (a bad key, an unknown prompt), no server, or bad arguments", { timeout: 60_000 }, async () => {
    const [badKey, unknown, nobody, usage] = await Promise.all([
      cli(["support/reply", "--label", "staging", "--min-pass", "90"], "pk_not_a_key"),
      cli(["nope/none", "--label", "staging"]),
      cli(["support/reply", "--url", "http://127.0.0.1:9"], "pk_any"),
      cli(["--label", "staging"]),
    ]);
    expect([badKey.code, badKey.stdout]).toEqual([2, ""]);
    expect(badKey.stderr).toMatch(/ \(401\)\n$/);
    expect([unknown.code, unknown.stdout]).toEqual([2, ""]);
    expect(unknown.stderr).toMatch(/ \(404\)\n$/);
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toContain("Could not reach the server at http://127.0.0.1:9");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Name one prompt to evaluate\nusage: npm run cli --");
  });
});

describe("an evaluation started by a split label", () => {
  it("evaluates the label's own version every time, never the candidate by weight; `version` evaluates the candidate; a key bound to the label is let in and refused as before", { timeout: 60_000 }, async () => {
    const split = await admin.prompts.create({ teamId, name: "support/split", title: "Split", visibility: "team", type: "text", template: "Hi {{ customer }}", model: "gpt-4o-mini" });
    await admin.promptVersions.create({ promptId: split.id, template: "Hello {{ customer }}", model: "gpt-4o-mini" });
    await admin.promptLabels.set({ promptId: split.id, label: "production", version: 1 });
    expect(await admin.promptLabels.split({ promptId: split.id, label: "production", version: 2, weight: 50 })).toEqual({ applied: true, changeRequestId: null });
    await admin.testCases.import({ promptId: split.id, format: "jsonl", content: JSON.stringify({ variables: { customer: "Ada" }, assertions: [{ type: "contains", value: "Ada" }] }) });
    const boundKey = (await admin.apiKeys.create({ teamId, name: "ci production", scopes: ["run"], labels: ["production"] })).key;
    const stagingKey = (await admin.apiKeys.create({ teamId, name: "ci staging", scopes: ["run"], labels: ["staging"] })).key;
    const start = async (body: object, key = runKey) => {
      const response = await fetch(`${server.base}/api/v1/prompts/support/split/evaluations`, {
        method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const versionsOf = (started: { status: number; body: unknown }) => {
      expect(started.status).toBe(201);
      return runtimeEvaluationSummary.parse(started.body).versions.map((version) => version.version);
    };

    // At 50 % a pick by weight would give the candidate to one start in two: 24 starts all on v1 by chance is 1 in 16 million.
    // The first reads the database, the next the label's kept answer (both versions in it): both ways give the label's own.
    const byLabel: number[][] = [];
    for (let i = 0; i < 8; i += 1) byLabel.push(versionsOf(await start({})));
    for (let i = 0; i < 8; i += 1) byLabel.push(versionsOf(await start({ label: "production" })));
    for (let i = 0; i < 8; i += 1) byLabel.push(versionsOf(await start({}, boundKey)));
    expect(byLabel).toEqual(Array.from({ length: 24 }, () => [1]));
    // The candidate by its number; a key bound to the label fetches only the label, as before.
    expect(versionsOf(await start({ version: 2 }))).toEqual([2]);
    expect((await start({ version: 2 }, boundKey)).status).toBe(403);
    expect((await start({}, stagingKey)).status).toBe(403);
    // The CLI's default, `production`, too.
    const cliRun = await cli(["support/split", "--min-pass", "100", "--poll-ms", "50"]);
    expect(cliRun.stdout.split("\n")[0]).toMatch(/^Evaluation [0-9a-f-]{36} of support\/split: 1 runs \(v1\)$/);
    expect(cliRun.code).toBe(0);

    // A fetch of the label is still picked by weight (each unit its own bucket): both versions served.
    const fetched = new Set<number>();
    for (let unit = 0; unit < 40 && fetched.size < 2; unit += 1) {
      const response = await fetch(`${server.base}/api/v1/prompts/support/split?label=production&unit=u${unit}`, { headers: { authorization: `Bearer ${boundKey}` } });
      expect(response.status).toBe(200);
      fetched.add(((await response.json()) as { version: number }).version);
    }
    expect([...fetched].sort()).toEqual([1, 2]);

    // Every item of the evaluations started by label ran v1; all of them end before the server closes.
    await expect.poll(() => h.database.db.evaluation.count({ where: { promptId: split.id, status: { notIn: ["done"] } } }), { timeout: 30_000, interval: 100 }).toBe(0);
    const items = await h.database.db.evaluationItem.groupBy({ by: ["version"], where: { evaluation: { promptId: split.id } }, _count: true });
    expect(items.map((item) => [item.version, item._count]).sort()).toEqual([[1, 25], [2, 1]]);
  });
});
