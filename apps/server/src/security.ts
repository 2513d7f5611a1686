// HTTP hardening shared by every response: security headers, the Host allowlist, cross-site
// request refusal, no caching of personal answers, bounded JSON, and error answers without internals.
import type { ErrorRequestHandler, NextFunction, Request, Response } from "express";
import { logRequestFailure } from "./logger.ts";
import { MAX_JSON_DEPTH, jsonBeyond } from "@promptly/shared";

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join("; ");

/**
 * `framing: "self"` lets a page frame its own pages (the mail catcher shows each mail's HTML in a
 * frame); no other site may frame them either way.
 */
export function securityHeaders(opts: SecurityHeaderOptions) {
  const headersOf = securityHeaderList(opts);
  return (req: Request, res: Response, next: NextFunction) => {
    const headers = headersOf(req.path, req.secure);
    for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
    next();
  };
}

export interface SecurityHeaderOptions {
  csp: boolean;
  framing?: "none" | "self";
}

/** The security headers of an answer to `path` (over TLS or not), in order, as a flat list of names and values. */
export function securityHeaderList(opts: SecurityHeaderOptions): (path: string, secure: boolean) => readonly string[] {
  const frameAncestors = `frame-ancestors '${opts.framing ?? "none"}'`;
  const csp = opts.csp ? `${CSP}; ${frameAncestors}` : frameAncestors;
  const frameOptions = opts.framing === "self" ? "SAMEORIGIN" : "DENY";
  const list = (referrerPolicy: string, secure: boolean) => [
    "X-Content-Type-Options", "nosniff",
    "X-Frame-Options", frameOptions,
    "Referrer-Policy", referrerPolicy,
    "Cross-Origin-Opener-Policy", "same-origin",
    "Permissions-Policy", "camera=(), microphone=(), geolocation=()",
    "Content-Security-Policy", csp,
    ...(secure ? ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] : []),
  ];
  // Pages such as /auth/reset-password?token=… must never leak their URL to another site.
  const lists = [list("strict-origin-when-cross-origin", false), list("strict-origin-when-cross-origin", true), list("no-referrer", false), list("no-referrer", true)];
  return (path, secure) => lists[(path.startsWith("/auth") ? 2 : 0) + (secure ? 1 : 0)]!;
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** The host name of a Host header value (`example.com:3000` -> `example.com`, `[::1]:80` -> `[::1]`), lower-cased. */
function hostName(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith("[")) return value.slice(0, value.indexOf("]") + 1);
  return value.replace(/:\d*$/, "");
}

/**
 * The host names this app answers to: APP_URL's, plus ALLOWED_HOSTS. When APP_URL is a loopback
 * name, the other loopback names are the same machine and are accepted too (a DNS-rebinding page
 * always arrives under its own, foreign name).
 */
export function allowedHostNames(appUrl: string, extra: readonly string[] = []): Set<string> {
  const own = new URL(appUrl).hostname.toLowerCase();
  const names = new Set([own, ...extra.map(hostName)]);
  if (LOOPBACK_NAMES.has(own)) for (const name of LOOPBACK_NAMES) names.add(name);
  return names;
}

/** Error answer of the host's JSON routes: tRPC's shape under /trpc, a plain `{ error }` elsewhere. */
function sendJsonError(req: Request, res: Response, status: number, message: string) {
  const code = TRPC_CODES[status] ?? (status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST");
  res.status(status).setHeader("Cache-Control", "no-store");
  if (req.originalUrl.startsWith("/trpc")) {
    res.json({ error: { message, code: TRPC_JSON_RPC_CODES[code] ?? -32600, data: { code, httpStatus: status } } });
  } else {
    res.json({ error: { message, code } });
  }
}

const TRPC_CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  500: "INTERNAL_SERVER_ERROR",
};
const TRPC_JSON_RPC_CODES: Record<string, number> = {
  BAD_REQUEST: -32600,
  FORBIDDEN: -32003,
  NOT_FOUND: -32004,
  PAYLOAD_TOO_LARGE: -32013,
  UNSUPPORTED_MEDIA_TYPE: -32015,
  INTERNAL_SERVER_ERROR: -32603,
};

/** Whether a Host header value names one of `allowed` (see allowedHostNames). */
export function isAllowedHost(allowed: ReadonlySet<string>, host: string | undefined): boolean {
  return host !== undefined && allowed.has(hostName(host));
}

/**
 * Refuses a path that is not valid percent-encoding (`/trpc/%ZZ`) before routing: each router and
 * the tRPC adapter decode it their own way, and one that throws would answer 500.
 */
export function refuseMalformedPath(req: Request, res: Response, next: NextFunction) {
  try {
    decodeURIComponent(req.path);
  } catch {
    return sendErrorAnswer(req, res, 400, "The path is not valid percent-encoding");
  }
  next();
}

/** An error answer: JSON under the API prefixes (tRPC's shape under /trpc), plain text for pages. */
function sendErrorAnswer(req: Request, res: Response, status: number, message: string) {
  if (req.originalUrl.startsWith("/trpc") || req.originalUrl.startsWith("/api") || req.originalUrl.startsWith("/avatars")) {
    return sendJsonError(req, res, status, message);
  }
  res.status(status).type("text/plain").setHeader("Cache-Control", "no-store");
  res.send(message);
}

/**
 * Refuses, before any routing, a request whose Host is not one of ours: a web page that rebinds its
 * own name to this machine's address (DNS rebinding) arrives with that foreign name. Health stays
 * reachable for load balancers that probe by address; it reports no personal data.
 */
