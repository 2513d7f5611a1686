-- The score rollups keep one row per data type too: a name sent as a yes/no score on one version and
-- as a numeric one on another (or in the same hour) is two series, not one whose type is the last
-- written. Rows merged before this cannot be split again (the rollups outlive the scores); from now
-- on each type adds into its own row.
ALTER TABLE "score_rollups" DROP CONSTRAINT "score_rollups_pkey",
ADD CONSTRAINT "score_rollups_pkey" PRIMARY KEY ("prompt_id", "version", "environment", "hour", "name", "data_type");
