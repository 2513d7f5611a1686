// What the requests' thread and the merge thread (ingest-merge-thread.ts, ingest-merge-worker.ts) say to
// each other: a module of its own, so the merge thread imports nothing else of the server's.

/** The application_name of the merge thread's connections (pg_stat_activity). */
export const MERGE_THREAD_APPLICATION = "promptly-ingest-merges";

export interface MergeThreadData {
  databaseUrl: string;
}

/** To the merge thread; `stop` is answered `stopped` once its merges ended and its pool closed. */
export type MergeThreadMessage = { type: "appended"; generations: number } | { type: "stop" };

/** From the merge thread. */
export type MergeThreadReply =
  | { type: "counted"; source: string; result: string; signals: number }
  | { type: "stopped" }
  | { type: "error"; error: ThreadError };

/** An error of the merge thread as it crosses to the process's log: what the logger would have printed of it there. */
export interface ThreadError {
  name?: string;
  message: string;
  stack?: string;
  /** PostgreSQL's (code, detail, constraint, table...): its own fields that are strings or numbers. */
  fields?: Record<string, string | number>;
  cause?: ThreadError;
}

/** `error` as a ThreadError (structured-clone safe), its causes included (three deep at most). */
export function threadErrorOf(error: unknown, depth = 0): ThreadError {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(error)) if (typeof value === "string" || typeof value === "number") fields[key] = value;
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    fields,
    ...(error.cause !== undefined && depth < 3 ? { cause: threadErrorOf(error.cause, depth + 1) } : {}),
  };
}

/** A ThreadError as an Error again, for the process's logger. */
export function errorFromThread(sent: ThreadError): Error {
  const error = Object.assign(new Error(sent.message, sent.cause ? { cause: errorFromThread(sent.cause) } : undefined), sent.fields);
  if (sent.name) error.name = sent.name;
  if (sent.stack) error.stack = sent.stack;
  return error;
}
