-- AlterTable
ALTER TABLE "ingest_pending" ADD COLUMN     "last_error" TEXT,
ADD COLUMN     "lasting_failures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "set_aside_at" TIMESTAMPTZ(3);

-- Scores naming only a trace, waiting for a generation of it (rare): found by each merge of the trace's
-- generations. Partial, so a merge's look costs nothing when none wait; Prisma's schema cannot say it
-- (the drift test leaves partial indexes out; drift.integration.test.ts checks this one).
CREATE INDEX "scores_waiting_trace_idx" ON "scores"("team_id", "trace_id") WHERE "generation_id" IS NULL AND "observation_id" IS NULL AND "run_id" IS NULL;
