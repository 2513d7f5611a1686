// The generations a test sent in, as stored (every column a test asserts on), for the ingestion tests.
import type { StoredGeneration } from "@promptly/api";
import { Prisma, type Db } from "@promptly/db";

/** A stored generation (the service's own row) with its team. */
export type StoredGenerationRow = Omit<StoredGeneration, "startSaid"> & { teamId: string };

/** The stored generations `where` selects, by observation id. */
export function storedGenerations(db: Db, where: Prisma.Sql): Promise<StoredGenerationRow[]> {
  return db.$queryRaw<StoredGenerationRow[]>`
    SELECT id, team_id AS "teamId", prompt_id AS "promptId", prompt_name AS "promptName", version, trace_id AS "traceId", observation_id AS "observationId",
           source, model, environment, started_at AS "startedAt", ended_at AS "endedAt", completion_start_at AS "completionStartAt", latency_ms AS "latencyMs",
           ttft_ms AS "ttftMs", input_tokens AS "inputTokens", output_tokens AS "outputTokens", cost, status, error_message AS "errorMessage",
           user_ref AS "userRef", session_ref AS "sessionRef", input, output
      FROM generations WHERE ${where} ORDER BY observation_id`;
}
