// The generations a test sent in, as stored (every column a test asserts on), for the ingestion tests.
import { Prisma, type Db } from "@promptly/db";

export interface StoredGenerationRow {
  id: string;
  teamId: string;
  promptId: string | null;
  promptName: string;
  version: number | null;
  traceId: string | null;
  observationId: string;
  source: string;
  model: string | null;
  environment: string;
  startedAt: Date;
  endedAt: Date | null;
  completionStartAt: Date | null;
  latencyMs: number | null;
  ttftMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cost: number | null;
  status: string;
  errorMessage: string | null;
  userRef: string | null;
  sessionRef: string | null;
  input: string | null;
  output: string | null;
}

/** The stored generations `where` selects, by observation id. */
export function storedGenerations(db: Db, where: Prisma.Sql): Promise<StoredGenerationRow[]> {
  return db.$queryRaw<StoredGenerationRow[]>`
    SELECT id, team_id AS "teamId", prompt_id AS "promptId", prompt_name AS "promptName", version, trace_id AS "traceId", observation_id AS "observationId",
           source, model, environment, started_at AS "startedAt", ended_at AS "endedAt", completion_start_at AS "completionStartAt", latency_ms AS "latencyMs",
           ttft_ms AS "ttftMs", input_tokens AS "inputTokens", output_tokens AS "outputTokens", cost, status, error_message AS "errorMessage",
           user_ref AS "userRef", session_ref AS "sessionRef", input, output
      FROM generations WHERE ${where} ORDER BY observation_id`;
}
