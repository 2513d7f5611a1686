-- AlterTable
ALTER TABLE "evaluation_items" ADD COLUMN     "placeholders" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "test_cases" ADD COLUMN     "placeholders" JSONB NOT NULL DEFAULT '{}';
