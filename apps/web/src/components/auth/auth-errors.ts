// What an auth screen shows for a failed call: the service's message for an answer (4xx), a fallback
// for anything unexpected (network, 5xx).
import { TRPCClientError } from "@trpc/client";
import { TEAM_MSG } from "@promptly/shared";

const UNEXPECTED_ERROR = TEAM_MSG.unexpectedError;

export interface AuthFailure {
  message: string;
  /** True for an answer of the service (bad input, wrong password...), false for an outage. */
  expected: boolean;
  /** DomainError reason, e.g. "EMAIL_NOT_VERIFIED". */
  reason: string | null;
}

export function describeFailure(error: unknown): AuthFailure {
  if (error instanceof TRPCClientError) {
    const data = error.data as { httpStatus?: number; reason?: string | null } | undefined;
    const status = data?.httpStatus ?? 0;
    const expected = status >= 400 && status < 500;
    return { message: expected && error.message ? error.message : UNEXPECTED_ERROR, expected, reason: data?.reason ?? null };
  }
  return { message: UNEXPECTED_ERROR, expected: false, reason: null };
}
