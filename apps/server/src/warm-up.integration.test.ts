// A start warms the path of a model run before its readiness answers ready, and writes nothing doing
// so. While the warm-up cannot finish (its key lookup waits for a lock this test holds on the keys'
// table), the process answers liveness but /api/health and /api/health/ready answer 503 "starting";
// once it has, readiness answers ready, the start has logged each part it warmed before its ready
// line, and no run, audit event, rate-limit count, usage count, draft or key use was written. The
// server is a process of its own, as `npm start` runs it, with rate limits on (a key lookup counted as
// a guess would be written).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { freePort } from "../../../test/free-port.ts";
import { sharedServicesEnv, startServerProcess, type ServerProcess } from "../test/server-process.ts";
import { RUN_PATH_WARMED } from "./warm-up.ts";

let h: Harness;
let server: ServerProcess | undefined;
beforeAll(async () => {
  h = await createHarness();
  const person = await createAccount(h, { fullName: "Ada Admin" });
  const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }], "Acme");
  const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
  const admin = (await h.signedInClient(person.id)).api;
  // Keys never opened: the warm-up needs only the connections' kinds (both SDKs' calls), and calls no provider.
  for (const [kind, name] of [["openai_compatible", "Local models"], ["anthropic", "Claude"]] as const) {
    await h.database.db.providerConnection.create({
      data: { organizationId: organization.id, kind, name, baseUrl: "http://127.0.0.1:9/v1", apiKeySealed: "unopened", apiKeyLast4: "0000" },
    });
  }
  const prompt = await admin.prompts.create({
    teamId, name: "support/reply", title: "Support reply", visibility: "team", type: "text", template: "Hello {{ customer }}", model: "gpt-4o-mini",
    variables: [{ name: "customer", type: "string" }],
  });
  await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  await admin.apiKeys.create({ teamId, name: "Runs", scopes: ["run"] });
});
afterAll(async () => {
  await server?.dispose();
  await h?.close();
});

/** Everything a run, a key's use or a counted request would have written. */
async function written() {
  const [row] = await h.database.db.$queryRaw<unknown[]>`
    SELECT (SELECT count(*) FROM prompt_runs)::int AS runs, (SELECT count(*) FROM audit_events)::int AS audit,
           (SELECT count(*) FROM rate_limits)::int AS "rateLimits", (SELECT count(*) FROM prompt_usage)::int AS usage,
           (SELECT count(*) FROM playground_drafts)::int AS drafts, (SELECT max(last_used_at) FROM api_keys) AS "keyLastUsed"`;
  return row;
}

/** Asked again as soon as it is refused (the process is not listening yet), until it answers. */
async function firstAnswer(url: string): Promise<Response> {
  for (;;) {
    try {
      return await fetch(url);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const answerOf = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as unknown };
};

const logLines = (output: string) =>
  output.split("\n").flatMap((line) => {
    try {
      return [JSON.parse(line) as { msg?: string; parts?: string[] }];
    } catch {
      return [];
    }
  });

describe("the start's warm-up of the run path", () => {
  it("holds readiness at starting until it has warmed every part, and writes nothing", async () => {
    const before = await written();
    const lock = new pg.Client({ connectionString: h.database.url });
    await lock.connect();
    try {
      await lock.query("BEGIN");
      await lock.query("LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE");
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const starting = startServerProcess({ ...sharedServicesEnv(h.database.url), PORT: String(port), RATE_LIMITS: "on", LOG_FORMAT: "json" });
      starting.catch(() => undefined);

      // Listening, and alive, but not ready while its warm-up waits for the lock.
      expect((await firstAnswer(`${base}/api/health/live`)).status).toBe(200);
      expect(await answerOf(`${base}/api/health/ready`)).toEqual({ status: 503, body: { status: "starting" } });
      expect(await answerOf(`${base}/api/health`)).toEqual({ status: 503, body: { status: "starting" } });

      await lock.query("COMMIT");
      server = await starting;
      expect((await answerOf(`${base}/api/health/ready`)).status).toBe(200);
    } finally {
      await lock.end();
    }

    const lines = logLines(server.output());
    const warmed = lines.findIndex((line) => line.msg?.startsWith(RUN_PATH_WARMED));
    expect(lines[warmed]).toMatchObject({ parts: ["provider SDKs", "model call", "JSON body", "API key lookup", "prompt lookup"] });
    expect(warmed).toBeLessThan(lines.findIndex((line) => line.msg?.startsWith("Promptly is ready")));
    expect(lines.filter((line) => line.msg?.startsWith("Run path warm-up"))).toEqual([]);

    // Stopped as an operator stops it, so usage counted in memory would be flushed too.
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(await written()).toEqual(before);
  });
});
