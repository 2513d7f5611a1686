-- AlterTable
ALTER TABLE "ingest_pending" ADD COLUMN     "last_error" TEXT,
ADD COLUMN     "set_aside_at" TIMESTAMPTZ(3);

