// The Express host: tRPC at /trpc, health at /api/health, the runtime REST API at /api/v1, MCP at /api/mcp, the
// Langfuse-compatible prompts API at /api/public, and the built web app with SPA fallback.
import { existsSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import compression from "compression";
import express, { type Express, type RequestHandler } from "express";
import * as trpcExpress from "@trpc/server/adapters/express";
import type { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { appRouter, checkHealth, createContext, directAnswers, serializeToJsonText, type ApiServices } from "@promptly/api";
import {
  allowedHostNames, crossSiteGuard, errorHandler, eventStreamsOnly, hostGuard, noStore, refuseDeepJson, refuseDeepQueryInput, refuseMalformedPath, securityHeaderList, securityHeaders,
} from "./security.ts";
import { avatarRoute } from "./routes/avatars.ts";
import { v1Router } from "./routes/v1/router.ts";
import { mcpRouter } from "./routes/mcp/router.ts";
import { langfuseRouter } from "./routes/langfuse/router.ts";
import { apiDocsRoute } from "./routes/api-docs.ts";
import { delayAsRequested, isTestFault, requestedFaults } from "./test-faults.ts";
import { createLogger, logRequestFailure, requestLines, requestLogging, type Logger } from "./logger.ts";
import { fetchFromMemory } from "./fast-paths/fetch-from-memory.ts";
import { httpMetrics, metricsEndpoint } from "./metrics.ts";
import { trpcQueryFastPath } from "./fast-paths/trpc-fast-path.ts";
import { precompressedAssets } from "./precompressed.ts";
import { fastPathAnswers } from "./fast-paths/answers.ts";
import { fastPathsOn, type TrustProxy } from "./env.ts";

const HEALTH_CACHE_MS = 1000;
/** The paths that answer "starting" until the start has finished. */
const READINESS_PATH = /^\/api\/health(\/ready)?\/?$/i;
/** Logged (once) when readiness first answers "starting". */
export const READINESS_STARTING = 'Readiness answers 503 "starting" until the start has finished';
/** Answers smaller than this (bytes) are sent uncompressed. */
const COMPRESSION_THRESHOLD = 1024;

type ExpressHandle = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

export interface AppOptions {
  services: ApiServices;
  /** Folder of the built web app; absent in API-only tests. */
  webDist?: string;
  /** Development: Vite's middleware serves the web app instead of webDist. */
  viteMiddleware?: RequestHandler;
  /** Express's "trust proxy": how many proxies are in front, or which addresses are proxies. */
  trustProxy?: TrustProxy;
  /** Host names the app also answers to besides APP_URL's (ALLOWED_HOSTS). */
  allowedHosts?: readonly string[];
  /** TEST_FAULTS: honour the promptly-test-faults and promptly-test-delay cookies (see test-faults.ts). */
  testFaults?: boolean;
  /** API_RATE_LIMIT_PER_MINUTE: requests a minute one API key may make to /api/v1 and /trpc together (when rate limits are on). */
  apiRateLimitPerMinute?: number;
  /** The process's logger (LOG_LEVEL); without one, only errors are logged, to stdout. */
  logger?: Logger;
  /** METRICS_TOKEN: serves Prometheus metrics at /metrics to this bearer token; without it /metrics is not found. */
  metricsToken?: string;
  /** True while the process is shutting down: /api/health/ready answers 503 so load balancers stop sending requests. */
  isDraining?: () => boolean;
  /**
   * True until the process's start has finished (its workers started, the run path warmed): /api/health
   * and /api/health/ready answer 503 "starting", so nothing is sent to it before then.
   */
  isStarting?: () => boolean;
  /**
   * False: every tRPC request goes through the adapter (its test compares the fast path's answers with
   * the adapter's). Default: FAST_PATHS (on unless set off).
   */
  trpcFastPath?: boolean;
  /**
   * False: every runtime fetch goes through the stack (its test compares the answers from memory with
   * the stack's). Default: FAST_PATHS (on unless set off).
   */
  fetchFromMemory?: boolean;
}

/** Whether a tRPC path (`/a.b`, a batch `/a.b,c.d`, percent-encoded or not) names a subscription. */
function namesSubscription(path: string): boolean {
  const procedures = appRouter._def.procedures as Record<string, { _def?: { type?: string } } | undefined>;
  let names: string;
  try {
    names = decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
  } catch {
    return false; // refused as malformed before routing
  }
  return names.split(",").some((name) => procedures[name]?._def?.type === "subscription");
}

export function createApp({
  services, webDist, viteMiddleware, trustProxy, allowedHosts, testFaults = false, apiRateLimitPerMinute = 600,
  logger = createLogger("error"), metricsToken, isDraining = () => false, isStarting = () => false, trpcFastPath = fastPathsOn(), fetchFromMemory: fromMemory = fastPathsOn(),
}: AppOptions): Express {
  const app = express();
  // Express's own behaviour follows its "env" setting, not our config: never development by accident.
  app.set("env", services.config.production ? "production" : "development");
  app.disable("x-powered-by");
  if (trustProxy !== undefined && trustProxy !== false) app.set("trust proxy", trustProxy);
  const hosts = allowedHostNames(services.config.appUrl, allowedHosts);
  const securityHeaderOptions = { csp: !viteMiddleware };
  // One limit a key, whether it calls /api/v1, /trpc, MCP or the Langfuse API.
  const apiKeyRatePerMinute = services.config.rateLimits ? apiRateLimitPerMinute : null;
  // The runtime fetch of a key and a version this process holds: answered before Express handles the
  // request, as the stack would answer it (the stack takes any request it cannot answer at once, and
  // every other). Express calls its app's `handle` with every request; this one asks the fetch first.
  if (fromMemory && !testFaults) {
    const answered = fetchFromMemory({
      services, ratePerMinute: apiKeyRatePerMinute, allowedHosts: hosts, securityHeaders: securityHeaderList(securityHeaderOptions),
      log: requestLines(logger).answered, metrics: Boolean(metricsToken), compressionThreshold: COMPRESSION_THRESHOLD,
      express: { parseQuery: app.get("query parser fn"), trustProxy: app.get("trust proxy fn") },
    });
    const handled = app as unknown as { handle: ExpressHandle };
    const expressHandle = handled.handle.bind(app);
    handled.handle = (req, res, next) => {
      if (answered(req, res)) fastPathAnswers.runtimeFetch++;
      else expressHandle(req, res, next);
    };
  }
  // First, so every answer carries its request id and every request is logged and counted. Except a
  // readiness probe answered "starting": no failure, said once at info (below), not once per probe as an error.
  const logRequest = requestLogging(logger);
  app.use((req, res, next) => (isStarting() && READINESS_PATH.test(req.path) ? next() : logRequest(req, res, next)));
  if (metricsToken) {
    app.use(httpMetrics());
    // Before the host check: Prometheus scrapes by address, and the token is what guards this.
    app.get("/metrics", metricsEndpoint(services, metricsToken));
  } else {
    app.get("/metrics", (_req, res) => void res.status(404).type("text/plain").send("Not found"));
  }
  app.use(securityHeaders(securityHeaderOptions));
  app.use(hostGuard(hosts));
  app.use(refuseMalformedPath);
  if (testFaults) app.use(delayAsRequested);
  // JSON answers and the app's scripts shrink several times over gzip (1,000 organizations: about
  // 200 kB raw); images and small answers (under 1 kB) are sent as they are.
  // A client that takes no encoding (an SDK, a script, a load balancer) gets every answer as it is, so
  // the answer is not wrapped for it at all: the wrapping alone was a twentieth of a small query's garbage.
  const compress = compression({ threshold: COMPRESSION_THRESHOLD });
  app.use((req, res, next) => (req.headers["accept-encoding"] ? compress(req, res, next) : next()));

  app.use(["/api", "/trpc"], noStore);

  // tRPC first among the routes (most requests are tRPC's): a request passes every layer before its own.
  // `info` is the adapter's (a batch's calls); the fast path answers one call.
  const createTrpcContext = ({ req, res, info }: { req: express.Request; res: express.Response; info?: { calls: readonly unknown[] } }) =>
    createContext(services, {
      ip: req.ip ?? req.socket.remoteAddress ?? "unknown",
      userAgent: req.get("user-agent") ?? null,
      cookieHeader: req.get("cookie") ?? null,
      authorization: req.get("authorization") ?? null,
      calls: info?.calls.length ?? 1,
      secure: req.secure,
      setCookie: (cookie) => res.append("Set-Cookie", cookie),
      failing: testFaults ? requestedFaults(req.get("cookie")) : undefined,
    }, { apiKeyRatePerMinute });
  const onTrpcError = ({ error, path, req }: { error: TRPCError; path?: string; req: IncomingMessage }) => {
    if (isTestFault(error)) return;
    // Every 5xx: its answer says only that something went wrong, so the details must be here (the
    // error alone: its cause's message and stack, never the procedure's input).
    if (getHTTPStatusCodeFromError(error) >= 500) logRequestFailure(req, `tRPC ${path ?? "?"} failed`, error.cause ?? error);
  };
  app.use(
    "/trpc",
    crossSiteGuard(new URL(services.config.appUrl).origin),
    eventStreamsOnly(namesSubscription),
    refuseDeepQueryInput,
    // Single queries (most requests) skip the adapter's fetch conversion, with the adapter's answers.
    trpcFastPath ? trpcQueryFastPath({ router: appRouter, createContext: createTrpcContext, serializeToJsonText, directAnswers, onError: onTrpcError }) : [],
    express.json({ limit: "4mb", verify: refuseDeepJson }),
    trpcExpress.createExpressMiddleware({ router: appRouter, maxBatchSize: 20, createContext: createTrpcContext, onError: onTrpcError }),
  );

  // Probes (a query, an S3 call, an SMTP handshake) are shared by requests within a second, so a
  // load balancer or a burst of checks cannot turn the health endpoint into load on its dependencies.
  let probe: { at: number; report: ReturnType<typeof checkHealth> } | null = null;
  const probedHealth = () => {
    if (!probe || Date.now() - probe.at > HEALTH_CACHE_MS) probe = { at: Date.now(), report: checkHealth(services) };
    return probe.report;
  };
  let saidStarting = false;
  const answerStarting = (res: express.Response) => {
    if (!saidStarting) logger.info(READINESS_STARTING);
    saidStarting = true;
    res.status(503).json({ status: "starting" });
  };
  // Liveness: the process answers; nothing else is checked, so a database outage does not get it restarted.
  app.get("/api/health/live", (_req, res) => void res.json({ status: "ok" }));
  // Readiness: whether to send it requests: not while starting or draining, nor while the database, storage or mail is down.
  app.get("/api/health/ready", async (_req, res) => {
    if (isDraining()) return void res.status(503).json({ status: "draining" });
    if (isStarting()) return answerStarting(res);
    const { status, db, storage, mail } = await probedHealth();
    res.status(status === "ok" ? 200 : 503).json({ status, db, storage, mail });
  });
  app.get("/api/health", async (_req, res) => {
    if (isStarting()) return answerStarting(res);
    const report = await probedHealth();
    // Under a host name that is not ours (a load balancer probing by address, or a rebinding page),
    // only whether the parts are up: the outbox figures are for operators.
    const answer = res.locals["foreignHost"] ? { status: report.status, db: report.db, storage: report.storage, mail: report.mail } : report;
    res.status(report.status === "ok" ? 200 : 503).json(answer);
  });

  app.use("/avatars", avatarRoute(services));
  app.use("/api/docs", apiDocsRoute(services));
  app.use("/api/v1", v1Router(services, { ratePerMinute: apiKeyRatePerMinute }));
  // MCP for agents: the same key, limit and services as /api/v1.
  app.use("/api/mcp", mcpRouter(services, { ratePerMinute: apiKeyRatePerMinute }));
  // The Langfuse SDKs' prompts API: the same key (as a Basic pair), limit and services.
  app.use("/api/public", langfuseRouter(services, { ratePerMinute: apiKeyRatePerMinute }));

  // Unknown API paths answer JSON, like every other API answer.
  app.use(["/api", "/avatars"], (_req, res) => {
    res.status(404).json({ error: { message: "Not found", code: "NOT_FOUND" } });
  });

  if (viteMiddleware) {
    app.use(viteMiddleware);
  } else if (webDist && existsSync(webDist)) {
    // Hashed file names: kept a year. Their brotli or gzip copies from the build when the browser takes one.
    app.use("/assets", precompressedAssets(join(webDist, "assets"), { immutable: true, maxAge: "1y" }));
    app.use("/assets", express.static(join(webDist, "assets"), { immutable: true, maxAge: "1y", index: false }));
    // A file the build does not have (a page still open from before a deploy asks for its old chunk):
    // 404, not the app's page, which a browser would fail to run as a script.
    app.use("/assets", (_req, res) => void res.status(404).type("text/plain").setHeader("Cache-Control", "no-store").send("Not found"));
    app.use(express.static(webDist, { index: false, maxAge: "1h" }));
    // SPA fallback: every other GET renders the app, whose router shows the page or 'Oops! Page not found'.
    app.get(/^(?!\/(trpc|api|avatars)\/).*/, (_req, res) => {
      res.setHeader("Cache-Control", "no-cache");
      res.sendFile(join(webDist, "index.html"));
    });
  }
  app.use(errorHandler());
  return app;
}
