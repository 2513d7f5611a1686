// The Langfuse-compatible prompts API at /api/public (issue 30): the official Langfuse SDKs (JS v3 and
// v5, Python) work against Promptly unchanged but for their base URL and keys. The door is the runtime
// API's: the key (HTTP Basic `publicKey:secretKey`, the secret being a Promptly API key, or `Bearer
// <key>`) is checked and counted against its one rate limit by authenticateKeyPair, then every route of
// the one table (operations.ts) asks the one decision for its action, parses its input, asks again with
// what it names, and calls the runtime services. Errors are Langfuse's `{ message, error }` (http.ts).
// Names may hold '/', sent encoded, so routes with parameters match the raw path and decode them here.
import express, { Router, type Request, type RequestHandler } from "express";
import { authenticateKeyPair, authorize, keyCaller, type ApiServices, type AuthenticatedApiKey } from "@promptly/api";
import { RUNTIME_MSG } from "@promptly/shared";
import { refuseDeepJson } from "../../security.ts";
import { HttpError } from "../v1/http.ts";
import { keyOf } from "../v1/router.ts";
import { pathParameters, routePattern } from "../v1/operations.ts";
import { langfuseErrorHandler, parseOrInvalid } from "./http.ts";
import { LANGFUSE_OPERATIONS, allow, type LangfuseOperation } from "./operations.ts";

/** Who is asking: the key pair of the Authorization header, or 401 saying what is wrong with it; then the key's rate limit (/api/v1's too). */
function authenticate(services: ApiServices, options: { ratePerMinute: number | null }): RequestHandler {
  return async (req, res, next) => {
    const result = await authenticateKeyPair(services, req.get("authorization"), { ratePerMinute: options.ratePerMinute, ip: req.ip ?? req.socket.remoteAddress ?? "unknown" });
    if (!result.ok) {
      if (result.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(result.retryAfterSeconds));
      throw new HttpError(result.code, result.message);
    }
    (res.locals as { apiKey: AuthenticatedApiKey }).apiKey = result.apiKey;
    next();
  };
}

/** The path parameters of a raw path: `/v2/prompts/a%2Fb` names `a/b`. */
function pathParts(req: Request, path: string, pattern: RegExp): Record<string, string> {
  const match = pattern.exec(req.path)!;
  try {
    return Object.fromEntries(pathParameters(path).map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
  } catch {
    throw new HttpError("BAD_REQUEST", "The path is not valid percent-encoding");
  }
}

/** One operation as Express middleware: the decision, the input by the table's schemas, the decision on what it names, then its handler. */
function route(services: ApiServices, operation: LangfuseOperation): RequestHandler {
  const pattern = routePattern(operation.path);
  return async (req, res) => {
    const key = keyOf(res);
    const caller = keyCaller(key);
    allow(authorize(caller, operation.action));
    const params = typeof pattern === "string" ? {} : pathParts(req, operation.path, pattern);
    const query = operation.query && parseOrInvalid(operation.query, req.query);
    const body = operation.body && parseOrInvalid(operation.body, req.body);
    if (operation.resource) allow(authorize(caller, operation.action, operation.resource({ query, body })));
    await operation.handle({ services, key, req, res, params, query, body });
  };
}

export function langfuseRouter(services: ApiServices, options: { ratePerMinute: number | null }): Router {
  const router = Router();
  // The key first: a body is read only for a caller we know.
  router.use(authenticate(services, options), express.json({ limit: "1mb", verify: refuseDeepJson }));
  for (const operation of LANGFUSE_OPERATIONS) router[operation.method](routePattern(operation.path), route(services, operation));
  router.use(() => {
    throw new HttpError("NOT_FOUND", RUNTIME_MSG.notFound);
  });
  router.use(langfuseErrorHandler());
  return router;
}
