-- AlterTable
ALTER TABLE "ingest_pending" ADD COLUMN     "last_error" TEXT,
ADD COLUMN     "lasting_failures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "set_aside_at" TIMESTAMPTZ(3);
