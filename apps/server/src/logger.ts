// One pino logger for the process: JSON lines on stdout, or readable lines (LOG_FORMAT=pretty, the
// default on a terminal) written from the same JSON, so redaction and serializers apply to both. Every request gets an id (X-Request-Id) that
// is on each line logged for it and on its answer. Nothing secret reaches a line: requests are logged
// by method, path, query names (never values: tRPC inputs and emailed tokens travel there), status,
// time and user agent; errors by type, message and stack, never by their inputs.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pino, type DestinationStream, type Logger } from "pino";
import type { Env, LogFormat } from "./env.ts";

export type { Logger } from "pino";

/** Field names whose values are secrets wherever they appear in a logged object. */
const SECRET_FIELDS = ["password", "currentPassword", "newPassword", "token", "secret", "key", "apiKey", "totp", "code", "cookie", "authorization"];

/**
 * pino's redact paths: headers that carry credentials, and secret fields at the top and one level
 * down (`{ input: { password } }`). Not deeper: each wildcard level costs every log line about as
 * much as the rest of its request logging (measured: +50 µs a request), and nothing logs deeper objects.
 */
const REDACT_PATHS = [
  "req.headers.cookie",
  "req.headers.authorization",
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
];

/**
 * stdout, written once a turn of the event loop: the lines logged while the process handles a batch
 * of requests go out together in one write when the turn's work is done, through pino's synchronous
 * destination (which retries a busy pipe and stops at a closed one). Writing as each line came
 * (pino's asynchronous destination: a write on libuv's thread pool, then a wake-up of the main
 * thread) took a sixth of the runtime fetch's CPU (`npm run bench -- runtime`: 80 to 66 µs a
 * request). Lines still waiting when the process exits (process.exit, a signal handled by main.ts,
 * an uncaught error) are written then; only a kill -9 can lose the last turn's lines. One for the
 * process: every logger writes through it, so their lines keep their order.
 */
let processStdout: DestinationStream | undefined;
function stdout(): DestinationStream {
  if (!processStdout) {
    const out = pino.destination({ dest: 1, sync: true });
    const batched = turnBatched(out);
    processStdout = batched;
    process.on("exit", () => batched.flush());
  }
  return processStdout;
}

/** A destination that hands `out` the lines written in one turn of the event loop as one text, at the turn's end or at flush() (pino's logger.flush). */
export function turnBatched(out: { write(text: string): unknown }): DestinationStream & { flush(done?: () => void): void } {
  let pending = "";
  const flush = (done?: () => void) => {
    if (pending) {
      const text = pending;
      pending = "";
      out.write(text);
    }
    done?.();
  };
  return {
    write(line: string) {
      if (!pending) setImmediate(() => flush());
      pending += line;
    },
    flush,
  };
}

/** Where the process's lines go: stdout, as JSON or as readable lines. */
export function logDestination(format: LogFormat): DestinationStream {
  if (format === "json") return stdout();
  const out = stdout();
  const colors = process.stdout.isTTY === true && !process.env.NO_COLOR;
  return { write: (line: string) => void out.write(prettyLine(line, colors)) };
}

const LEVELS: Record<number, { name: string; color: string }> = {
  10: { name: "TRACE", color: "90" },
  20: { name: "DEBUG", color: "36" },
  30: { name: "INFO ", color: "32" },
  40: { name: "WARN ", color: "33" },
  50: { name: "ERROR", color: "31" },
  60: { name: "FATAL", color: "35" },
};

/** Fields every line has, shown in the line's head or not at all. */
const HEAD_FIELDS = new Set(["level", "time", "pid", "hostname", "msg"]);

/**
 * One JSON log line as a person reads it: `14:02:11 INFO  message  key=value …`, a request as
 * `GET /path 200 12 ms`, an error's stack indented below. A line that is not JSON passes unchanged.
 */
