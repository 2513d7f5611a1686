// What the built server's merge thread (apps/server/src/ingest-merge-worker.ts) needs of the API, and no
// more: imported apart from the API's index, so the thread loads the merges' modules alone (not the
// routers, mail, queues, providers or argon2 the rest of the server needs).
export { countIngestedWith, mergeAppended, startIngestMerges } from "./services/production/ingest.ts";
