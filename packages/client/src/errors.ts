// The typed errors of the prompt client: one class, so a tool needs one `instanceof`. A refusal of the
// server carries its status and its `{ error: { code, message } }`; a failure that never reached an
// answer (network, timeout) has status 0 and a code of its own.
import type { RuntimeError, VariableProblem } from "@promptly/shared";

type ServerCode = RuntimeError["error"]["code"];

/** The server's codes, and ours for a request that got no usable answer. */
export type PromptlyErrorCode = ServerCode | "NETWORK_ERROR" | "TIMEOUT" | "INVALID_RESPONSE";

export class PromptlyApiError extends Error {
  override readonly name = "PromptlyApiError";

  constructor(
    /** The HTTP status (a streamed run's error event: its code's); 0 when no answer came (network error, timeout). */
    readonly status: number,
    readonly code: PromptlyErrorCode,
    message: string,
    /** Every problem of a 400, as the server listed them. */
    readonly details?: RuntimeError["error"]["details"],
    options?: { cause?: unknown; providerStatus?: number | null; detail?: string | null },
  ) {
    super(message, options);
    if (options?.providerStatus !== undefined) this.providerStatus = options.providerStatus;
    if (options?.detail !== undefined) this.detail = options.detail;
  }

  /** A run's 502: the HTTP status the model's provider answered (null: it did not answer). */
  readonly providerStatus?: number | null;
  /** A run's 502: the provider's or the network's own words behind the message (null: none). */
  readonly detail?: string | null;
}

/** `prompt.compile(values)` with values that break the prompt's variable contract: every offending variable is named. */
export class PromptCompileError extends Error {
  override readonly name = "PromptCompileError";

  constructor(
    message: string,
    readonly problems: VariableProblem[],
  ) {
    super(message);
  }
}
