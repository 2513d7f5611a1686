// The runtime API's HTTP conventions: every error answer is `{ error: { code, message, reason?, details? } }`
// with the status its code means (the one error table of @promptly/api, which tRPC reads too). Every
// refusal is a DomainError (a service's, the one decision's, or the door's own: a key, a path, an input
// its schemas refuse, listing every issue), answered here, REST's one adapter; MCP's and the Langfuse
// API's read the same error.
import type { ErrorRequestHandler, Response } from "express";
import { z } from "zod";
import { DOMAIN_ERRORS, DomainError, ERROR_STATUS, allowOrFail, invalidInput, type Decision } from "@promptly/api";
import type { RuntimeError } from "@promptly/shared";
import { logRequestFailure } from "../../logger.ts";

type ErrorCode = RuntimeError["error"]["code"];
type Details = NonNullable<RuntimeError["error"]["details"]>;

/** The one decision, thrown as the domain error on a refusal (every key-authorized route: REST, MCP, Langfuse). */
export const allow = (decision: Decision): void => allowOrFail(decision);

export function sendError(res: Response, code: ErrorCode, message: string, more: { reason?: string; details?: Details } = {}) {
  res.status(ERROR_STATUS[code]).setHeader("Cache-Control", "no-store");
  const error: RuntimeError["error"] = { code, message };
  if (more.reason !== undefined) error.reason = more.reason;
  if (more.details) error.details = more.details;
  res.json({ error } satisfies RuntimeError);
}

/** Parses a request part with a shared schema; every issue becomes one detail of a 400. */
export function parseOr400<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  throw invalidInput(parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message })));
}

/** Body-parser failures keep their words; anything unknown is a 500 that says nothing of our internals. */
export const BODY_ERRORS: Record<string, [ErrorCode, string]> = {
  "entity.parse.failed": ["BAD_REQUEST", "The request body is not valid JSON"],
  "entity.too.large": ["PAYLOAD_TOO_LARGE", "The request body is too large"],
  "entity.too.deep": ["BAD_REQUEST", "The request body is nested too deeply"],
};

export function v1ErrorHandler(): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof DomainError) {
      return sendError(res, DOMAIN_ERRORS[error.code].code, error.message, { reason: error.reason, details: error.details && [...error.details] });
    }
    const body = BODY_ERRORS[(error as { type?: string } | null)?.type ?? ""];
    if (body) return sendError(res, body[0], body[1]);
    logRequestFailure(req, `${req.method} ${req.originalUrl.split("?")[0]} failed`, error);
    sendError(res, "INTERNAL_SERVER_ERROR", "Something went wrong on our side. Please try again.");
  };
}
