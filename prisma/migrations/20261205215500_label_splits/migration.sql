-- AlterTable
ALTER TABLE "prompt_labels" ADD COLUMN     "candidate_version" INTEGER,
ADD COLUMN     "candidate_weight" INTEGER;

-- AlterTable
ALTER TABLE "change_requests" ADD COLUMN     "proposed_weight" INTEGER;

-- AddForeignKey
ALTER TABLE "prompt_labels" ADD CONSTRAINT "prompt_labels_prompt_id_candidate_version_fkey" FOREIGN KEY ("prompt_id", "candidate_version") REFERENCES "prompt_versions"("prompt_id", "version") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand: what schema.prisma cannot say. A split names its candidate and weight together,
-- the weight is a percent the version keeps part of (1-99), and the candidate is another version.
ALTER TABLE "prompt_labels" ADD CONSTRAINT "prompt_labels_split_check" CHECK (
  ("candidate_version" IS NULL) = ("candidate_weight" IS NULL)
  AND ("candidate_weight" IS NULL OR "candidate_weight" BETWEEN 1 AND 99)
  AND ("candidate_version" IS NULL OR "candidate_version" <> "version")
);
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_proposed_weight_check" CHECK (
  "proposed_weight" IS NULL OR ("proposed_weight" BETWEEN 1 AND 99 AND "proposed_version" IS NOT NULL)
);
