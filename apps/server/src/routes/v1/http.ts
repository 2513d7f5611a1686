// The runtime API's HTTP conventions: every error answer is `{ error: { code, message, details? } }`
// with the status its code means; a service's DomainError and a zod refusal are mapped here, once.
import type { ErrorRequestHandler, Response } from "express";
import { z } from "zod";
import { DomainError } from "@promptly/api";
import type { RuntimeError } from "@promptly/shared";
import { logRequestFailure } from "../../logger.ts";

type ErrorCode = RuntimeError["error"]["code"];
type Details = NonNullable<RuntimeError["error"]["details"]>;

const STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
};

/** A refusal the route decides itself (a missing key, a scope), answered as JSON with its status. */
export class HttpError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Details,
  ) {
    super(message);
  }
}

/**
 * The REST vocabulary is smaller than tRPC's (packages/api/src/trpc.ts): PRECONDITION and UNAVAILABLE come
 * only from account and avatar services, which no /api/v1 route calls, so they fold into CONFLICT and 500
 * here rather than widening the documented error codes.
 */
const DOMAIN_CODES: Record<DomainError["code"], ErrorCode> = {
  UNAUTHENTICATED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  ALREADY_EXISTS: "CONFLICT",
  STATE_CONFLICT: "CONFLICT",
  INVALID: "BAD_REQUEST",
  PRECONDITION: "CONFLICT",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
  UNAVAILABLE: "INTERNAL_SERVER_ERROR",
};

export function sendError(res: Response, code: ErrorCode, message: string, details?: Details) {
  res.status(STATUS[code]).setHeader("Cache-Control", "no-store");
  res.json({ error: details ? { code, message, details } : { code, message } } satisfies RuntimeError);
}

/** Parses a request part with a shared schema; every issue becomes one detail of a 400. */
export function parseOr400<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
  throw new HttpError("BAD_REQUEST", `Invalid request: ${details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join("; ")}`, details);
}

/** Body-parser failures keep their words; anything unknown is a 500 that says nothing of our internals. */
const BODY_ERRORS: Record<string, [ErrorCode, string]> = {
  "entity.parse.failed": ["BAD_REQUEST", "The request body is not valid JSON"],
  "entity.too.large": ["PAYLOAD_TOO_LARGE", "The request body is too large"],
  "entity.too.deep": ["BAD_REQUEST", "The request body is nested too deeply"],
};

export function v1ErrorHandler(): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof HttpError) return sendError(res, error.code, error.message, error.details);
    if (error instanceof DomainError) return sendError(res, DOMAIN_CODES[error.code], error.message);
    const body = BODY_ERRORS[(error as { type?: string } | null)?.type ?? ""];
    if (body) return sendError(res, body[0], body[1]);
    logRequestFailure(req, `${req.method} ${req.originalUrl.split("?")[0]} failed`, error);
    sendError(res, "INTERNAL_SERVER_ERROR", "Something went wrong on our side. Please try again.");
  };
}
