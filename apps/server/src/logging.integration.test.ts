// Issue 27: `npm start` says first where the app and the mailbox are, in readable lines on a terminal
// (LOG_FORMAT=pretty) and in JSON lines otherwise (a log collector, a file, these tests).
import { expect, it } from "vitest";
import { freePort } from "../../../test/free-port.ts";
import { serversOnFreshDatabase } from "../test/server-process.ts";
import { prettyLine } from "./logger.ts";

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