export function hostGuard(allowed: ReadonlySet<string>) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (isAllowedHost(allowed, req.get("host"))) return next();
    if (req.path === "/api/health" || req.path.startsWith("/api/health/")) {
      res.locals["foreignHost"] = true; // answered with the status alone
      return next();
    }
    res.status(421).type("text/plain").setHeader("Cache-Control", "no-store");
    res.send("This server does not answer to that host name. Set APP_URL or ALLOWED_HOSTS to the names it is reached by.");
  };
}

/**
 * Refuses requests from another site, whatever their method: a link on another page carries the
 * SameSite=Lax session cookie, and a GET may spend money too (playground.run's subscription). A
 * browser marks such a request by Sec-Fetch-Site (anything but same-origin, or none for the user's
 * own address bar) or a foreign Origin; tools that send neither (the typed client, the CLI) pass.
 * Bodies must be JSON (forms cannot send it cross-site without a preflight). The Host header is
 * trusted here only because hostGuard has already checked it against the allowlist.
 */
export function crossSiteGuard(appOrigin: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === "OPTIONS") return next();
    const site = req.get("sec-fetch-site");
    const origin = req.get("origin");
    const foreignOrigin = Boolean(origin) && origin !== appOrigin && origin !== `${req.protocol}://${req.get("host")}`;
    if ((site !== undefined && site !== "same-origin" && site !== "none") || foreignOrigin) {
      return sendJsonError(req, res, 403, "Cross-site requests are not allowed");
    }
    if (req.method === "GET" || req.method === "HEAD") return next();
    const type = req.get("content-type") ?? "";
    if (req.headers["content-length"] !== "0" && !type.toLowerCase().startsWith("application/json")) {
      return sendJsonError(req, res, 415, "Only application/json request bodies are accepted");
    }
    next();
  };
}

/**
 * A stream (a tRPC subscription, named by `isStream` from the path) is served only to a request that
 * asks for server-sent events: a link cannot ask for them, so a page of another site cannot open one
 * even in a browser that sends no Sec-Fetch-Site (an EventSource sends Accept: text/event-stream).
 */
export function eventStreamsOnly(isStream: (path: string) => boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isStream(req.path) || (req.get("accept") ?? "").toLowerCase().includes("text/event-stream")) return next();
    sendJsonError(req, res, 400, "Subscriptions are served as server-sent events only: send Accept: text/event-stream");
  };
}

/** Personal data (auth.me, member lists with emails) must never sit in a shared or browser cache. */
export function noStore(_req: Request, res: Response, next: NextFunction) {
  res.setHeader("Cache-Control", "no-store");
  next();
}

/** True when `text` nests arrays and objects deeper than `max` (strings are skipped, escapes honoured). */
export const jsonDepthExceeds = (text: string | Buffer, max = MAX_JSON_DEPTH): boolean => jsonBeyond(text, max) === "deep";

class TooDeepError extends Error {
  readonly status = 400;
  readonly type = "entity.too.deep";
  readonly expose = true;
}

/** For express.json's `verify`: runs on the raw body before JSON.parse. */
export function refuseDeepJson(_req: unknown, _res: unknown, body: Buffer) {
  if (jsonDepthExceeds(body)) throw new TooDeepError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
}

/** tRPC queries carry their input as JSON in the query string: the same depth bound applies. */
export function refuseDeepQueryInput(req: Request, res: Response, next: NextFunction) {
  // Every value: `?input=<deep>&input=x` arrives as an array.
  const inputs = ([] as unknown[]).concat(req.query["input"] ?? []);
  if (inputs.some((input) => typeof input === "string" && jsonDepthExceeds(input))) {
    return sendJsonError(req, res, 400, `Request input is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  next();
}

/** What a client is told for each body-parser failure: the cause in words, never the parser's stack. */
const BODY_ERRORS: Record<string, { status: number; message: string }> = {
  "entity.parse.failed": { status: 400, message: "The request body is not valid JSON" },
  "entity.too.large": { status: 413, message: "The request body is too large" },
  "entity.too.deep": { status: 400, message: `The request body is nested deeper than ${MAX_JSON_DEPTH} levels` },
  "encoding.unsupported": { status: 415, message: "Unsupported content encoding" },
  "charset.unsupported": { status: 415, message: "Unsupported charset" },
  "request.aborted": { status: 400, message: "The request was aborted" },
  "request.size.invalid": { status: 400, message: "The request body does not match its Content-Length" },
  "entity.verify.failed": { status: 400, message: "The request body was refused" },
};

/**
 * The last handler of the host: every error answer is JSON (plain text for page routes) with no
 * stack, file path or internal address; the details go to the log. 5xx answers say only that
 * something went wrong.
 */
export function errorHandler(): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error); // Express closes the connection
    const e = (error ?? {}) as { type?: string; status?: number; statusCode?: number };
    const known = e.type ? BODY_ERRORS[e.type] : undefined;
    const rawStatus = known?.status ?? e.status ?? e.statusCode ?? 500;
    const status = rawStatus >= 400 && rawStatus < 600 ? rawStatus : 500;
    if (status >= 500) logRequestFailure(req, `${req.method} ${req.originalUrl.split("?")[0]} failed`, error);
    const message = known?.message ?? (status >= 500 ? "Something went wrong on our side. Please try again." : "The request could not be processed");
    sendErrorAnswer(req, res, status, message);
  };
}
