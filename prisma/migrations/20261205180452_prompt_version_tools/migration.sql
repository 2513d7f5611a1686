-- AlterTable
ALTER TABLE "prompt_versions" ADD COLUMN     "response_format" JSONB,
ADD COLUMN     "tools" JSONB NOT NULL DEFAULT '[]';

