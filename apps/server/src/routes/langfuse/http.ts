// The Langfuse-compatible API's error answers: Langfuse's `{ message, error }` body, `error` naming
// Langfuse's error class for the status (the SDKs and Langfuse's own tests read it), the status from
// the one error table of @promptly/api, and a service's reason kept beside them: this API's one adapter
// of the DomainError every refusal is. A request its schemas refuse is answered as Langfuse answers a
// zod refusal: "Invalid request data", each problem in `error`.
import type { ErrorRequestHandler, Response } from "express";
import type { z } from "zod";
import { DOMAIN_ERRORS, DomainError, ERROR_STATUS } from "@promptly/api";
import { LANGFUSE_MSG, type RuntimeError } from "@promptly/shared";
import { logRequestFailure } from "../../logger.ts";
import { BODY_ERRORS } from "../v1/http.ts";

type ErrorCode = RuntimeError["error"]["code"];

/** Langfuse's error class for each status, as its answers name it. */
const LANGFUSE_ERRORS: Record<ErrorCode, string> = {
  BAD_REQUEST: "InvalidRequestError",
  UNAUTHORIZED: "UnauthorizedError",
  FORBIDDEN: "ForbiddenError",
  NOT_FOUND: "LangfuseNotFoundError",
  CONFLICT: "LangfuseConflictError",
  PRECONDITION_FAILED: "PreconditionFailedError",
  PAYLOAD_TOO_LARGE: "PayloadTooLargeError",
  TOO_MANY_REQUESTS: "TooManyRequestsError",
  INTERNAL_SERVER_ERROR: "InternalServerError",
  BAD_GATEWAY: "BadGatewayError",
  SERVICE_UNAVAILABLE: "ServiceUnavailableError",
};

/** A refusal's body: Langfuse's, with Promptly's reason where the service gave one. */
function send(res: Response, code: ErrorCode, message: string, more: { reason?: string; problems?: { path: string; message: string }[] } = {}) {
  res.status(ERROR_STATUS[code]).setHeader("Cache-Control", "no-store");
  res.json({ message, error: more.problems ?? LANGFUSE_ERRORS[code], ...(more.reason ? { reason: more.reason } : {}) });
}

/** Parses a request part as Langfuse's handlers do: a refusal is "Invalid request data" with every problem. */
export function parseOrInvalid<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
  throw new DomainError("INVALID", LANGFUSE_MSG.invalidRequest, undefined, details);
}

export function langfuseErrorHandler(): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof DomainError) {
      const problems = error.details?.map((detail) => ({ path: detail.path ?? detail.variable ?? "", message: detail.message }));
      return send(res, DOMAIN_ERRORS[error.code].code, error.message, { reason: error.reason, problems });
    }
    const body = BODY_ERRORS[(error as { type?: string } | null)?.type ?? ""];
    if (body) return send(res, body[0], body[1]);
    logRequestFailure(req, `${req.method} ${req.originalUrl.split("?")[0]} failed`, error);
    send(res, "INTERNAL_SERVER_ERROR", "Something went wrong on our side. Please try again.");
  };
}
