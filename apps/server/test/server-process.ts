// For the host's integration tests: the real server as a child process (src/main.ts, run by tsx as
// `npm run dev` does, so a test needs no build first; or the built one), with its output and its exit.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { createTestDatabase, type TestDatabase } from "@promptly/db/testing";
import { freePort } from "../../../test/free-port.ts";
import { REPO_ROOT } from "../src/env.ts";

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** http://127.0.0.1:PORT */
  base: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when what it printed so far satisfies `seen` (checked as each chunk arrives); rejects if it exits first. */
  printed(seen: (output: string) => boolean): Promise<void>;
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Kills it if it still runs and removes its data directory. */
  dispose(): Promise<void>;
}

/** External services of the test run (global setup): the process starts nothing embedded. */
export function sharedServicesEnv(databaseUrl: string): Record<string, string> {
  const s3 = inject("s3");
  const smtp = inject("smtp");
  return {
    DATABASE_URL: databaseUrl,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    SMTP_HOST: smtp.host,
    SMTP_PORT: String(smtp.port),
    APP_SECRET: "a-test-secret-that-is-long-enough-0123456789",
  };
}

/**
 * For a test file whose servers share one fresh database of the test run's PostgreSQL (made before
 * its tests) and the run's S3 and SMTP: returns `start(env)`. After the file, the servers it started
 * are killed and the database dropped.
 */
export function serversOnFreshDatabase(): (env?: Record<string, string>) => Promise<ServerProcess> {
  let database: TestDatabase | undefined;
  const started: ServerProcess[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(inject("databaseServerUrl"));
  });
  afterAll(async () => {
    for (const server of started) await server.dispose();
    await database?.drop();
  });
  return async (env = {}) => {
    const server = await startServerProcess({ ...sharedServicesEnv(database!.url), ...env });
    started.push(server);
    return server;
  };
}

/** `built`: the built server as `npm start` runs it (apps/server/start.sh: dist/, its memory settings), which needs the build first. */
export async function startServerProcess(env: Record<string, string>, { timeoutMs = 60_000, built = false } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "promptly-process-"));
  chmodSync(dataDir, 0o755);
  let output = "";
  const waiting = new Set<{ seen: (output: string) => boolean; resolve: () => void; reject: (error: Error) => void }>();
  const [command, args] = built ? [join(REPO_ROOT, "apps/server/start.sh"), []] : [process.execPath, ["--import", "tsx", join(REPO_ROOT, "apps/server/src/main.ts")]];
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: "production", RATE_LIMITS: "off", DATA_DIR: dataDir, PORT: String(port), ...env },
  });
  const onOutput = (chunk: Buffer) => {
    output += chunk;
    for (const waiter of waiting) {
      if (!waiter.seen(output)) continue;
      waiting.delete(waiter);
      waiter.resolve();
    }
  };
  child.stdout?.on("data", onOutput);
  child.stderr?.on("data", onOutput);
  // "close" comes after the last of its output was read: nothing it prints can satisfy a waiter then.
  let closed = false;
  child.once("close", () => {
    closed = true;
    for (const waiter of waiting) waiter.reject(new Error(`the server exited first:\n${output}`));
    waiting.clear();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const started: ServerProcess = {
    child,
    port,
    base: `http://127.0.0.1:${port}`,
    output: () => output,
    printed(seen) {
      if (seen(output)) return Promise.resolve();
      if (closed) return Promise.reject(new Error(`the server exited first:\n${output}`));
      return new Promise<void>((resolve, reject) => waiting.add({ seen, resolve, reject }));
    },
    exited,
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (!output.includes("Promptly is ready")) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await started.dispose();
      throw new Error(`the server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return started;
}