export function prettyLine(line: string, colors = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const paint = (code: string, text: string) => (colors ? `\x1b[${code}m${text}\x1b[0m` : text);
  const level = LEVELS[Number(entry["level"])] ?? { name: String(entry["level"]).padEnd(5), color: "0" };
  const time = typeof entry["time"] === "string" ? new Date(entry["time"]).toTimeString().slice(0, 8) : "";
  const parts = [paint("90", time), paint(level.color, level.name), String(entry["msg"] ?? "")];
  const rest = Object.entries(entry).filter(([key]) => !HEAD_FIELDS.has(key));
  const req = entry["req"] as { method?: string; url?: string } | undefined;
  const res = entry["res"] as { statusCode?: number } | undefined;
  if (req?.method) parts.push(`${req.method} ${req.url ?? ""}${res?.statusCode ? ` ${res.statusCode}` : ""}${typeof entry["responseTimeMs"] === "number" ? ` ${entry["responseTimeMs"]} ms` : ""}`);
  const errors: string[] = [];
  const fields = rest
    .filter(([key, value]) => {
      if (req?.method && (key === "req" || key === "res" || key === "responseTimeMs")) return false;
      // Said by the message already (the start-up lines' app and mailbox addresses).
      if (typeof value === "string" && String(entry["msg"] ?? "").includes(value)) return false;
      if ((key === "err" || key === "error") && value && typeof value === "object" && "stack" in value) {
        errors.push(String((value as { stack: unknown }).stack));
        return false;
      }
      return true;
    })
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  if (fields.length) parts.push(paint("90", fields.join(" ")));
  const stack = errors.map((text) => `\n${text.replace(/^/gm, "    ")}`).join("");
  return `${parts.filter(Boolean).join("  ")}${stack}\n`;
}

/** The last millisecond a line was stamped with, and its stamp. */
let stamped = { at: -1, text: "" };

/**
 * pino's isoTime, formatted once a millisecond: under load a process logs several lines in the same
 * one, and formatting each line's date was about 1.5% of a runtime fetch's CPU. The same text as pino's.
 */
function isoTime(): string {
  const at = Date.now();
  if (at !== stamped.at) stamped = { at, text: `,"time":"${new Date(at).toISOString()}"` };
  return stamped.text;
}

export function createLogger(level: Env["LOG_LEVEL"], destination: DestinationStream = stdout()): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: isoTime,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      serializers: { err: errorForLog, error: errorForLog },
    },
    destination,
  );
}

/** A client's own id is kept only when it cannot smuggle anything into a log line. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function requestId(incoming: string | string[] | undefined): string {
  return typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** The path, and the query's names only: `/trpc/auth.me?batch=…&input=…`. */
export function pathForLog(url: string): string {
  const mark = url.indexOf("?");
  if (mark < 0) return url;
  const names = new URLSearchParams(url.slice(mark + 1)).keys();
  return `${url.slice(0, mark)}?${[...new Set(names)].map((name) => `${encodeURIComponent(name)}=…`).join("&")}`;
}

type LoggedRequest = IncomingMessage & { id?: string; originalUrl?: string; log?: Logger };

/**
 * Express middleware: a request id (X-Request-Id) and a logger carrying it (req.log) per request, one
 * line when it is answered: `{ requestId, req: { method, url, userAgent }, res: { statusCode },
 * responseTimeMs }`, at info (warn for a 502, error for a 5xx or a failed answer). pino-http's lines,
 * written without its two child loggers a request (made and serialised on every request, used on
 * few): req.log is made when something logs on it.
 */
export function requestLogging(logger: Logger) {
  const { base, answered } = requestLines(logger);
  return (req: LoggedRequest, res: ServerResponse, next: () => void) => {
    const id = requestId(req.headers["x-request-id"]);
    res.setHeader("X-Request-Id", id);
    req.id = id;
    const started = Date.now();
    let log: Logger | undefined;
    Object.defineProperty(req, "log", {
      configurable: true,
      enumerable: true,
      get: () => (log ??= base.child({ requestId: id })),
      set: (value: Logger) => {
        log = value;
      },
    });
    const done = (error?: unknown) => {
      res.removeListener("close", done);
      res.removeListener("finish", done);
      res.removeListener("error", done);
      answered(id, req, res.statusCode, started, error !== undefined);
    };
    res.on("close", done);
    res.on("finish", done);
    res.on("error", done);
    next();
  };
}

/**
 * The line of an answered request, and the logger of its other lines (req.log's parent): a request
 * answered outside requestLogging (the runtime fetch from memory) is logged with the same line.
 */
export function requestLines(logger: Logger) {
  // Without the redaction pass: every field of a request's lines is chosen here (errorForLog's type,
  // message, stack and code), none of them a secret's field name, and redaction's key search on every
  // request line cost about a tenth of auth.me's throughput.
  const base = logger.child({}, { redact: [] });
  const direct = directRequestLine(base);
  const answered = (id: string, req: LoggedRequest, statusCode: number, started: number, errored = false) => {
    const failed = errored || statusCode >= 500;
    const level = statusCode === 502 ? "warn" : failed ? "error" : "info";
    if (!base.isLevelEnabled(level)) return;
    const line = {
      requestId: id,
      req: { method: req.method, url: pathForLog(req.originalUrl ?? req.url ?? ""), userAgent: req.headers["user-agent"] },
      res: { statusCode },
      responseTimeMs: Date.now() - started,
    };
    // A 5xx's own error is logged where it happened (logRequestFailure); this line needs no invented one.
    const message = failed ? "request failed" : "request completed";
    if (direct) direct(level, line, message);
    else base[level](line, message);
  };
  return { base, answered };
}

