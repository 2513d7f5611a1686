-- AlterTable
ALTER TABLE "one_time_tokens" ADD COLUMN     "browser_hash" TEXT;

