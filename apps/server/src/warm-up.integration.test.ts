// A start warms the path of a model run before its readiness answers ready, and writes nothing doing
// so. While the warm-up cannot finish (its key lookup waits for a lock this test holds on the keys'
// table), the process answers liveness but /api/health and /api/health/ready answer 503 "starting";
// so they do while the warm-up has finished but the mail queue's worker has not started (its first
// sweep waits for a lock on the outbox); once both have, readiness answers ready. The start has logged
// each part it warmed before its ready line, said "starting" once at info and logged no probe answered
// "starting" as a failed request, and no run, audit event, rate-limit count, usage count, draft or key
// use was written. The server is a process of its own, as `npm start` runs it, with rate limits on (a
// key lookup counted as a guess would be written).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { freePort } from "../../../test/free-port.ts";
import { sharedServicesEnv, startServerProcess, type ServerProcess } from "../test/server-process.ts";
import { RUN_PATH_WARMED } from "./warm-up.ts";
import { READINESS_STARTING } from "./app.ts";

let h: Harness;
let server: ServerProcess | undefined;
beforeAll(async () => {
  h = await createHarness();
  const person = await createAccount(h, { fullName: "Ada Admin" });
  const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }], "Acme");
  const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
  const admin = (await h.signedInClient(person.id)).api;
  // Keys that cannot be opened: the warm-up opens a throwaway key of its own, never a stored one (this one would fail), and calls no provider.
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
      return [JSON.parse(line) as { msg?: string; level?: number; parts?: string[]; req?: { url?: string }; res?: { statusCode?: number } }];
    } catch {
      return [];
    }
  });

/** A session holding an exclusive lock on `table` until `release`. */
async function lockTable(table: string) {
  const client = new pg.Client({ connectionString: h.database.url });
  await client.connect();
  await client.query("BEGIN");
  await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  let ended: Promise<void> | undefined;
  return {
    release: async () => {
      await client.query("COMMIT");
      await (ended ??= client.end());
    },
    /** Ends the session if `release` did not (its lock released with it). */
    end: () => (ended ??= client.end()).catch(() => undefined),
  };
}

/**
 * Asked again as the server's sessions change, until the warm-up's last query (the rate limits'
 * store asked `SELECT 1` on its own connection, opened since `since`) has been answered and the mail
 * worker's first sweep waits for the outbox's lock.
 */
async function warmedButMailWaiting(since: Date) {
  for (;;) {
    const [row] = await h.database.db.$queryRaw<{ warmed: boolean; sweepWaits: boolean }[]>`
      SELECT bool_or(query = 'SELECT 1' AND state = 'idle' AND backend_start >= ${since}) AS warmed,
             bool_or(wait_event_type = 'Lock' AND query LIKE '%FROM outbox o%') AS "sweepWaits"
      FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
    if (row?.warmed && row.sweepWaits) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the start's warm-up of the run path", () => {
  it("holds readiness at starting until it has warmed every part and the mail worker has started, and writes nothing", async () => {
    const before = await written();
    const keys = await lockTable("api_keys");
    const outbox = await lockTable("outbox");
    try {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const [{ now: spawned }] = await h.database.db.$queryRaw<[{ now: Date }]>`SELECT clock_timestamp() AS now`;
      const starting = startServerProcess({ ...sharedServicesEnv(h.database.url), PORT: String(port), RATE_LIMITS: "on", LOG_FORMAT: "json" });
      starting.catch(() => undefined);

      // Listening, and alive, but not ready while its warm-up waits for the lock.
      expect((await firstAnswer(`${base}/api/health/live`)).status).toBe(200);
      expect(await answerOf(`${base}/api/health/ready`)).toEqual({ status: 503, body: { status: "starting" } });
      expect(await answerOf(`${base}/api/health`)).toEqual({ status: 503, body: { status: "starting" } });

      // The warm-up done, the mail worker not started: still not ready.
      await keys.release();
      await warmedButMailWaiting(spawned);
      expect(await answerOf(`${base}/api/health/ready`)).toEqual({ status: 503, body: { status: "starting" } });
      expect(await answerOf(`${base}/api/health`)).toEqual({ status: 503, body: { status: "starting" } });

      await outbox.release();
      server = await starting;
      expect((await answerOf(`${base}/api/health/ready`)).status).toBe(200);
    } finally {
      await keys.end();
      await outbox.end();
    }

    const lines = logLines(server.output());
    const warmed = lines.findIndex((line) => line.msg?.startsWith(RUN_PATH_WARMED));
    expect(lines[warmed]).toMatchObject({
      parts: ["provider SDKs", "model call", "JSON body", "API key lookup", "prompt lookup", "connection lookup", "rate limit store"],
    });
    expect(warmed).toBeLessThan(lines.findIndex((line) => line.msg?.startsWith("Promptly is ready")));
    expect(lines.filter((line) => line.msg?.startsWith("Run path warm-up"))).toEqual([]);
    // Four probes answered "starting": said once, at info, and none logged as a failed request.
    expect(lines.filter((line) => line.msg === READINESS_STARTING).map((line) => line.level)).toEqual([30]);
    expect(lines.filter((line) => line.req?.url?.startsWith("/api/health") && line.res?.statusCode === 503)).toEqual([]);

    // Stopped as an operator stops it, so usage counted in memory would be flushed too.
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(await written()).toEqual(before);
  });
});
