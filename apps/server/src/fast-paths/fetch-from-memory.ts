// The runtime fetch from memory: GET /api/v1/prompts/{name} for a key and a version this process
// already holds is answered here, before Express sees the request, instead of through the host's
// and the router's layers (under load those layers, not the answer, were most of a fetch's cost). It writes what they
// would write: the same status, headers, body, log line and metrics (a test compares both answers).
// Every check is the route's own function, asked without a query or a wait: the key's
// (knownApiKey), the one decision, the table's schemas, the cache's (cachedRuntimePrompt) and the
// key's limit (countKeyNow). When one of them cannot answer at once (a key or a version not kept, a
// refusal of any kind, a limit to reconcile, an answer to compress) nothing has been counted yet and
// the request goes on to the stack, which answers it in full.
import type { IncomingMessage, ServerResponse } from "node:http";
import { authorize, bearerKey, cachedRuntimePrompt, countKeyNow, countRuntimeUse, keyCaller, knownApiKey, runtimeSelector, type ApiServices } from "@promptly/api";
import { UNIT_HEADER, type RuntimeSelector } from "@promptly/shared";
import { requestId, type requestLines } from "../logger.ts";
import { countRequest } from "../metrics.ts";
import { isAllowedHost } from "../security.ts";
import { FETCH_CACHE_CONTROL, V1_OPERATIONS, matchesIfNoneMatch, routePattern, sentAnswer } from "../routes/v1/operations.ts";

export interface FetchFromMemoryOptions {
  services: ApiServices;
  /** Requests a minute per key, as the router counts them; null: no limit. */
  ratePerMinute: number | null;
  /** The host names hostGuard accepts. */
  allowedHosts: ReadonlySet<string>;
  /** The security headers securityHeaders sets (securityHeaderList). */
  securityHeaders(path: string, secure: boolean): readonly string[];
  /** requestLogging's line (requestLines). */
  log: ReturnType<typeof requestLines>["answered"];
  /** Whether requests are counted in the metrics (METRICS_TOKEN). */
  metrics: boolean;
  /** The compression middleware's threshold: a larger answer to a client that takes an encoding is compressed by the stack. */
  compressionThreshold: number;
  /** The app's own reading of a request (its settings). */
  express: ExpressReading;
}

const MOUNT = "/api/v1";
const PREFIX = `${MOUNT}/prompts/`;
const GET_PROMPT = V1_OPERATIONS.find((operation) => operation.id === "getPrompt")!;
const PATTERN = routePattern(GET_PROMPT.path) as RegExp;
const ROUTE = [`${MOUNT}${GET_PROMPT.path}`];

/** What the stack's Express settings make of a request: its query (the "query parser") and whether it came over TLS (the "trust proxy"). */
interface ExpressReading {
  parseQuery(search: string): unknown;
  trustProxy(address: string | undefined, hop: number): boolean;
}

/** Express's req.secure: TLS on the socket, or X-Forwarded-Proto's first value from a trusted proxy. */
function isSecure(req: IncomingMessage, trustProxy: ExpressReading["trustProxy"]): boolean {
  const own = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  if (!trustProxy(req.socket.remoteAddress, 0)) return own === "https";
  const header = String(req.headers["x-forwarded-proto"] || own);
  const comma = header.indexOf(",");
  return (comma < 0 ? header : header.slice(0, comma)).trim() === "https";
}

