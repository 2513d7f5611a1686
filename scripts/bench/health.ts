// `npm run bench -- health`: the health endpoint and a signed-out query (auth.me without a session).
import type { Benchmark } from "./types.ts";

export const benchmark: Benchmark = {
  description: "GET /api/health (database, storage and mail probes) and a signed-out tRPC query",
  scenarios: () => [
    { name: "GET /api/health", path: "/api/health", baseline: [{ sql: "SELECT 1 AS ok" }] },
    { name: "auth.me (signed out)", procedure: "auth.me", baseline: [{ sql: "SELECT 1 AS ok" }] },
  ],
};
