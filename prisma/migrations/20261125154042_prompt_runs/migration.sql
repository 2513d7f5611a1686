-- CreateEnum
CREATE TYPE "prompt_run_status" AS ENUM ('succeeded', 'failed', 'stopped');

-- CreateTable
CREATE TABLE "prompt_runs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "prompt_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "user_id" UUID,
    "api_key_id" UUID,
    "connection_id" UUID,
    "connection_name" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "parameters" JSONB NOT NULL DEFAULT '{}',
    "variables" JSONB NOT NULL DEFAULT '{}',
    "input" JSONB NOT NULL,
    "output" TEXT NOT NULL DEFAULT '',
    "input_tokens" INTEGER,
    "output_tokens" INTEGER,
    "ttft_ms" INTEGER,
    "total_ms" INTEGER NOT NULL,
    "cost" DOUBLE PRECISION,
    "status" "prompt_run_status" NOT NULL,
    "error" TEXT,
    "notice" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prompt_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "prompt_runs_prompt_id_created_at_id_idx" ON "prompt_runs"("prompt_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "prompt_runs_prompt_id_version_created_at_id_idx" ON "prompt_runs"("prompt_id", "version", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "prompt_runs" ADD CONSTRAINT "prompt_runs_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_runs" ADD CONSTRAINT "prompt_runs_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_runs" ADD CONSTRAINT "prompt_runs_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_runs" ADD CONSTRAINT "prompt_runs_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_runs" ADD CONSTRAINT "prompt_runs_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "provider_connections"("id") ON DELETE SET NULL ON UPDATE CASCADE;

