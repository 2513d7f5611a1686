import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createEmptyDatabase } from "@promptly/db/testing";
import { readMigrations } from "@promptly/db/migrate";
import { freePort } from "../../../test/free-port.ts";
import { boot } from "./boot.ts";
import { loadEnv, REPO_ROOT } from "./env.ts";
import { createLogger } from "./logger.ts";

const cleanups: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function tempDataDir() {
  const dir = mkdtempSync(join(tmpdir(), "promptly-boot-"));
  chmodSync(dir, 0o755);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const quiet = createLogger("silent");

describe("boot", () => {
  it("keeps its data across a restart in embedded mode", async () => {
    const dataDir = tempDataDir();
    const env = loadEnv({
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      EMBEDDED_S3_PORT: String(await freePort()),
      SMTP_PORT: String(await freePort()),
      MAILBOX_PORT: String(await freePort()),
    });
    const first = await boot(env, { logger: quiet });
    const health = await fetch(`http://127.0.0.1:${env.PORT}/api/health`);
    expect(await health.json()).toEqual({ status: "ok", db: "ok", storage: "ok", mail: "ok", outbox: { depth: 0, oldestAgeSeconds: 0, failed: 0 } });
    await first.services.db.user.create({ data: { email: "kept@example.test" } });
    // Real work is kept in the embedded default: every commit reaches the disk before it is acknowledged.
    expect(await first.services.db.$queryRaw`SHOW fsync`).toEqual([{ fsync: "on" }]);
    await first.stop();

    const second = await boot(env, { logger: quiet });
    try {
      expect(await second.services.db.user.count({ where: { email: "kept@example.test" } })).toBe(1);
    } finally {
      await second.stop();
    }
  }, 120_000);

  it("two servers starting at once against one database apply each migration once", async () => {
    const database = await createEmptyDatabase(inject("databaseServerUrl"));
    cleanups.push(database.drop);
    const s3 = inject("s3");
    const smtp = inject("smtp");
    const envFor = async () =>
      loadEnv({
        DATA_DIR: tempDataDir(),
        PORT: String(await freePort()),
        DATABASE_URL: database.url,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY: s3.accessKey,
        S3_SECRET_KEY: s3.secretKey,
        SMTP_HOST: smtp.host,
        SMTP_PORT: String(smtp.port),
      });
    const [a, b] = await Promise.all([boot(await envFor(), { logger: quiet }), boot(await envFor(), { logger: quiet })]);
    await Promise.all([a.stop(), b.stop()]);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ migration_name: string; n: string }>(
      `SELECT migration_name, count(*) AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL GROUP BY migration_name`,
    );
    await client.end();
    expect(rows.map((row) => row.migration_name).sort()).toEqual(readMigrations().map((m) => m.name));
    expect(rows.every((row) => row.n === "1")).toBe(true);
  }, 120_000);

  it("after kill -9 of a started server, the next start on the same data directory starts (the leftover database is stopped)", async () => {
    const dataDir = tempDataDir();
    const ports = { PORT: await freePort(), EMBEDDED_POSTGRES_PORT: await freePort(), EMBEDDED_S3_PORT: await freePort(), SMTP_PORT: await freePort(), MAILBOX_PORT: await freePort() };
    const env = {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      DATABASE_URL: "", S3_ENDPOINT: "", SMTP_HOST: "",
      ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
    };
    const children: ChildProcess[] = [];
    const postgresPid = () => Number(readFileSync(join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
    const isAlive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    cleanups.push(() => {
      for (const child of children) child.kill("SIGKILL");
      try {
        process.kill(postgresPid(), "SIGINT");
      } catch {
        // already stopped (no pid file, or no such process)
      }
    });
    const start = async () => {
      let output = "";
      const child = spawn(process.execPath, ["--import", "tsx", join(REPO_ROOT, "apps/server/src/main.ts")], { env, cwd: REPO_ROOT });
      children.push(child);
      child.stdout?.on("data", (chunk) => (output += chunk));
      child.stderr?.on("data", (chunk) => (output += chunk));
      const deadline = Date.now() + 90_000;
      for (;;) {
        const healthy = await fetch(`http://127.0.0.1:${ports.PORT}/api/health`).then((r) => r.ok, () => false);
        if (healthy) return child;
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code))));

    const first = await start();
    // A second start on the same data directory (other ports) is refused while the first one lives.
    const otherPorts = { PORT: await freePort(), EMBEDDED_POSTGRES_PORT: await freePort(), EMBEDDED_S3_PORT: await freePort(), SMTP_PORT: await freePort(), MAILBOX_PORT: await freePort() };
    const second = spawn(process.execPath, ["--import", "tsx", join(REPO_ROOT, "apps/server/src/main.ts")], {
      env: { ...env, ...Object.fromEntries(Object.entries(otherPorts).map(([name, port]) => [name, String(port)])) },
      cwd: REPO_ROOT,
    });
    children.push(second);
    let refusal = "";
    second.stderr?.on("data", (chunk) => (refusal += chunk));
    expect(await exited(second)).toBe(1);
    expect(refusal).toContain("Promptly is already running with the data directory");
    expect((await fetch(`http://127.0.0.1:${ports.PORT}/api/health`)).status).toBe(200);
    const orphan = postgresPid();
    first.kill("SIGKILL");
    await exited(first);
    expect(isAlive(orphan)).toBe(true); // the crash left the database running, holding its port

    const restarted = await start();
    expect(isAlive(orphan)).toBe(false);
    const current = postgresPid();
    expect(current).not.toBe(orphan);
    restarted.kill("SIGTERM");
    await exited(restarted);
    await expect.poll(() => isAlive(current), { timeout: 10_000 }).toBe(false);
  }, 180_000);

  it("refuses to start a second server on a port that is taken, with a clear message", async () => {
    const dataDir = tempDataDir();
    const port = await freePort();
    const blocker = (await import("node:net")).createServer().listen(port, "127.0.0.1");
    cleanups.push(() => void blocker.close());
    await new Promise((resolve) => blocker.once("listening", resolve));
    const env = loadEnv({ DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: "postgresql://unused@127.0.0.1:1/x" });
    await expect(boot(env, { logger: quiet })).rejects.toThrow(`port ${port} (PORT) is already in use`);
  });
});
