// `npm run bench -- evaluations`: an evaluation of 1,000 test cases x 2 versions through the job queue
// (pg-boss on the app's PostgreSQL), against a local model provider answering every call in 50 ms, with
// the per-connection limit at 20 calls at once (EVALUATION_CONCURRENCY). The ideal is cases x versions x
// 50 ms / 20 = 5 s; the target is a wall time within 1.25x of it. The provider is the tests' fake in a
// process of its own (its first token after 50 ms, the rest at once). The wall time runs from the start
// request to the evaluation's finish as the server records it (finished_at), and as the client sees it
// (polled every 20 ms). Reported too: the server's peak RSS. An unmeasured evaluation of 100 cases goes
// first (JIT, pools, the queue's schema and partition).
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { adminOfOneTeam } from "./seed.ts";
import type { Benchmark, RunningServer } from "./types.ts";

const ADMIN = "bench-evaluations@bench.test";
const MODEL = "gpt-4o-mini";
const CASES = 1_000;
const VERSIONS = [1, 2];
const ANSWER_MS = 50;
const CONCURRENCY = 20;
const TARGET_RATIO = 1.25;
const SERVER_ENV = { ALLOW_PRIVATE_PROVIDER_URLS: "true", EVALUATION_CONCURRENCY: String(CONCURRENCY) };

async function trpc<T>(base: string, cookie: string, procedure: string, input: unknown): Promise<T> {
  const response = await fetch(`${base}/trpc/${procedure}`, { method: "POST", headers: { "content-type": "application/json", cookie }, body: JSON.stringify({ json: input }) });
  const body = (await response.json()) as { result?: { data: { json: T } } };
  if (!response.ok || !body.result) throw new Error(`${procedure} failed: ${response.status} ${JSON.stringify(body)}`);
  return body.result.data.json;
}

