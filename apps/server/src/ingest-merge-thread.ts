// Where the production signals this process accepts are merged. The built server merges on a thread of
// its own (ingest-merge-worker.ts, beside it in dist/), at a lower priority than the requests': a merge is
// a dozen statements and the JavaScript that builds its rows, run several times a second under load, and
// on the thread that answers the runtime API each of them held up the fetches waiting behind it (README's
// benchmark log, 7 December evening: the fetch beside 1,000 spans/s kept more of its rate in every paired
// run). Run from source (tests, development) there is no built thread to start, and the merges run on this
// thread as before.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ingestSettled, mergeElsewhere, metrics, startIngestMerges } from "@promptly/api";
import { Prisma, rawStatement, type Db } from "@promptly/db";
import { errorFromThread, type MergeThreadData, type MergeThreadMessage, type MergeThreadReply } from "./ingest-merge-protocol.ts";

/**
 * How often, with no thread running, this process looks for rows nobody merged for LEFT_AFTER_SECONDS (left by a
 * process that stopped, or by a thread that failed), as the thread's own sweep does once it runs.
 */
const LOOK_EVERY_MS = 5_000;
/** Rows this old are nobody's: younger ones are another process's, about to be merged by it (a merge waits 2 s at most). */
const LEFT_AFTER_SECONDS = 30;
/** A row that failed to merge is nobody's this long after its first failure (past its team's longest hold-back, a minute). */
const FAILED_LEFT_AFTER_SECONDS = 5 * 60;
/** After a thread ended unasked (it failed), the wait before another: 5 s, then 10, then 20. */
const RESTART_AFTER_MS = 5_000;
/**
 * Threads in a row that failed within LIVED_MS of their start: then the merges run on the requests' thread for good
 * (slower for the fetches beside them, but merged), rather than rows waiting on a thread that cannot run.
 */
const FAILED_STARTS_MAX = 4;
const LIVED_MS = 10 * 60_000;

const WORKER_FILE = fileURLToPath(new URL("./ingest-merge-worker.mjs", import.meta.url));

/**
 * Starts merging what this process appends to ingest_pending, and rows any process left there: on a thread of its own
 * when the server is built, else on this one (startIngestMerges). The thread starts when this process first appends
 * (or finds rows nobody merged), so a process that takes no production signals spends no memory on it. Returns the
 * stop: what this process is still appending is appended, the merges running end after their transaction (what is
 * left waits for the next start's), and the thread ends.
 */
export function startMerging(
  db: Db,
  { databaseUrl, onError, workerFile = WORKER_FILE, restartAfterMs = RESTART_AFTER_MS }: {
    databaseUrl: string;
    onError: (error: unknown) => void;
    /** Tests: another thread's file, and a shorter wait before a restart. */
    workerFile?: string;
    restartAfterMs?: number;
  },
): () => Promise<void> {
  if (!existsSync(workerFile)) {
    // Built but without the thread's file beside it (an image that copied main.mjs alone): said, then merged here.
    if (import.meta.url.endsWith(".mjs")) onError(new Error(`${workerFile} is missing: production signals are merged on the requests' thread`));
    return startIngestMerges(db, { onError });
  }
  let thread: { worker: Worker; stopped: Promise<void> } | null = null;
  let stopping = false;
  let notBefore = 0;
  let failedStarts = 0;
  let stopInline: (() => Promise<void>) | null = null;

  /** A thread may start now: none runs, and the merges are not inline, stopping or waiting before a restart. */
  const mayStart = () => !thread && !stopInline && !stopping && Date.now() >= notBefore;
  const threadNow = () => {
    if (!mayStart()) return thread;
    const startedAt = Date.now();
    const worker = new Worker(workerFile, { workerData: { databaseUrl } satisfies MergeThreadData });
    let stopped = () => {};
    worker.on("message", (reply: MergeThreadReply) => {
      if (reply.type === "counted") metrics.productionIngested.inc({ source: reply.source, result: reply.result }, reply.signals);
      else if (reply.type === "stopped") stopped();
      else onError(errorFromThread(reply.error));
    });
    // An error it did not catch ends it: what it had not merged waits in ingest_pending for the next thread's first sweep.
    worker.on("error", onError);
    const started = { worker, stopped: new Promise<void>((resolve) => (stopped = resolve)) };
    worker.once("exit", (code) => {
      stopped();
      if (thread === started) thread = null;
      if (stopping) return;
      failedStarts = Date.now() - startedAt >= LIVED_MS ? 1 : failedStarts + 1;
      if (failedStarts < FAILED_STARTS_MAX) {
        // Started again after the wait (it merges what its predecessor left at once), or by an append after it.
        const wait = restartAfterMs * 2 ** (failedStarts - 1);
        notBefore = Date.now() + wait;
        setTimeout(threadNow, wait).unref();
        return;
      }
      onError(new Error(`The merge thread ended ${failedStarts} times in a row soon after its start (last exit code ${code}): production signals are merged on the requests' thread until a restart`));
      mergeElsewhere(db, null);
      stopInline = startIngestMerges(db, { onError });
    });
    return (thread = started);
  };

  // Told after each append (before the append's requests are answered); a message sent while the thread starts waits for it.
  mergeElsewhere(db, { appended: (generations) => threadNow()?.worker.postMessage({ type: "appended", generations } satisfies MergeThreadMessage) });

  // The oldest row waiting, on the key's order (past the rows set aside, which an operator's retry takes: few), unless
  // it failed within FAILED_LEFT_AFTER_SECONDS (its team's merges hold it back up to a minute and a process merging
  // retries it: no reason for every process to start a thread; failed longer ago, its merging process may be gone).
  const look = () => {
    if (!mayStart()) return;
    rawStatement<{ left: boolean }>(db, Prisma.sql`
      SELECT received_at < now() - ${LEFT_AFTER_SECONDS}::int * interval '1 second' AS left FROM ingest_pending
       WHERE set_aside_at IS NULL AND (first_failed_at IS NULL OR first_failed_at < now() - ${FAILED_LEFT_AFTER_SECONDS}::int * interval '1 second')
       ORDER BY id LIMIT 1`).then(
      ([row]) => row?.left && threadNow(),
      onError,
    );
  };
  const timer = setInterval(look, LOOK_EVERY_MS);
  timer.unref();

  return async () => {
    clearInterval(timer);
    stopping = true;
    if (stopInline) return stopInline();
    // What this process is appending is appended (and told to the thread, ahead of its stop; after it, to no thread:
    // a request cut at the shutdown limit whose append ends later is merged by the next start's sweep).
    await ingestSettled(db);
    const running = thread;
    if (!running) return;
    running.worker.postMessage({ type: "stop" } satisfies MergeThreadMessage);
    await running.stopped;
    await running.worker.terminate();
  };
}
