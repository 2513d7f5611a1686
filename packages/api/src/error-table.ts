// What a service's DomainError means on every transport (tRPC, the REST runtime API, and any adapter
// to come): one error code, one HTTP status, and its reason kept. Transports read this table; none
// keeps a copy of it.
import type { RuntimeError } from "@promptly/shared";
import type { DomainErrorCode } from "./errors.ts";

/** The codes an error answer carries: tRPC's names, which the REST body's `error.code` shares. */
type ErrorCode = RuntimeError["error"]["code"];

/** The HTTP status of each code, the one tRPC answers for it (error-table.test.ts holds them together). */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
};

const answer = (code: ErrorCode) => ({ code, status: ERROR_STATUS[code] });

/** Each domain code's answer on the wire: each code means one thing. */
export const DOMAIN_ERRORS: Record<DomainErrorCode, { code: ErrorCode; status: number }> = {
  UNAUTHENTICATED: answer("UNAUTHORIZED"),
  FORBIDDEN: answer("FORBIDDEN"),
  NOT_FOUND: answer("NOT_FOUND"),
  ALREADY_EXISTS: answer("CONFLICT"),
  STATE_CONFLICT: answer("CONFLICT"),
  INVALID: answer("BAD_REQUEST"),
  PRECONDITION: answer("PRECONDITION_FAILED"),
  RATE_LIMITED: answer("TOO_MANY_REQUESTS"),
  UNAVAILABLE: answer("SERVICE_UNAVAILABLE"),
};
