-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "generations_pruned_before" TIMESTAMPTZ(3);


-- Housekeeping sets it in the transaction of each delete of an organization's generations past its retention
-- (to that delete's cutoff) and of each drop of a month's partition (to the month's end, for every organization):
-- it only grows. Nothing was recorded before: each organization starts at its retention's cutoff now, before
-- which ingest already kept no generation not stored (housekeeping may have deleted some there, at a retention
-- lowered since: not known, so raising the retention later does not open that time again).
UPDATE "organizations" SET "generations_pruned_before" = now() - "generation_retention_days" * interval '1 day';

-- The online evaluation's sweep of stale claims reads the unfinished ones created before a time: an index of
-- those alone (the finished ones, nearly all of the table, are never read so).
CREATE INDEX "online_evaluation_runs_unfinished_idx" ON "online_evaluation_runs"("created_at") WHERE "status" NOT IN ('done', 'skipped');
