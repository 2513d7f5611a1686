-- AlterTable
ALTER TABLE "online_evaluation_runs" ADD COLUMN     "reserved" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "verdicts" JSONB;


-- Written by hand: a claim is in one of these states (see packages/api/src/services/evaluations/online.ts).
ALTER TABLE "online_evaluation_runs" ADD CONSTRAINT "online_evaluation_runs_status_check" CHECK ("status" IN ('queued', 'judging', 'judged', 'done'));