/** Characters after which Express reads a URL with url.parse rather than by splitting it at '?' (parseurl): the stack takes those. */
const UNUSUAL_URL = /[\t\n\f\r #\u00a0\ufeff]/;

type FetchQuery = { label?: string; version?: number; unit?: string };

/** Query texts whose reading is kept: most fetches send none or one of a few; a client sending ever new ones only refills it. */
const QUERIES_KEPT = 64;

/**
 * The route's reading of a query text (Express's query parser, then the route's schema), kept per
 * text: the schema's parse was about a tenth of a fetch's own work. Null: the route refuses it.
 */
function queryReader(parseQuery: ExpressReading["parseQuery"]) {
  const kept = new Map<string, Readonly<FetchQuery> | null>();
  return (search: string): Readonly<FetchQuery> | null => {
    let query = kept.get(search);
    if (query === undefined) {
      const parsed = GET_PROMPT.query!.safeParse(parseQuery(search) ?? {});
      query = parsed.success ? Object.freeze(parsed.data as FetchQuery) : null;
      if (kept.size >= QUERIES_KEPT) kept.clear();
      kept.set(search, query);
    }
    return query;
  };
}

/** A fetch this process can answer at once, counted; null sends the request on (nothing counted). */
function fetchNow(
  { services, ratePerMinute, allowedHosts, compressionThreshold }: FetchFromMemoryOptions,
  readQuery: ReturnType<typeof queryReader>,
  req: IncomingMessage,
  path: string,
  search: string,
) {
  if (!isAllowedHost(allowedHosts, req.headers.host)) return null;
  const header = req.headers.authorization;
  const rawKey = header ? bearerKey(header) : null;
  const key = rawKey === null ? null : knownApiKey(services.runtime, rawKey, services.now());
  if (!key) return null;
  const caller = keyCaller(key);
  if (!authorize(caller, GET_PROMPT.action).ok) return null;
  const match = PATTERN.exec(path.slice(MOUNT.length));
  if (!match) return null;
  let name: string;
  try {
    name = decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
  const query = readQuery(search);
  if (!query) return null;
  let selector: RuntimeSelector;
  try {
    selector = runtimeSelector(query, req.headers[UNIT_HEADER]);
  } catch {
    // A unit header the route refuses: the stack answers the refusal.
    return null;
  }
  if (!authorize(caller, GET_PROMPT.action, { fetch: selector }).ok) return null;
  const resolved = cachedRuntimePrompt(services.runtime, caller, name, selector);
  if (!resolved) return null;
  const answer = sentAnswer(resolved.prompt);
  const notModified = matchesIfNoneMatch(req.headers["if-none-match"], answer.etag);
  const compressed = !notModified && Boolean(req.headers["accept-encoding"]);
  if (compressed && answer.bytes.length >= compressionThreshold) return null;
  // The last check, and the first thing counted: from here the fetch is answered.
  if (!countKeyNow(services.rateLimits, ratePerMinute, key.id)) return null;
  countRuntimeUse(services, caller, selector, resolved);
  return { answer, notModified, compressed };
}

/**
 * Answers a fetch from memory and says true, or says false (having done nothing) for the stack to
 * answer the request: called with each request before Express is (see createApp).
 */
export function fetchFromMemory(options: FetchFromMemoryOptions) {
  const readQuery = queryReader(options.express.parseQuery);
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url!;
    if (req.method !== "GET" || !url.startsWith(PREFIX) || UNUSUAL_URL.test(url)) return false;
    const started = Date.now();
    const startedAt = options.metrics ? process.hrtime.bigint() : 0n;
    const mark = url.indexOf("?");
    const path = mark < 0 ? url : url.slice(0, mark);
    const fetched = fetchNow(options, readQuery, req, path, mark < 0 ? "" : url.slice(mark + 1));
    if (!fetched) return false;
    const { answer, notModified, compressed } = fetched;
    const id = requestId(req.headers["x-request-id"]);
    // In the order the stack sets them: request id, security headers, Cache-Control, then the route's.
    const security = options.securityHeaders(path, isSecure(req, options.express.trustProxy));
    const headers = ["X-Request-Id", id, ...security, "Cache-Control", FETCH_CACHE_CONTROL, "ETag", answer.etag];
    if (notModified) {
      res.writeHead(304, headers).end();
    } else {
      headers.push("Content-Type", "application/json; charset=utf-8", "Content-Length", String(answer.bytes.length));
      // Under the threshold the compression middleware sends it as it is, and says the answer varies.
      if (compressed) headers.push("Vary", "Accept-Encoding");
      res.writeHead(200, headers).end(answer.bytes);
    }
    options.log(id, req, res.statusCode, started);
    if (options.metrics) countRequest(ROUTE, res.statusCode, startedAt);
    return true;
  };
}
