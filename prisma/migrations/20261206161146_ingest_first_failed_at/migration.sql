-- AlterTable
ALTER TABLE "ingest_pending" ADD COLUMN     "first_failed_at" TIMESTAMPTZ(3);

-- Requests failing already: failing since they were received, or about (a merge takes a request within
-- seconds), rather than given two more hours from their next failure.
UPDATE "ingest_pending" SET "first_failed_at" = "received_at" WHERE "attempts" > 0;
