// Dev tooling: turns Prisma schemas into migration SQL with no network and no native engine.
// Prisma 7's migrate commands need a native schema engine that cannot be downloaded here; Prisma 6.19
// (installed as `prisma-legacy`) still ships the WebAssembly schema engine, which diffs two schemas offline.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SCHEMA_PATH = fileURLToPath(new URL("../../../prisma/schema.prisma", import.meta.url));
const require = createRequire(import.meta.url);

/** Prisma 6 wants the url inside the datasource block; Prisma 7 forbids it there. */
function legacySchema(source: string) {
  return source.replace(/(datasource\s+\w+\s*\{[^}]*?provider\s*=\s*"postgresql")/, `$1\n  url = "postgresql://unused"`);
}

/**
 * SQL that takes a database from `fromSchema` (or empty) to `toSchema`.
 * `databaseUrl` must reach a PostgreSQL server: the engine opens (but does not change) it.
 */
export async function diffSchemas(opts: { fromSchema?: string; toSchema: string; databaseUrl: string }): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "promptly-diff-"));
  try {
    const to = join(dir, "to.prisma");
    writeFileSync(to, legacySchema(opts.toSchema));
    const fromArgs = ["--from-empty"];
    if (opts.fromSchema !== undefined) {
      const from = join(dir, "from.prisma");
      writeFileSync(from, legacySchema(opts.fromSchema));
      fromArgs.splice(0, 1, "--from-schema-datamodel", from);
    }
    const adapter = require.resolve("@prisma/adapter-pg");
    writeFileSync(
      join(dir, "prisma.config.mjs"),
      `import { PrismaPg } from ${JSON.stringify(adapter)};\n` +
        `export default { experimental: { adapter: true }, engine: "js", schema: ${JSON.stringify(to)},\n` +
        `  adapter: async () => new PrismaPg({ connectionString: ${JSON.stringify(opts.databaseUrl)} }) };\n`,
    );
    const cli = require.resolve("prisma-legacy/build/index.js");
    const child = spawn(
      process.execPath,
      [cli, "migrate", "diff", "--config", join(dir, "prisma.config.mjs"), ...fromArgs, "--to-schema-datamodel", to, "--script"],
      { cwd: dir, env: {
          ...process.env,
          PRISMA_HIDE_UPDATE_MESSAGE: "1",
          CHECKPOINT_DISABLE: "1",
          // Only checked for existence (not loaded) by a schema-only diff; stops a download attempt.
          PRISMA_QUERY_ENGINE_LIBRARY: cli,
        },
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const status = await new Promise<number | null>((resolve, reject) => child.once("error", reject).once("close", resolve));
    if (status !== 0) throw new Error(`prisma migrate diff failed:\n${stderr}\n${stdout}`);
    return stdout.replace(/^-- CreateSchema\nCREATE SCHEMA IF NOT EXISTS "public";\n\n/m, "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function readSchema(path = SCHEMA_PATH) {
  return readFileSync(path, "utf8");
}
