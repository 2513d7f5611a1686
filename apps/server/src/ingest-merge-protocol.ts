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
  | { type: "error"; error: { message: string; stack?: string; code?: string } };