async function startProvider(): Promise<{ child: ChildProcess; openaiBaseUrl: string; apiKey: string }> {
  const child = fork(fileURLToPath(new URL("fake-provider-server.ts", import.meta.url)), {
    env: { ...process.env, FAKE_ANSWER: JSON.stringify({ firstTokenDelayMs: ANSWER_MS, chunkDelayMs: 0, repeat: 1 }) },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const address = await new Promise<{ openaiBaseUrl: string; apiKey: string }>((resolve, reject) => {
    child.once("message", (message) => resolve(message as { openaiBaseUrl: string; apiKey: string }));
    child.once("exit", (code) => reject(new Error(`the fake provider exited (${code}) before it listened`)));
  });
  return { child, ...address };
}

/** A prompt of two versions with `cases` test cases (written as an import writes them: one statement). */
async function promptWithCases(server: RunningServer, cookie: string, teamId: string, name: string, cases: number): Promise<string> {
  const prompt = await trpc<{ id: string }>(server.base, cookie, "prompts.create", {
    teamId, name, title: name, visibility: "team", type: "text", template: "Answer {{ question }} politely.", model: MODEL,
  });
  await trpc(server.base, cookie, "promptVersions.create", { promptId: prompt.id, type: "text", template: "Answer {{ question }}.", model: MODEL });
  await server.db.query(
    `INSERT INTO test_cases (prompt_id, variables, assertions, created_at)
     SELECT $1::uuid, jsonb_build_object('question', 'question ' || n), '[{"type":"contains","value":"politely"}]'::jsonb, now() + n * interval '1 ms'
     FROM generate_series(1, $2::int) n`,
    [prompt.id, cases],
  );
  return prompt.id;
}

interface Finished {
  status: string;
  /** ms from the start request to the finish the server recorded. */
  recordedMs: number;
  /** ms from the start request to the client seeing it finished. */
  seenMs: number;
  /** ms the start request took (the items and their jobs written). */
  startMs: number;
}

async function evaluate(server: RunningServer, cookie: string, promptId: string): Promise<Finished> {
  const startedAt = Date.now();
  const started = performance.now();
  const { id } = await trpc<{ id: string }>(server.base, cookie, "evaluations.start", { promptId, versions: VERSIONS });
  const startMs = performance.now() - started;
  for (;;) {
    const { rows: [row] } = await server.db.query<{ status: string; finished_at: Date | null }>(`SELECT status, finished_at FROM evaluations WHERE id = $1`, [id]);
    if (row && row.status !== "queued" && row.status !== "running") {
      return { status: row.status, recordedMs: row.finished_at!.getTime() - startedAt, seenMs: performance.now() - started, startMs };
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const benchmark: Benchmark = {
  description: `an evaluation of ${CASES.toLocaleString("en-US")} cases x ${VERSIONS.length} versions on the job queue, the provider answering in ${ANSWER_MS} ms, ${CONCURRENCY} calls at once`,
  serverEnv: () => SERVER_ENV,
  async seed(context) {
    await adminOfOneTeam(context, ADMIN, "Bench Admin");
  },
  async measure(server) {
    const provider = await startProvider();
    try {
      const { rows: [ids] } = await server.db.query<{ organization_id: string; team_id: string }>(`SELECT t.organization_id, t.id AS team_id FROM teams t WHERE t.name = 'Support'`);
      const cookie = await server.signIn(ADMIN);
      await trpc(server.base, cookie, "providers.create", {
        organizationId: ids!.organization_id, kind: "openai-compatible", name: "Local model server", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey,
      });
      const warmUp = await promptWithCases(server, cookie, ids!.team_id, "bench/warm-up", 100);
      const measured = await promptWithCases(server, cookie, ids!.team_id, "bench/evaluation", CASES);
      const warm = await evaluate(server, cookie, warmUp);
      if (warm.status !== "done") throw new Error(`the warm-up evaluation ended ${warm.status}`);

      const cpuBefore = server.cpuMs();
      const [finished, rss] = await server.peakRss(() => evaluate(server, cookie, measured));
      const cpu = server.cpuMs() - cpuBefore;
      const { rows: counts } = await server.db.query<{ status: string; n: number; attempts: number }>(
        `SELECT i.status, count(*)::int AS n, sum(i.attempts)::int AS attempts FROM evaluation_items i JOIN evaluations e ON e.id = i.evaluation_id
         WHERE e.prompt_id = $1 GROUP BY i.status ORDER BY i.status`,
        [measured],
      );
      const ideal = (CASES * VERSIONS.length * ANSWER_MS) / CONCURRENCY;
      const ratio = finished.recordedMs / ideal;
      return [
        `Provider: every answer after ${ANSWER_MS} ms; server env: ${Object.entries(SERVER_ENV).map(([name, value]) => `${name}=${value}`).join(" ")}.`,
        `Items: ${counts.map((row) => `${row.n} ${row.status} (${row.attempts} calls)`).join(", ")}; evaluation ${finished.status}.`,
        "",
        `wall time (start request to finish, as recorded): ${(finished.recordedMs / 1000).toFixed(2)} s`,
        `wall time (as the client saw it, polling every 20 ms): ${(finished.seenMs / 1000).toFixed(2)} s`,
        `start request (the items and their jobs written): ${finished.startMs.toFixed(0)} ms`,
        `ideal (${CASES} x ${VERSIONS.length} x ${ANSWER_MS} ms / ${CONCURRENCY}): ${(ideal / 1000).toFixed(2)} s`,
        `ratio: ${ratio.toFixed(3)}x`,
        `server CPU: ${(cpu / 1000).toFixed(2)} s (${((cpu * 1000) / (CASES * VERSIONS.length)).toFixed(0)} µs per case run)`,
        `server peak RSS: ${rss} MB`,
        `${ratio <= TARGET_RATIO && finished.status === "done" ? "PASS" : "FAIL"}  wall time within ${TARGET_RATIO}x of the ideal: ${ratio.toFixed(3)}x`,
      ];
    } finally {
      if (provider.child.exitCode === null) provider.child.kill("SIGTERM");
    }
  },
};