type RequestLine = { requestId: string; req: { method?: string; url: string; userAgent?: string }; res: { statusCode: number }; responseTimeMs: number };

/** The fields of a request line, each of which pino would hand to a serializer or stringifier of that name. */
const REQUEST_LINE_FIELDS = ["requestId", "req", "res", "responseTimeMs", "msg"];

/**
 * A request line written as pino writes it (its level's and time's text, the logger's bindings, the
 * fields, the message), in one string straight to the logger's stream: pino's generic walk of the
 * fields (a type switch and a lookup of serializers and stringifiers per field) was about a twentieth
 * of the runtime fetch's CPU. Null when the logger has anything that would make pino write other text
 * (formatters of lines, a mixin, hooks, a nested key, a message prefix, a serializer or stringifier of
 * these fields, a stream that wants each line's metadata): pino then writes the line.
 * The request id is one of requestId's (letters, digits, `._-`: the same text under JSON's quoting as
 * under pino's), and the objects go through JSON.stringify, as pino's default stringify does.
 */
function directRequestLine(logger: Logger) {
  const symbols = pino.symbols as unknown as Record<string, symbol>;
  const internal = logger as unknown as Record<symbol, unknown>;
  const at = <T>(name: string) => internal[symbols[name]!] as T;
  const stream = at<DestinationStream & Record<symbol, unknown>>("streamSym");
  const hooks = at<Record<string, unknown> | undefined>("hooksSym");
  const serializers = at<Record<string, unknown>>("serializersSym");
  const stringifiers = at<Record<string | symbol, unknown>>("stringifiersSym");
  const plain =
    !at<{ log?: unknown }>("formattersSym").log &&
    !at("mixinSym") &&
    !hooks?.["streamWrite"] &&
    !hooks?.["logMethod"] &&
    !at("nestedKeySym") &&
    !at("msgPrefixSym") &&
    at("messageKeySym") === "msg" &&
    at("errorKeySym") === "err" &&
    stream[Symbol.for("pino.metadata")] !== true &&
    !stringifiers[symbols["wildcardFirstSym"]!] &&
    REQUEST_LINE_FIELDS.every((field) => !serializers[field] && !stringifiers[field]);
  if (!plain) return null;
  const levels = at<Record<number, string>>("lsCacheSym");
  const time = at<() => string>("timeSym");
  const chindings = at<string>("chindingsSym");
  const end = at<string>("endSym");
  return (level: "info" | "warn" | "error", line: RequestLine, message: string) => {
    stream.write(
      `${levels[logger.levels.values[level]!]}${time()}${chindings},"requestId":${JSON.stringify(line.requestId)},"req":${JSON.stringify(line.req)}` +
        `,"res":${JSON.stringify(line.res)},"responseTimeMs":${line.responseTimeMs},"msg":${JSON.stringify(message)}${end}`,
    );
  };
}

interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  /** The error's code (ECONNREFUSED, P2002): not `code`, which is redacted as a possible 2FA code. */
  errorCode?: string;
  cause?: LoggedError;
}

/**
 * An error as it may be logged: type, message, stack and code. Not its other fields (a tRPC error's
 * input, a Prisma error's meta), and a Prisma error's message without the call it quotes (a
 * validation error's holds the query's arguments, passwords included): only its last line, the reason.
 */
export function errorForLog(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: "(not an Error)" };
  // Prisma's multi-line messages quote the call (its arguments, or source lines); the last line is the reason.
  const quotesArguments = error.name.startsWith("PrismaClient") && error.message.includes("\n");
  const message = quotesArguments ? lastLine(error.message) : error.message;
  const frames = error.stack?.split("\n").filter((line) => line.startsWith("    at ")) ?? [];
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message,
    stack: [`${error.name}: ${message}`, ...frames].join("\n"),
    ...(typeof code === "string" ? { errorCode: code } : {}),
    ...(error.cause !== undefined && depth < 3 ? { cause: errorForLog(error.cause, depth + 1) } : {}),
  };
}

function lastLine(text: string): string {
  return text.trim().split("\n").filter((line) => line.trim()).at(-1)?.trim() ?? "";
}

/**
 * Logs a failure on the request's own logger (so the line carries its request id); outside the
 * request logging middleware (a bare router in a test) on a process-wide fallback.
 */
export function logRequestFailure(req: IncomingMessage, message: string, error: unknown) {
  const log = (req as { log?: Logger }).log ?? fallbackLogger();
  log.error({ err: error }, message);
}

let fallback: Logger | undefined;
function fallbackLogger(): Logger {
  fallback ??= createLogger("error");
  return fallback;
}
