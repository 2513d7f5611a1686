// `npm start` / `npm run dev`: the whole product in one process.
import { boot } from "./boot.ts";
import { join } from "node:path";
import { ConfigError, loadEnv, REPO_ROOT, type Env } from "./env.ts";

async function main() {
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const started = Date.now();
  let viteMiddleware;
  if (env.NODE_ENV === "development") {
    const { createServer } = await import("vite");
    const vite = await createServer({ root: join(REPO_ROOT, "apps/web"), server: { middlewareMode: true }, appType: "spa" });
    viteMiddleware = vite.middlewares;
  }
  const running = await boot(env, { viteMiddleware });
  console.log(`\nPromptly is ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`  App:     ${running.urls.app}`);
  if (running.urls.mailbox) console.log(`  Mailbox: ${running.urls.mailbox}`);
  console.log("Press Ctrl+C to stop.\n");

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    await running.stop().catch((error) => console.error(error));
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error) => {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
