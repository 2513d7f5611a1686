// The Langfuse-compatible prompts API at /api/public: the official Langfuse SDKs (JS v3 and
// v5, Python) work against Promptly unchanged but for their base URL and keys. The door is the runtime
// API's: the key (HTTP Basic `publicKey:secretKey`, the secret being a Promptly API key, or `Bearer
// <key>`) is checked and counted against its one rate limit by authenticateKeyPair, then every route of
// the one table (operations.ts) asks the one decision for its action, parses its input, asks again with
// what it names, and calls the runtime services. Errors are Langfuse's `{ message, error }` (http.ts).
// Names may hold '/', sent encoded, so routes with parameters match the raw path and decode them here.
import express, { Router, type RequestHandler } from "express";
import { DomainError, authenticateKeyPair, authorize, type ApiServices } from "@promptly/api";
import { LANGFUSE_MSG, RUNTIME_MSG } from "@promptly/shared";
import { refuseDeepJson } from "../../security.ts";
import { allow } from "../v1/http.ts";
import { authenticate, callerOf, pathParts } from "../v1/router.ts";
import { routePattern } from "../v1/operations.ts";
import { langfuseErrorHandler, parseOrInvalid } from "./http.ts";
import { LANGFUSE_OPERATIONS, type LangfuseOperation } from "./operations.ts";

/** One operation as Express middleware: the decision, the input by the table's schemas, the decision on what it names, then its handler. */
function route(services: ApiServices, operation: LangfuseOperation): RequestHandler {
  const pattern = routePattern(operation.path);
  return async (req, res) => {
    const caller = callerOf(res);
    allow(authorize(caller, operation.action));
    const params = typeof pattern === "string" ? {} : pathParts(req, operation.path, pattern);
    const query = operation.query && parseOrInvalid(operation.query, req.query);
    const body = operation.body && parseOrInvalid(operation.body, req.body);
    if (operation.resource) allow(authorize(caller, operation.action, operation.resource({ query, body })));
    await operation.handle({ services, caller, req, res, params, query, body });
  };
}

/** The decision on the operation's action alone, as `route` asks it first: for a route whose body is read before it. */
function allowedAction(operation: LangfuseOperation): RequestHandler {
  return (_req, res, next) => {
    allow(authorize(callerOf(res), operation.action));
    next();
  };
}

/**
 * A path of the table asked with a method none of its routes take: 405 with the methods they take in
 * `Allow`, before the key is checked, as Langfuse answers (its SDKs' auth check reads GET /projects).
 */
function refuseOtherMethods(): RequestHandler {
  const routes = LANGFUSE_OPERATIONS.map((operation) => ({ method: operation.method.toUpperCase(), pattern: routePattern(operation.path) }));
  return (req, res, next) => {
    const path = req.path.replace(/(.)\/$/, "$1");
    const allowed = new Set(
      routes.filter(({ pattern }) => (typeof pattern === "string" ? path.toLowerCase() === pattern.toLowerCase() : pattern.test(req.path))).map(({ method }) => method),
    );
    if (allowed.has("GET")) allowed.add("HEAD");
    if (!allowed.size || allowed.has(req.method)) return next();
    res.status(405).setHeader("Allow", [...allowed].join(", "));
    res.setHeader("Cache-Control", "no-store");
    res.json({ message: LANGFUSE_MSG.methodNotAllowed, error: "MethodNotAllowedError" });
  };
}

export function langfuseRouter(services: ApiServices, options: { ratePerMinute: number | null }): Router {
  const router = Router();
  router.use(refuseOtherMethods());
  // The key first: a body is read only for a caller we know.
  router.use(authenticate(services, options, authenticateKeyPair));
  // Bodies read as bytes (OTLP's protobuf, large batches) before JSON's parser, which then leaves them be;
  // the key's action first, so a key that may not send one is refused before its body is read (or inflated).
  for (const operation of LANGFUSE_OPERATIONS.filter((entry) => entry.rawBody)) {
    router[operation.method](routePattern(operation.path), allowedAction(operation), express.raw({ type: () => true, limit: operation.rawBody!.limit }), route(services, operation));
  }
  router.use(express.json({ limit: "1mb", verify: refuseDeepJson }));
  for (const operation of LANGFUSE_OPERATIONS.filter((entry) => !entry.rawBody)) router[operation.method](routePattern(operation.path), route(services, operation));
  router.use(() => {
    throw new DomainError("NOT_FOUND", RUNTIME_MSG.notFound);
  });
  router.use(langfuseErrorHandler());
  return router;
}
