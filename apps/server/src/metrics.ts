// Prometheus metrics: every answered request counted and timed by procedure and status, and the
// /metrics endpoint, which exists only with METRICS_TOKEN and answers only to that bearer token.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import { appRouter, metrics, type ApiServices } from "@promptly/api";

const TRPC_PREFIX = "/trpc/";
const knownProcedures = new Set(Object.keys(appRouter._def.procedures));

/**
 * What a request is counted as. tRPC: the procedure's path; a batch counts once for each of its
 * procedures, each with the batch's status and time (what the caller waited for). Names that are
 * not procedures count as "trpc:unknown", so a client cannot create label values at will. Other
 * requests: the Express route pattern that answered (/api/v1/prompts/:name), never the raw URL.
 */
function procedureLabels(req: Request): string[] {
  const url = req.originalUrl;
  if (url.startsWith(TRPC_PREFIX)) {
    const end = url.indexOf("?");
    const paths = url.slice(TRPC_PREFIX.length, end < 0 ? undefined : end).split(",");
    return paths.map((path) => (knownProcedures.has(path) ? path : "trpc:unknown"));
  }
  // A route of a table (/api/v1) names itself by its documented path: its pattern is a regular expression.
  const named = (req.res?.locals as Record<string, unknown> | undefined)?.[ROUTE_NAME];
  if (typeof named === "string") return [named];
  const route = (req as { route?: { path?: unknown } }).route;
  if (route?.path !== undefined) {
    const pattern = route.path instanceof RegExp ? "(spa)" : String(route.path);
    return [`${req.baseUrl}${pattern}`];
  }
  // Answered before any route matched (refused by a guard, not found, a static file): by the area.
  return [UNROUTED_AREAS.find((area) => url.startsWith(area.slice(0, -1))) ?? "(other)"];
}

const UNROUTED_AREAS = ["/api/v1/*", "/api/*", "/avatars/*", "/assets/*"];

/** res.locals' field naming the route that answered, for routes whose pattern is not their name. */
export const ROUTE_NAME = "routeName";

/** Counts and times every request once it is answered (or its connection closes first). */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    let done = false;
    const record = () => {
      if (done) return;
      done = true;
      countRequest(procedureLabels(req), res.statusCode, started);
    };
    res.once("finish", record);
    res.once("close", record);
    next();
  };
}

/** One answered request, under each of its procedures, with its status and time since `started` (process.hrtime.bigint()). */
export function countRequest(procedures: readonly string[], statusCode: number, started: bigint) {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const status = String(statusCode);
  for (const procedure of procedures) {
    metrics.httpRequests.inc({ procedure, status });
    metrics.httpDuration.observe({ procedure, status }, seconds);
  }
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** GET /metrics: 401 without `Authorization: Bearer <token>`; compared in constant time. */
export function metricsEndpoint(services: ApiServices, token: string): RequestHandler {
  const expected = digest(`Bearer ${token}`);
  return async (req: Request, res: Response, next) => {
    const given = digest(req.get("authorization") ?? "");
    if (!timingSafeEqual(given, expected)) {
      res.status(401).setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      res.type("text/plain").send("Unauthorized");
      return;
    }
    try {
      const text = await metrics.renderMetrics(services);
      res.setHeader("Cache-Control", "no-store");
      res.type(metrics.metricsRegistry.contentType).send(text);
    } catch (error) {
      next(error);
    }
  };
}
