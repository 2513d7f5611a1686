-- AlterTable
ALTER TABLE "prompt_runs" ADD COLUMN     "schema_matched" BOOLEAN,
ADD COLUMN     "schema_problem" TEXT,
ADD COLUMN     "tool_calls" JSONB NOT NULL DEFAULT '[]';
