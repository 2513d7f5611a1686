-- CreateEnum
CREATE TYPE "evaluation_status" AS ENUM ('queued', 'running', 'done', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "evaluation_item_status" AS ENUM ('pending', 'passed', 'failed', 'error', 'cancelled');

-- AlterTable
ALTER TABLE "teams" ADD COLUMN     "required_pass_rate" INTEGER;

-- CreateTable
CREATE TABLE "test_cases" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "prompt_id" UUID NOT NULL,
    "variables" JSONB NOT NULL DEFAULT '{}',
    "expected" TEXT,
    "assertions" JSONB NOT NULL DEFAULT '[]',
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "test_cases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evaluations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "prompt_id" UUID NOT NULL,
    "versions" INTEGER[],
    "model" TEXT,
    "connection_id" UUID,
    "connection_name" TEXT NOT NULL,
    "status" "evaluation_status" NOT NULL DEFAULT 'queued',
    "error" TEXT,
    "user_id" UUID,
    "api_key_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "evaluations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evaluation_items" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "evaluation_id" UUID NOT NULL,
    "test_case_id" UUID,
    "version" INTEGER NOT NULL,
    "variables" JSONB NOT NULL DEFAULT '{}',
    "expected" TEXT,
    "assertions" JSONB NOT NULL DEFAULT '[]',
    "status" "evaluation_item_status" NOT NULL DEFAULT 'pending',
    "output" TEXT,
    "results" JSONB,
    "error" TEXT,
    "latency_ms" INTEGER,
    "input_tokens" INTEGER,
    "output_tokens" INTEGER,
    "cost" DOUBLE PRECISION,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "rate_limited" INTEGER NOT NULL DEFAULT 0,
    "position" INTEGER NOT NULL,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "evaluation_items_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "test_cases_prompt_id_created_at_id_idx" ON "test_cases"("prompt_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "evaluations_prompt_id_created_at_id_idx" ON "evaluations"("prompt_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "evaluation_items_evaluation_id_status_idx" ON "evaluation_items"("evaluation_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "evaluation_items_evaluation_id_version_position_key" ON "evaluation_items"("evaluation_id", "version", "position");

-- AddForeignKey
ALTER TABLE "test_cases" ADD CONSTRAINT "test_cases_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "test_cases" ADD CONSTRAINT "test_cases_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "provider_connections"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_items" ADD CONSTRAINT "evaluation_items_evaluation_id_fkey" FOREIGN KEY ("evaluation_id") REFERENCES "evaluations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_items" ADD CONSTRAINT "evaluation_items_test_case_id_fkey" FOREIGN KEY ("test_case_id") REFERENCES "test_cases"("id") ON DELETE SET NULL ON UPDATE CASCADE;


-- A team's required pass rate is a percentage, or off (null).
ALTER TABLE "teams" ADD CONSTRAINT "teams_required_pass_rate_range" CHECK ("required_pass_rate" IS NULL OR "required_pass_rate" BETWEEN 0 AND 100);
-- An evaluation is started by exactly one of a person or an API key (either may be deleted since: then none).
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_one_starter" CHECK (num_nonnulls("user_id", "api_key_id") <= 1);
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_versions_present" CHECK (cardinality("versions") >= 1);
