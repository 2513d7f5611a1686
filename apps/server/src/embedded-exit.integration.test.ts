// A process that starts and stops the embedded PostgreSQL keeps the exit code it sets: the package's
// exit hook used to call process.exit(0) on beforeExit, so a test run with failures exited 0.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { freePort } from "../../../test/free-port.ts";

const dataDir = mkdtempSync(join(tmpdir(), "promptly-exit-code-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it("a process that used the embedded PostgreSQL exits with the code it set, not 0", async () => {
  const embedded = fileURLToPath(new URL("./embedded.ts", import.meta.url));
  const script = `
    const { startEmbeddedPostgres } = await import(${JSON.stringify(embedded)});
    const pg = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, port: ${await freePort()}, durable: false });
    await pg.service.stop();
    process.exitCode = 3;`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
  expect(child.stderr).not.toMatch(/TypeError/);
  expect(child.status).toBe(3);
});
