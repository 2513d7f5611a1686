// `npm start` says first where the app and the mailbox are, in readable lines on a terminal
// (LOG_FORMAT=pretty) and in JSON lines otherwise (a log collector, a file, these tests).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { freePort } from "../../../test/free-port.ts";
import { serversOnFreshDatabase } from "../test/server-process.ts";
import { createLogger, prettyLine, turnBatched } from "./logger.ts";

const start = serversOnFreshDatabase();

/** The server with the test run's database and S3, and its own embedded mail catcher (its mailbox page). */
async function startWithMailbox(env: Record<string, string>) {
  const mailbox = await freePort();
  const server = await start({ SMTP_HOST: "", SMTP_PORT: String(await freePort()), MAILBOX_PORT: String(mailbox), ...env });
  return { server, mailbox };
}

it("writes JSON lines when stdout is not a terminal, the first saying where the app and the mailbox are", { timeout: 90_000 }, async () => {
  const { server, mailbox } = await startWithMailbox({});
  const lines = server.output().trim().split("\n");
  const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(entries[0]).toMatchObject({
    level: 30,
    app: `http://localhost:${server.port}`,
    mailbox: `http://localhost:${mailbox}`,
    msg: `Starting Promptly. App: http://localhost:${server.port}  Mailbox: http://localhost:${mailbox}`,
  });
  expect(entries.some((entry) => String(entry["msg"]).startsWith("Promptly is ready"))).toBe(true);
});

it("writes readable lines with LOG_FORMAT=pretty, the first saying where the app and the mailbox are", { timeout: 90_000 }, async () => {
  const { server, mailbox } = await startWithMailbox({ LOG_FORMAT: "pretty" });
  const [first, ...rest] = server.output().trim().split("\n");
  expect(first).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d  INFO   Starting Promptly\\. App: http://localhost:${server.port}  Mailbox: http://localhost:${mailbox}$`));
  expect(rest.find((line) => line.includes("Promptly is ready"))).toMatch(/^\d\d:\d\d:\d\d  INFO   Promptly is ready in /);
  expect(server.output()).not.toContain(`"level":`);
});

it("shows a request as method, path, status and time, and an error's stack below its line", () => {
  const request = prettyLine(`${JSON.stringify({ level: 30, time: "2026-11-25T14:02:11.000Z", pid: 1, requestId: "r1", req: { method: "GET", url: "/api/health" }, res: { statusCode: 200 }, responseTimeMs: 3, msg: "request completed" })}\n`);
  expect(request).toMatch(/^\d\d:\d\d:\d\d  INFO   request completed  GET \/api\/health 200 3 ms  requestId=r1\n$/);
  const failure = prettyLine(`${JSON.stringify({ level: 50, time: "2026-11-25T14:02:11.000Z", err: { type: "Error", message: "boom", stack: "Error: boom\n    at here" }, msg: "tRPC x failed" })}\n`);
  expect(failure).toMatch(/ERROR  tRPC x failed\n    Error: boom\n        at here\n$/);
  expect(prettyLine("not json\n")).toBe("not json\n");
  // A field the message already says is not said twice.
  const banner = prettyLine(`${JSON.stringify({ level: 30, time: "2026-11-25T14:02:11.000Z", app: "http://localhost:3000", port: 3000, msg: "App: http://localhost:3000" })}\n`);
  expect(banner).toMatch(/INFO   App: http:\/\/localhost:3000  port=3000\n$/);
});

it("writes the lines of one turn of the event loop in one write, in order, when the turn's work is done or at flush", async () => {
  const writes: string[] = [];
  const destination = turnBatched({ write: (text) => writes.push(text) });
  const logger = createLogger("info", destination);
  const messages = (text: string) => text.trim().split("\n").map((line) => (JSON.parse(line) as { msg: string }).msg);
  logger.info("one");
  logger.warn("two");
  expect(writes).toEqual([]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(writes.map(messages)).toEqual([["one", "two"]]);
  logger.info("three");
  let flushed = false;
  logger.flush(() => (flushed = true));
  expect(flushed).toBe(true);
  await new Promise((resolve) => setImmediate(resolve));
  expect(writes.map(messages)).toEqual([["one", "two"], ["three"]]);
});

it("writes the lines still waiting when the process exits", () => {
  const logger = fileURLToPath(new URL("./logger.ts", import.meta.url));
  const script = `
    const { createLogger, logDestination } = await import(${JSON.stringify(logger)});
    const log = createLogger("info", logDestination("json"));
    for (let i = 1; i <= 3; i++) log.info("line " + i);
    process.exit(4);`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
  expect(child.status).toBe(4);
  expect(child.stdout.trim().split("\n").map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(["line 1", "line 2", "line 3"]);
});
