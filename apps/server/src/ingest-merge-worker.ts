// The built server's merge thread (see ingest-merge-thread.ts): merges what its process appends to
// ingest_pending, and what any process left there, on a pool of its own, so a merge's work never holds
// up the event loop that answers the runtime API. It loads the merges' modules alone (@promptly/api/ingest-merges).
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { countIngestedWith, mergeAppended, startIngestMerges } from "@promptly/api/ingest-merges";
import { createDb } from "@promptly/db";
import { MERGE_THREAD_APPLICATION, threadErrorOf, type MergeThreadData, type MergeThreadMessage, type MergeThreadReply } from "./ingest-merge-protocol.ts";

/**
 * The thread's nice value: merging is background work, so on a busy machine the requests' thread gets the CPU first and
 * the merges what is left (still about a tenth of a core when nothing is: they lag, never stop). Against other processes
 * (PostgreSQL) only where the kernel weighs all threads together (not across autogroups or CPU cgroups).
 * Linux gives each thread its own (its id from /proc/thread-self); elsewhere the thread keeps the process's.
 */
const MERGE_THREAD_NICENESS = 10;
try {
  setPriority(Number(readlinkSync("/proc/thread-self").split("/").pop()), MERGE_THREAD_NICENESS);
} catch {
  // Not Linux, or not allowed: the same priority as the requests'.
}

const port = parentPort!;
const { databaseUrl } = workerData as MergeThreadData;
const reply = (message: MergeThreadReply) => port.postMessage(message);

// Two merges at a time, and a failed one's record beside them; its connections named as such (pg_stat_activity), apart from the requests'.
const db = createDb({ url: databaseUrl, max: 3, applicationName: MERGE_THREAD_APPLICATION, warn: (message) => reply({ type: "error", error: { message } }) });
// Counted in the process's metrics, which this thread's registry is not (zeros too: a series shows from its first merge, as inline).
countIngestedWith((source, result, signals) => reply({ type: "counted", source, result, signals }));
const stopMerges = startIngestMerges(db, { onError: (error) => reply({ type: "error", error: threadErrorOf(error) }) });

port.on("message", (message: MergeThreadMessage) => {
  if (message.type === "appended") return mergeAppended(db, message.generations);
  void stopMerges()
    .then(() => db.$disconnect())
    .catch((error: unknown) => reply({ type: "error", error: threadErrorOf(error) }))
    .then(() => reply({ type: "stopped" }));
});
