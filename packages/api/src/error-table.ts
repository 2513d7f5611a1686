// What a service's DomainError means on every transport (tRPC, the REST runtime API, MCP, the
// Langfuse API, and any adapter to come): one error code, one HTTP status (one JSON-RPC code for MCP),
// and its reason kept. Every refusal is a DomainError, whoever throws it (a service, the one decision,
// a door's own check of a key or an input); each transport has one adapter that reads this table, and
// none keeps a copy of it.
import { ERROR_STATUS, type RuntimeError } from "@promptly/shared";
import type { DomainErrorCode } from "./errors.ts";

/** The codes an error answer carries: tRPC's names, which the REST body's `error.code` shares. */
type ErrorCode = RuntimeError["error"]["code"];

/** The HTTP status of each code, the one tRPC answers for it (error-table.test.ts holds them together): kept in @promptly/shared, which the client reads too. */
export { ERROR_STATUS };

const answer = (code: ErrorCode) => ({ code, status: ERROR_STATUS[code] });

/**
 * The JSON-RPC error code of each code, for a failure MCP answers as a JSON-RPC error (prompts/list,
 * prompts/get): the input's fault is invalid params, ours an internal error, any other refusal an invalid request.
 */
export const JSON_RPC_ERROR: Record<ErrorCode, number> = {
  BAD_REQUEST: -32602,
  NOT_FOUND: -32602,
  UNAUTHORIZED: -32600,
  FORBIDDEN: -32600,
  CONFLICT: -32600,
  PRECONDITION_FAILED: -32600,
  PAYLOAD_TOO_LARGE: -32600,
  TOO_MANY_REQUESTS: -32600,
  BAD_GATEWAY: -32600,
  SERVICE_UNAVAILABLE: -32600,
  INTERNAL_SERVER_ERROR: -32603,
};

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
