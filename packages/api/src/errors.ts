// Services throw DomainError; one table maps its code to a TRPCError (see trpc.ts).
export type DomainErrorCode =
  | "UNAUTHORIZED" // no session
  | "FORBIDDEN" // signed in, role too low
  | "NOT_FOUND" // missing, or belongs to another tenant
  | "CONFLICT" // uniqueness
  | "BAD_REQUEST" // invalid input
  | "TOO_MANY_REQUESTS" // rate limit
  | "PRECONDITION_FAILED"; // a state the action needs is missing (e.g. unverified email)

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Machine-readable reason for clients, e.g. "EMAIL_NOT_VERIFIED". */
    readonly reason?: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const fail = (code: DomainErrorCode, message: string, reason?: string): never => {
  throw new DomainError(code, message, reason);
};
