// The built server (as `npm start` runs it) merges the production signals it accepts on a thread of its
// own: started only once there is something to merge, on connections of its own, its counts in the
// process's metrics, and ended with the process. Needs the build (`npm test` builds first).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startKeyServer, type KeyServer } from "../test/key-server.ts";
import { sharedServicesEnv, startServerProcess, type ServerProcess } from "../test/server-process.ts";
import { within } from "../test/within.ts";
import { REPO_ROOT } from "./env.ts";
import { MERGE_THREAD_APPLICATION } from "./ingest-merge-protocol.ts";
import { startMerging } from "./ingest-merge-thread.ts";

const WORKER = join(REPO_ROOT, "apps/server/dist/ingest-merge-worker.mjs");
const METRICS_TOKEN = "merge-thread-metrics-token";

let ks: KeyServer;
let server: ServerProcess;
const scratch = mkdtempSync(join(tmpdir(), "promptly-merge-thread-"));

/** The merge thread's connections to the test database. */
const threadConnections = async () =>
  (await ks.h.services.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${MERGE_THREAD_APPLICATION}`)[0]!.n;

beforeAll(async () => {
  expect(existsSync(WORKER), `${WORKER} is missing: build the server first (npm run build; npm test builds before it tests)`).toBe(true);
  ks = await startKeyServer();
  // The built server as `npm start` runs it, on the test's database and the run's S3 and SMTP.
  server = await startServerProcess({ ...sharedServicesEnv(ks.h.database.url), METRICS_TOKEN }, { built: true });
}, 120_000);

afterAll(async () => {
  await server?.dispose();
  await ks?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the built server's merge thread", () => {
  it("starts once there is something to merge, merges it on connections of its own, counts it in the process's metrics, and ends with the process", async () => {
    const teamId = await ks.team("Tracing");
    const prompt = await ks.prompt(teamId, "support/reply", [{ template: "Reply to {{ question }}.", labels: ["production"] }]);
    const key = await ks.key(teamId, { scopes: ["ingest"] });
    // Nothing sent yet: no thread, so a process that takes no production signals spends nothing on one.
    expect(await threadConnections()).toBe(0);

    const at = new Date().toISOString();
    const batch = Array.from({ length: 3 }, (_, i) => ({
      id: `create-${i}`, type: "generation-create", timestamp: at,
      body: { id: `thread-gen-${i}`, traceId: `thread-trace-${i}`, name: "reply", startTime: at, endTime: at, model: "gpt-4o-mini", promptName: "support/reply", promptVersion: 1 },
    }));
    const answer = await fetch(`${server.base}/api/public/ingestion`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.secretKey}`, "content-type": "application/json" },
      body: JSON.stringify({ batch }),
    });
    expect(answer.status).toBe(207);
    expect(await answer.json()).toMatchObject({ errors: [] });

    // Merged by the spawned server (the test's own process merges only what it appends itself), on the thread's connections.
    await within(30_000, async () =>
      (await ks.h.services.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM generations WHERE prompt_id = ${prompt.id}::uuid AND version = 1`)[0]!.n === 3);
    expect(await threadConnections()).toBeGreaterThan(0);
    // What the thread wrote is counted where Prometheus reads it: the process's /metrics.
    const scraped = await (await fetch(`${server.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(scraped).toMatch(/^promptly_production_ingested_total\{source="langfuse",result="generation"\} 3$/m);

    // A stop ends the thread with the process: a clean exit, no merge failure told on the way.
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toContain("production signals not merged yet");
    await within(10_000, async () => (await threadConnections()) === 0);
  });
});

describe("a merge thread that cannot run", () => {
  it("is started again after a wait, and after four failures in a row the merges run on the requests' thread, so what was accepted is merged", async () => {
    const teamId = await ks.team("Broken thread");
    const prompt = await ks.prompt(teamId, "support/broken", [{ template: "Reply.", labels: ["production"] }]);
    const key = await ks.key(teamId, { scopes: ["ingest"] });
    const broken = join(scratch, "broken-worker.mjs");
    writeFileSync(broken, 'throw new Error("this thread cannot start");\n');
    const errors: string[] = [];
    // The test's own server (ks) appends; its merges go to the broken thread from now on.
    const stop = startMerging(ks.app.services.db, { databaseUrl: ks.h.database.url, onError: (error) => errors.push((error as Error).message), workerFile: broken, restartAfterMs: 20 });
    try {
      const at = new Date().toISOString();
      const answer = await fetch(`${ks.server.base}/api/public/ingestion`, {
        method: "POST",
        headers: { authorization: `Bearer ${key.secretKey}`, "content-type": "application/json" },
        body: JSON.stringify({ batch: [{ id: "create-broken", type: "generation-create", timestamp: at, body: { id: "broken-gen", traceId: "broken-trace", startTime: at, promptName: "support/broken", promptVersion: 1 } }] }),
      });
      expect(answer.status).toBe(207);
      // Merged on the requests' thread once the fourth start failed.
      await within(30_000, async () =>
        (await ks.h.services.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM generations WHERE prompt_id = ${prompt.id}::uuid`)[0]!.n === 1);
      expect(errors.filter((message) => message === "this thread cannot start")).toHaveLength(4);
      expect(errors).toContain("The merge thread ended 4 times in a row soon after its start (last exit code 1): production signals are merged on the requests' thread until a restart");
    } finally {
      await stop();
    }
  });
});
