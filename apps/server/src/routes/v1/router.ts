// REST /api/v1 for tools (issue 15): HTTP only. A request's `Authorization: Bearer <key>` is resolved
// with authenticateBearer (shared with /trpc); each route parses its input with the shared schemas, calls a service of
// packages/api (which holds the rules), and answers JSON. Prompt names may hold '/', sent plain or
// encoded, so routes match the raw path and decode the name themselves.
import { createHash } from "node:crypto";
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import {
  authenticateBearer, compileRuntimePrompt, createRuntimePrompt, createRuntimeVersion, listRuntimePrompts, runtimeSelector, serveRuntimePrompt,
  setRuntimeLabel, type ApiServices,
} from "@promptly/api";
import {
  RUNTIME_MSG, promptLabelSchema, runtimeCompileInput, runtimeCreatePromptInput, runtimeCreateVersionInput, runtimeGetQuery, runtimeListQuery,
  runtimeSetLabelInput, type ApiKeyScope,
} from "@promptly/shared";
import { refuseDeepJson } from "../../security.ts";
import { HttpError, parseOr400, sendError, v1ErrorHandler } from "./http.ts";
import { openApiDocument } from "./openapi.ts";

interface V1Options {
  /** Requests a minute per key; null: no limit (RATE_LIMITS=off). */
  ratePerMinute: number | null;
}

interface KeyLocals {
  apiKey: { id: string; teamId: string; labels: string[] | null; scopes: ApiKeyScope[] };
}

/** The key `authenticate` put on the response. */
const keyOf = (res: Response) => (res.locals as KeyLocals).apiKey;

/** Who is asking: the key of the Authorization header, or 401 saying what is wrong with it; then the key's rate limit. */
function authenticate(services: ApiServices, options: V1Options): RequestHandler {
  return async (req, res, next) => {
    const result = await authenticateBearer(services, req.get("authorization"), { ratePerMinute: options.ratePerMinute, ip: req.ip ?? req.socket.remoteAddress ?? "unknown" });
    if (!result.ok) {
      if (result.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(result.retryAfterSeconds));
      throw new HttpError(result.code, result.message);
    }
    (res.locals as KeyLocals).apiKey = result.apiKey;
    next();
  };
}

const requireScope = (scope: ApiKeyScope): RequestHandler => (_req, res, next) => {
  if (!keyOf(res).scopes.includes(scope)) throw new HttpError("FORBIDDEN", RUNTIME_MSG.readOnlyKey);
  next();
};

/** The prompt name (and label) of a raw path: `/prompts/a%2Fb/compile` and `/prompts/a/b/compile` both name `a/b`. */
function pathParts(req: Request, pattern: RegExp): string[] {
  const match = pattern.exec(req.path);
  if (!match) throw new HttpError("NOT_FOUND", RUNTIME_MSG.notFound);
  try {
    return match.slice(1).map((part) => decodeURIComponent(part!));
  } catch {
    throw new HttpError("BAD_REQUEST", "The path is not valid percent-encoding");
  }
}

const GET_PATH = /^\/prompts\/(.+?)\/?$/;
const COMPILE_PATH = /^\/prompts\/(.+)\/compile\/?$/;
const VERSIONS_PATH = /^\/prompts\/(.+)\/versions\/?$/;
const LABEL_PATH = /^\/prompts\/(.+)\/labels\/([^/]+)\/?$/;

/** A strong validator of exactly these bytes. */
const etagOf = (body: string) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;

/** If-None-Match as RFC 9110 compares it: any of the listed tags, weakly, or `*`. */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const value = tag.trim();
    return value === "*" || value.replace(/^W\//, "") === etag;
  });
}

export function v1Router(services: ApiServices, options: V1Options): Router {
  const router = Router();
  const document = openApiDocument();

  // Every process hears of a write from the database's notification; the writer's own next read must not wait for it.
  const changed = (res: Response) => services.runtime.invalidate(`team:${keyOf(res).teamId}`);

  router.get("/openapi.json", (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=300");
    res.json(document);
  });

  // The key first: a body is read only for a caller we know.
  router.use(authenticate(services, options), express.json({ limit: "1mb", verify: refuseDeepJson }));

  router.get("/prompts", async (req, res) => {
    const query = parseOr400(runtimeListQuery, req.query);
    res.json(await listRuntimePrompts(services.db, keyOf(res), query));
  });

  router.post("/prompts", requireScope("write"), async (req, res) => {
    const input = parseOr400(runtimeCreatePromptInput, req.body);
    const created = await createRuntimePrompt(services.db, keyOf(res), input, services.now(), req.ip ?? null);
    changed(res);
    res.status(201).json(created);
  });

  router.post(COMPILE_PATH, async (req, res) => {
    const [name] = pathParts(req, COMPILE_PATH);
    const input = parseOr400(runtimeCompileInput, req.body);
    const prompt = await serveRuntimePrompt(services, keyOf(res), name!, runtimeSelector(keyOf(res), input));
    const result = compileRuntimePrompt(prompt, input.variables);
    if (!result.ok) {
      const details = result.problems.map((problem) => ({ variable: problem.variable, message: problem.message }));
      return sendError(res, "BAD_REQUEST", result.message, { details });
    }
    const { ok: _ok, ...compiled } = result;
    res.json(compiled);
  });

  router.post(VERSIONS_PATH, requireScope("write"), async (req, res) => {
    const [name] = pathParts(req, VERSIONS_PATH);
    const input = parseOr400(runtimeCreateVersionInput, req.body);
    const created = await createRuntimeVersion(services.db, keyOf(res), name!, input, services.now(), req.ip ?? null);
    changed(res);
    res.status(201).json(created);
  });

  router.put(LABEL_PATH, requireScope("write"), async (req, res) => {
    const [name, rawLabel] = pathParts(req, LABEL_PATH);
    const label = parseOr400(promptLabelSchema, rawLabel);
    const { version } = parseOr400(runtimeSetLabelInput, req.body);
    const moved = await setRuntimeLabel(services.db, keyOf(res), name!, label, version, services.now(), req.ip ?? null);
    changed(res);
    res.json(moved);
  });

  router.get(GET_PATH, async (req, res) => {
    const [name] = pathParts(req, GET_PATH);
    const query = parseOr400(runtimeGetQuery, req.query);
    const prompt = await serveRuntimePrompt(services, keyOf(res), name!, runtimeSelector(keyOf(res), query));
    const body = JSON.stringify(prompt);
    const etag = etagOf(body);
    // The key is part of the request, so only the tool's own cache may keep it, and must ask again each time.
    res.setHeader("Cache-Control", "private, no-cache");
    res.setHeader("ETag", etag);
    if (matchesIfNoneMatch(req.get("if-none-match"), etag)) return res.status(304).end();
    res.type("application/json").send(body);
  });

  router.use((_req: Request, _res: Response, next: NextFunction) => next(new HttpError("NOT_FOUND", RUNTIME_MSG.notFound)));
  router.use(v1ErrorHandler());
  return router;
}
