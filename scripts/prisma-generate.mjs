// Runs `prisma generate` offline. Prisma 7's CLI only checks that a schema-engine
// binary path exists before generating (it never runs it for generate), and its
// own download host is unreachable from our machines, so we point it at a file we own.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(import.meta.url);

const result = spawnSync(process.execPath, [
  "node_modules/prisma/build/index.js", "generate", "--schema", "prisma/schema.prisma",
], { cwd: root, env, stdio: "inherit" });
process.exit(result.status ?? 1);
