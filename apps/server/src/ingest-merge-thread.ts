// Where the production signals this process accepts are merged. The built server merges on a thread of
// its own (ingest-merge-worker.ts, beside it in dist/): a merge is a dozen statements and the JavaScript
// that builds its rows, run several times a second under load, and on the thread that answers the
// runtime API each of them held up the fetches waiting behind it (measured: the fetch kept about 0.82x
// its rate beside 1,000 spans/s with the merges here, about 0.91x with them elsewhere). Run from source
// (tests, development) there is no built thread to start, and the merges run on this thread as before.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ingestSettled, mergeElsewhere, metrics, startIngestMerges } from "@promptly/api";
import { Prisma, rawStatement, type Db } from "@promptly/db";

/** The application_name of the merge thread's connections (pg_stat_activity). */
export const MERGE_THREAD_APPLICATION = "promptly-ingest-merges";

export interface MergeThreadData {
  databaseUrl: string;
}

/** From this thread to the merge thread; `stop` is answered `settled` once its merges ended and its pool closed. */
export type MergeThreadMessage = { type: "appended"; generations: number } | { type: "settle" | "stop"; id: number };

/** From the merge thread. */
export type MergeThreadReply =
  | { type: "counted"; source: string; result: string; signals: number }
  | { type: "settled"; id: number }
  | { type: "error"; error: { message: string; stack?: string } };

/** How often, with no thread running, this process looks for rows a process that stopped left unmerged (as the thread's own sweep does). */
const LOOK_EVERY_MS = 5_000;
/** After the thread ended unasked (it failed), how long before another is started. */
const RESTART_AFTER_MS = 5_000;

const WORKER_FILE = fileURLToPath(new URL("./ingest-merge-worker.mjs", import.meta.url));

/**
 * Starts merging what this process appends to ingest_pending, and what any process left there: on a thread of its own
 * when the server is built, else on this one (startIngestMerges). The thread starts when there is something to merge,
 * so a process that takes no production signals spends no memory on it. Returns the stop: what this process is still
 * appending is appended, the merges running end after their transaction (what is left waits for the next start's).
 */
export function startMerging(db: Db, { databaseUrl, onError }: { databaseUrl: string; onError: (error: unknown) => void }): () => Promise<void> {
  if (!existsSync(WORKER_FILE)) return startIngestMerges(db, { onError });
  let thread: { worker: Worker; settles: Map<number, () => void>; exited: Promise<void> } | null = null;
  let stopping = false;
  let notBefore = 0;
  let lastSettle = 0;

  const threadNow = () => {
    if (thread || stopping || Date.now() < notBefore) return thread;
    const worker = new Worker(WORKER_FILE, { workerData: { databaseUrl } satisfies MergeThreadData });
    const settles = new Map<number, () => void>();
    worker.on("message", (reply: MergeThreadReply) => {
      if (reply.type === "counted") metrics.productionIngested.inc({ source: reply.source, result: reply.result }, reply.signals);
      else if (reply.type === "settled") {
        settles.get(reply.id)?.();
        settles.delete(reply.id);
      } else onError(Object.assign(new Error(reply.error.message), { stack: reply.error.stack }));
    });
    // An error it did not catch ends it: what it had not merged waits in ingest_pending for the next thread's sweep.
    worker.on("error", onError);
    const started = { worker, settles, exited: new Promise<void>((resolve) => worker.once("exit", () => resolve())) };
    void started.exited.then(() => {
      for (const settle of settles.values()) settle();
      if (thread === started) thread = null;
      if (!stopping) notBefore = Date.now() + RESTART_AFTER_MS;
    });
    return (thread = started);
  };
  const post = (message: MergeThreadMessage) => threadNow()?.worker.postMessage(message);

  const undo = mergeElsewhere(db, {
    appended: (generations) => post({ type: "appended", generations }),
    settled() {
      const running = thread;
      if (!running || stopping) return Promise.resolve();
      const id = ++lastSettle;
      const settled = new Promise<void>((resolve) => running.settles.set(id, resolve));
      running.worker.postMessage({ type: "settle", id } satisfies MergeThreadMessage);
      return settled;
    },
  });

  // With no thread running: rows left by a process that stopped (or by a thread that failed) start one.
  const look = () => {
    if (thread || stopping || Date.now() < notBefore) return;
    rawStatement<{ waiting: boolean }>(db, Prisma.sql`SELECT EXISTS (SELECT 1 FROM ingest_pending WHERE set_aside_at IS NULL) AS waiting`).then(
      ([row]) => row?.waiting && threadNow(),
      onError,
    );
  };
  const first = setTimeout(look, 0);
  const timer = setInterval(look, LOOK_EVERY_MS);
  first.unref();
  timer.unref();

  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    stopping = true;
    // What this process is appending is appended (and told to the thread, ahead of its stop).
    await ingestSettled(db);
    const running = thread;
    if (running) {
      const id = ++lastSettle;
      await new Promise<void>((resolve) => {
        running.settles.set(id, resolve);
        running.worker.postMessage({ type: "stop", id } satisfies MergeThreadMessage);
      });
      await running.worker.terminate();
    }
    undo();
  };
}
