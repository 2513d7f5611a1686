-- AlterTable
ALTER TABLE "prompt_runs" ADD COLUMN     "draft" BOOLEAN NOT NULL DEFAULT false;

