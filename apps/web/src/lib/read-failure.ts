// How the app's reads fail and retry. A server failure or an unreachable server is retried a few times
// with growing waits; a refusal (4xx: no permission, not found, invalid) is an answer and is never
// retried. A read that failed is told at once, while the retries run, never as an empty list.
import { QUERY_RETRIES, QUERY_RETRY_DELAY_MAX_MS } from "@promptly/shared";

interface FailedCall {
  data?: { httpStatus?: number } | null;
  meta?: { response?: { status?: number } } | null;
}

/**
 * The HTTP status of a failed call: the one tRPC put on the call's error, else the answer's own (a
 * refusal that is not tRPC's, e.g. a proxy's 403 page); undefined when the server was not reached.
 */
function statusOf(error: unknown): number | undefined {
  const call = error as FailedCall | null;
  return call?.data?.httpStatus ?? call?.meta?.response?.status ?? undefined;
}

/** The query client's `retry`: `failureCount` failures so far; a 4xx answer is final. */
export function shouldRetryRead(failureCount: number, error: unknown): boolean {
  const status = statusOf(error);
  if (status !== undefined && status >= 400 && status < 500) return false;
  return failureCount < QUERY_RETRIES;
}

/**
 * The `retry` of the read a fresh page load waits for (the signed-in person): a server that was not
 * reached at all is told at once by a page that keeps trying on its own (instead of a blank page through
 * every retry); a server that answered with a failure is retried as any read.
 */
export function shouldRetryReachedRead(failureCount: number, error: unknown): boolean {
  return statusOf(error) !== undefined && shouldRetryRead(failureCount, error);
}

/** A request that never reached the server (no HTTP answer at all). */
export function serverNotReached(error: unknown): boolean {
  return statusOf(error) === undefined;
}

/** The query client's `retryDelay`: 1 s, 2 s, 4 s, ... up to the maximum. */
export function readRetryDelay(failureCount: number): number {
  return Math.min(1000 * 2 ** failureCount, QUERY_RETRY_DELAY_MAX_MS);
}

/** What a query result says of its last attempts (react-query's own fields). */
interface ReadState {
  data: unknown;
  error: unknown;
  failureReason: unknown;
  failureCount: number;
  isFetching: boolean;
  errorUpdatedAt: number;
  dataUpdatedAt: number;
}

/** A read with nothing to show because it failed: why, and which retry is under way. */
interface ReadFailure {
  /** The failed request (to word the failure). */
  error: unknown;
  /**
   * While it is being asked again: the automatic retry under way (1 to QUERY_RETRIES), or 0 for a new
   * attempt after a failure (Try again, or the page's own read after its loader's failed). Null once
   * nothing is being asked any more.
   */
  retrying: number | null;
}

/**
 * The failure of a read with no data, or null while it is loading for the first time or has data: a
 * failed refresh keeps what is shown. A failure counts from the first failed attempt (the query's
 * failureCount, kept while its retries run), and an attempt that follows a failure keeps it told until
 * it succeeds, so the page never falls back to a skeleton or an empty state while it does not know.
 */
export function readFailure(read: ReadState): ReadFailure | null {
  if (read.data !== undefined) return null;
  const failedBefore = read.errorUpdatedAt > read.dataUpdatedAt;
  if (read.failureCount === 0 && !failedBefore) return null;
  return {
    error: read.error ?? read.failureReason,
    retrying: read.isFetching ? Math.min(read.failureCount, QUERY_RETRIES) : null,
  };
}

/** What a failure says while it is asked again: "Retrying... (2 of 3)". */
export function retryingLabel(retrying: number): string {
  return retrying > 0 ? `Retrying... (${retrying} of ${QUERY_RETRIES})` : "Retrying...";
}
