// REST /api/v1 for tools: HTTP only. A request's `Authorization: Bearer <key>` is resolved with
// authenticateBearer (shared with /trpc); every route is registered from the one table of operations
// (operations.ts, which the OpenAPI document is made from too): the one decision (authorize, shared
// with /trpc) is asked for the operation's action before anything is read, the path, query and body
// are parsed with the table's shared schemas, the decision is asked again with what they name (a
// label), and the handler calls a service of packages/api (which holds the rules and asks it too). Prompt names may hold '/', sent plain or encoded, so routes
// with parameters match the raw path and decode the parameters themselves.
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { DomainError, authenticateBearer, authorize, keyCaller, type ApiServices, type BearerRefusal, type KeyCaller } from "@promptly/api";
import { RUNTIME_MSG } from "@promptly/shared";
import { refuseDeepJson } from "../../security.ts";
import { ROUTE_NAME } from "../../metrics.ts";
import { allow, parseOr400, v1ErrorHandler } from "./http.ts";
import { openApiDocument } from "./openapi.ts";
import { V1_OPERATIONS, pathParameters, routePattern, type Operation } from "./operations.ts";

interface V1Options {
  /** Requests a minute per key; null: no limit (RATE_LIMITS=off). */
  ratePerMinute: number | null;
}

/** The caller `authenticate` put on the response: the request's key, as every service is handed it. */
export const callerOf = (res: Response) => (res.locals as { caller: KeyCaller }).caller;

/**
 * Who is asking: the key of the Authorization header, or 401 saying what is wrong with it; then the
 * key's rate limit. MCP's door too, and the Langfuse API's with its key-pair reading (`check`). The
 * key is made the request's caller here, once.
 */
export function authenticate(services: ApiServices, options: V1Options, check: typeof authenticateBearer = authenticateBearer): RequestHandler {
  return async (req, res, next) => {
    const result = await check(services, req.get("authorization"), { ratePerMinute: options.ratePerMinute, ip: req.ip ?? req.socket.remoteAddress ?? "unknown" });
    if (!result.ok) throw keyRefused(res, result);
    (res.locals as { caller: KeyCaller }).caller = keyCaller(result.apiKey);
    next();
  };
}

/** The error answering a refused key: 401, or 429 with its Retry-After. */
export function keyRefused(res: Response, refusal: BearerRefusal): DomainError {
  if (refusal.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(refusal.retryAfterSeconds));
  return new DomainError(refusal.code, refusal.message);
}

/** The path parameters of a raw path: `/prompts/a%2Fb/compile` and `/prompts/a/b/compile` both name `a/b` (the Langfuse API's too). */
export function pathParts(req: Request, path: string, pattern: RegExp): Record<string, string> {
  const match = pattern.exec(req.path);
  if (!match) throw new DomainError("NOT_FOUND", RUNTIME_MSG.notFound);
  try {
    return Object.fromEntries(pathParameters(path).map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
  } catch {
    throw new DomainError("INVALID", "The path is not valid percent-encoding");
  }
}


/** One operation as Express middleware: the decision, then path, query and body by the table's schemas, the decision on what they name, then its handler. */
function route(services: ApiServices, operation: Operation): RequestHandler {
  const pattern = routePattern(operation.path);
  return async (req, res) => {
    res.locals[ROUTE_NAME] = `${req.baseUrl}${operation.path}`;
    const caller = callerOf(res);
    allow(authorize(caller, operation.action));
    const params = typeof pattern === "string" ? {} : pathParts(req, operation.path, pattern);
    for (const [name, schema] of Object.entries(operation.pathSchemas ?? {})) params[name] = parseOr400(schema, params[name]);
    const query = operation.query && parseOr400(operation.query, req.query);
    const body = operation.body && parseOr400(operation.body, req.body);
    if (operation.resource) allow(authorize(caller, operation.action, operation.resource({ params, query, body })));
    await operation.handle({ services, caller, req, res, params, query, body });
  };
}

export function v1Router(services: ApiServices, options: V1Options): Router {
  const router = Router();
  const document = openApiDocument();

  router.get("/openapi.json", (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=300");
    res.json(document);
  });

  // The key first: a body is read only for a caller we know.
  router.use(authenticate(services, options), express.json({ limit: "1mb", verify: refuseDeepJson }));

  for (const operation of V1_OPERATIONS) router[operation.method](routePattern(operation.path), route(services, operation));

  router.use((_req: Request, _res: Response, next: NextFunction) => next(new DomainError("NOT_FOUND", RUNTIME_MSG.notFound)));
  router.use(v1ErrorHandler());
  return router;
}
