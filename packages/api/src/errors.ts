// Services throw DomainError with a code in the domain's words; one table (error-table.ts) says what
// each code means on every transport. Services never import tRPC.
export type DomainErrorCode =
  | "UNAUTHENTICATED" // no valid session (never a wrong password)
  | "FORBIDDEN" // signed in, may not
  | "NOT_FOUND" // missing, or belongs to another tenant
  | "ALREADY_EXISTS" // uniqueness: a slug, a username, a membership
  | "STATE_CONFLICT" // the current state forbids it: the last admin, two-factor already on
  | "INVALID" // the input is wrong: a wrong password or credentials, a dead link
  | "PRECONDITION" // a state the action needs is missing (an unconfirmed email)
  | "RATE_LIMITED"
  | "UNAVAILABLE"; // a service we depend on (storage) does not answer

/** One problem of a refused input: the field's path or the variable it concerns, and what is wrong. */
export interface ErrorDetail {
  path?: string;
  variable?: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Machine-readable reason for clients, e.g. "EMAIL_NOT_VERIFIED". */
    readonly reason?: string,
    /** Every problem of a refused input (each field, each variable), where the transport lists them. */
    readonly details?: readonly ErrorDetail[],
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** An input a door's schema refuses: each problem one detail, every one of them said in the message. */
export const invalidInput = (details: readonly ErrorDetail[]): DomainError =>
  new DomainError("INVALID", `Invalid request: ${details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join("; ")}`, undefined, details);

export const fail = (code: DomainErrorCode, message: string, reason?: string): never => {
  throw new DomainError(code, message, reason);
};
