-- CreateTable
CREATE TABLE "online_evaluations" (
    "prompt_id" UUID NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "sample_percent" DOUBLE PRECISION NOT NULL,
    "daily_cap_usd" DOUBLE PRECISION NOT NULL,
    "assertions" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" UUID,

    CONSTRAINT "online_evaluations_pkey" PRIMARY KEY ("prompt_id")
);

-- CreateTable
CREATE TABLE "online_evaluation_runs" (
    "generation_id" UUID NOT NULL,
    "prompt_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "online_evaluation_runs_pkey" PRIMARY KEY ("generation_id")
);

-- CreateIndex
CREATE INDEX "online_evaluation_runs_prompt_id_day_idx" ON "online_evaluation_runs"("prompt_id", "day");

-- AddForeignKey
ALTER TABLE "online_evaluations" ADD CONSTRAINT "online_evaluations_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "online_evaluations" ADD CONSTRAINT "online_evaluations_updated_by_fkey" FOREIGN KEY ("updated_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "online_evaluation_runs" ADD CONSTRAINT "online_evaluation_runs_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Written by hand: a share is a percentage and a cap is never negative.
ALTER TABLE "online_evaluations" ADD CONSTRAINT "online_evaluations_sample_percent_check" CHECK ("sample_percent" >= 0 AND "sample_percent" <= 100);
ALTER TABLE "online_evaluations" ADD CONSTRAINT "online_evaluations_daily_cap_usd_check" CHECK ("daily_cap_usd" >= 0);
