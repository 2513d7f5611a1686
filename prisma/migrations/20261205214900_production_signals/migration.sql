-- Production signals: generations and scores sent in by the teams' own code, and their hourly rollups.

-- AlterEnum
ALTER TYPE "api_key_scope" ADD VALUE 'ingest';

-- AlterTable
ALTER TABLE "teams" ADD COLUMN     "keep_generation_text" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "generations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "prompt_id" UUID,
    "prompt_name" TEXT NOT NULL,
    "version" INTEGER,
    "trace_id" TEXT,
    "observation_id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "model" TEXT,
    "environment" TEXT NOT NULL DEFAULT 'default',
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "completion_start_at" TIMESTAMPTZ(3),
    "latency_ms" DOUBLE PRECISION,
    "ttft_ms" DOUBLE PRECISION,
    "input_tokens" INTEGER,
    "output_tokens" INTEGER,
    "cost" DOUBLE PRECISION,
    "status" TEXT NOT NULL,
    "error_message" TEXT,
    "user_ref" TEXT,
    "session_ref" TEXT,
    "input" TEXT,
    "output" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "generations_pkey" PRIMARY KEY ("id","started_at")
) PARTITION BY RANGE ("started_at");

-- CreateTable
CREATE TABLE "scores" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "generation_id" UUID,
    "run_id" UUID,
    "trace_id" TEXT,
    "observation_id" TEXT,
    "prompt_id" UUID,
    "version" INTEGER,
    "environment" TEXT NOT NULL DEFAULT 'default',
    "name" TEXT NOT NULL,
    "data_type" TEXT NOT NULL,
    "value" DOUBLE PRECISION,
    "string_value" TEXT,
    "comment" TEXT,
    "source" TEXT NOT NULL,
    "author_user_id" UUID,
    "api_key_id" UUID,
    "external_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scores_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "generation_rollups" (
    "prompt_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "environment" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "generations" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,
    "latency_sum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "latency_count" INTEGER NOT NULL DEFAULT 0,
    "ttft_sum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "ttft_count" INTEGER NOT NULL DEFAULT 0,
    "latency_hist" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "ttft_hist" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "input_tokens" BIGINT NOT NULL DEFAULT 0,
    "output_tokens" BIGINT NOT NULL DEFAULT 0,
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,

    CONSTRAINT "generation_rollups_pkey" PRIMARY KEY ("prompt_id","version","environment","model","hour")
);

-- CreateTable
CREATE TABLE "score_rollups" (
    "prompt_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "environment" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "name" TEXT NOT NULL,
    "data_type" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "sum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "sum_squares" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "categories" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "score_rollups_pkey" PRIMARY KEY ("prompt_id","version","environment","hour","name")
);

-- CreateIndex
CREATE INDEX "generations_team_id_observation_id_idx" ON "generations"("team_id", "observation_id");

-- CreateIndex
CREATE INDEX "generations_prompt_id_version_started_at_idx" ON "generations"("prompt_id", "version", "started_at");

-- CreateIndex
CREATE INDEX "generations_team_id_trace_id_idx" ON "generations"("team_id", "trace_id");

-- CreateIndex
CREATE INDEX "scores_generation_id_idx" ON "scores"("generation_id");

-- CreateIndex
CREATE INDEX "scores_run_id_idx" ON "scores"("run_id");

-- CreateIndex
CREATE INDEX "scores_team_id_observation_id_idx" ON "scores"("team_id", "observation_id");

-- CreateIndex
CREATE INDEX "scores_team_id_trace_id_idx" ON "scores"("team_id", "trace_id");

-- CreateIndex
CREATE INDEX "scores_prompt_id_version_created_at_idx" ON "scores"("prompt_id", "version", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "scores_team_id_external_id_key" ON "scores"("team_id", "external_id");

-- AddForeignKey
ALTER TABLE "generations" ADD CONSTRAINT "generations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "generations" ADD CONSTRAINT "generations_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "generations" ADD CONSTRAINT "generations_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scores" ADD CONSTRAINT "scores_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scores" ADD CONSTRAINT "scores_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scores" ADD CONSTRAINT "scores_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "prompt_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scores" ADD CONSTRAINT "scores_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scores" ADD CONSTRAINT "scores_author_user_id_fkey" FOREIGN KEY ("author_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "scores" ADD CONSTRAINT "scores_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "generation_rollups" ADD CONSTRAINT "generation_rollups_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "score_rollups" ADD CONSTRAINT "score_rollups_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Rows whose month has no partition yet land here; housekeeping creates the coming months' partitions
-- ahead of time and moves any such rows into the month's partition when it creates it.
CREATE TABLE "generations_default" PARTITION OF "generations" DEFAULT;

-- Creates the partition of generations for the month holding `month` (a no-op when it exists), moving
-- rows of that month out of the default partition first (a range partition cannot overlap its rows).
CREATE FUNCTION production_ensure_generation_partition(month timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  first_day timestamptz := date_trunc('month', month AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  next_day timestamptz := (date_trunc('month', month AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
  part text := 'generations_' || to_char(month AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
  IF to_regclass(format('%I', part)) IS NOT NULL THEN
    RETURN;
  END IF;
  -- One creator at a time: two processes' housekeeping may run at once.
  PERFORM pg_advisory_xact_lock(hashtext('generations partitions'));
  IF to_regclass(format('%I', part)) IS NOT NULL THEN
    RETURN;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE generations INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part);
  EXECUTE format('WITH moved AS (DELETE FROM generations_default WHERE started_at >= %L AND started_at < %L RETURNING *)
                  INSERT INTO %I SELECT * FROM moved', first_day, next_day, part);
  EXECUTE format('ALTER TABLE generations ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, first_day, next_day);
END;
$$;

SELECT production_ensure_generation_partition(now() - interval '1 month');
SELECT production_ensure_generation_partition(now());
SELECT production_ensure_generation_partition(now() + interval '1 month');

-- Adds latency histograms bucket by bucket (the shorter one counts as zeros beyond its end); used by
-- the rollups' upserts, which also subtract a merged generation's earlier contribution (negative counts).
CREATE FUNCTION production_hist_add(a integer[], b integer[]) RETURNS integer[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(coalesce(a[i], 0) + coalesce(b[i], 0) ORDER BY i), '{}')
    FROM generate_series(1, greatest(coalesce(array_length(a, 1), 0), coalesce(array_length(b, 1), 0))) AS i
$$;

-- Values CHECKed here because Prisma's schema cannot say them.
ALTER TABLE "generations" ADD CONSTRAINT "generations_status_check" CHECK ("status" IN ('ok', 'error'));
ALTER TABLE "generations" ADD CONSTRAINT "generations_source_check" CHECK ("source" IN ('otel', 'langfuse', 'api'));
ALTER TABLE "scores" ADD CONSTRAINT "scores_data_type_check" CHECK ("data_type" IN ('numeric', 'boolean', 'categorical'));
ALTER TABLE "scores" ADD CONSTRAINT "scores_source_check" CHECK ("source" IN ('api', 'annotation', 'eval'));
