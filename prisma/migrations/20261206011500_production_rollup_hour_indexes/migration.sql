-- A prompt's rollups by hour: the Production tab reads a span of hours of every version (the hours at
-- the ends of a span beside the daily rows), which the primary keys (version first) cannot narrow.

-- CreateIndex
CREATE INDEX "generation_rollups_prompt_id_hour_idx" ON "generation_rollups"("prompt_id", "hour");

-- CreateIndex
CREATE INDEX "score_rollups_prompt_id_hour_idx" ON "score_rollups"("prompt_id", "hour");
