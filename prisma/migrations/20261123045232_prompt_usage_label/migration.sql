-- AlterTable
ALTER TABLE "prompt_usage" DROP CONSTRAINT "prompt_usage_pkey",
ADD COLUMN     "label" TEXT NOT NULL DEFAULT '',
ADD CONSTRAINT "prompt_usage_pkey" PRIMARY KEY ("prompt_id", "version", "api_key_id", "day", "label");

-- CreateIndex
CREATE INDEX "prompt_usage_prompt_id_day_idx" ON "prompt_usage"("prompt_id", "day");

