-- A generation's scores newest first by the index (a list shows each generation's newest 50): the LATERAL read of
-- them walked and sorted every score of a generation. The index on generation_id alone is replaced: the new one
-- serves its lookups too. Like the other index migrations here, it holds writes to scores while it builds.
-- CreateIndex
CREATE INDEX "scores_generation_id_created_at_id_idx" ON "scores"("generation_id", "created_at", "id");

-- DropIndex
DROP INDEX "scores_generation_id_idx";

