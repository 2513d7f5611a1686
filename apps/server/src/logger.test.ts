// The request line requestLines writes itself is the text pino would write for it, byte for byte.
import type { IncomingMessage } from "node:http";
import { pino } from "pino";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { createLogger, requestLines } from "./logger.ts";

beforeEach(() => {
  // Both lines of a pair carry the same time.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-12-06T04:05:06.789Z"));
});
afterEach(() => vi.useRealTimers());

const request = (url: string, userAgent?: string, method = "GET") =>
  ({ method, url, headers: userAgent === undefined ? {} : { "user-agent": userAgent } }) as unknown as IncomingMessage;

const cases: [id: string, url: string, userAgent: string | undefined, status: number, errored: boolean][] = [
  ["4a0c4a2e-7d1f-4c55-9a51-0c6f1f0b8e21", "/api/v1/prompts/support%2Freply", "promptly-client/1.0", 200, false],
  ["client-id.7_A", "/api/v1/prompts/a?label=production&version=2&label=x", undefined, 304, false],
  ["r", "/trpc/auth.me?batch=1&input=%7B%7D", 'an "agent" with \\ quotes', 404, false],
  ["r", '/odd/"quoted"\\path', "tab\there and \u0001 control", 429, false],
  ["r", "/unicode/é/\u2028/\ud83d\ude00", "latin1 Ã© agent", 500, false],
  ["r", "/gateway", "x", 502, false],
  ["r", "/failed-answer", "x", 200, true],
];

it.each(cases)("writes the line of request %s %s (%s, %i) as pino writes it", (id, url, userAgent, status, errored) => {
  const lines: string[] = [];
  const logger = createLogger("info", { write: (line: string) => void lines.push(line) });
  requestLines(logger).answered(id, request(url, userAgent), status, Date.now() - 3, errored);
  const failed = errored || status >= 500;
  const viaPino = logger.child({}, { redact: [] });
  viaPino[status === 502 ? "warn" : failed ? "error" : "info"](
    { requestId: id, req: { method: "GET", url: lines.length ? (JSON.parse(lines[0]!) as { req: { url: string } }).req.url : "", userAgent }, res: { statusCode: status }, responseTimeMs: 3 },
    failed ? "request failed" : "request completed",
  );
  expect(lines).toHaveLength(2);
  expect(lines[0]).toBe(lines[1]);
});

it("leaves the line to pino when the logger would write other text (here a mixin's fields)", () => {
  const lines: string[] = [];
  const logger = pino({ base: { pid: 1 }, mixin: () => ({ region: "eu" }) }, { write: (line: string) => void lines.push(line) });
  requestLines(logger).answered("r", request("/x"), 200, Date.now());
  expect(JSON.parse(lines[0]!)).toMatchObject({ region: "eu", requestId: "r", msg: "request completed" });
});

it("writes the line itself for the process's logger (pino's serialiser is not asked)", () => {
  const lines: string[] = [];
  const logger = createLogger("info", { write: (line: string) => void lines.push(line) });
  const writeSym = (pino.symbols as unknown as Record<string, symbol>)["writeSym"]!;
  const proto = Object.getPrototypeOf(logger) as Record<symbol, (...args: unknown[]) => unknown>;
  const spy = vi.spyOn(proto, writeSym as unknown as never);
  try {
    requestLines(logger).answered("r", request("/x"), 200, Date.now());
    expect(spy).not.toHaveBeenCalled();
  } finally {
    spy.mockRestore();
  }
  expect(lines).toHaveLength(1);
});
