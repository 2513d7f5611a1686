-- A person has at most one thumbs on each generation and each run (one score of a name by its author;
-- only people's scores have an author): a second replaces the first, and its author can remove it.
-- The repeats given so far: each person's latest is kept, the others deleted and taken out of the
-- hourly rollups they were counted in (the rollups outlive the scores, so they are corrected, not
-- recomputed). A rollup row left with no score is deleted.
CREATE TEMP TABLE "thumbs_repeats" ON COMMIT DROP AS
WITH "ranked" AS (
  SELECT "id", row_number() OVER (PARTITION BY "author_user_id", "generation_id", "name" ORDER BY "created_at" DESC, "id" DESC) AS "n"
    FROM "scores" WHERE "author_user_id" IS NOT NULL AND "generation_id" IS NOT NULL
  UNION ALL
  SELECT "id", row_number() OVER (PARTITION BY "author_user_id", "run_id", "name" ORDER BY "created_at" DESC, "id" DESC) AS "n"
    FROM "scores" WHERE "author_user_id" IS NOT NULL AND "run_id" IS NOT NULL
), "deleted" AS (
  DELETE FROM "scores" "s" WHERE "s"."id" IN (SELECT "id" FROM "ranked" WHERE "n" > 1)
  RETURNING "s"."prompt_id", "s"."version", "s"."environment", date_trunc('hour', "s"."created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS "hour",
    "s"."name", "s"."value", "s"."string_value"
)
SELECT * FROM "deleted" WHERE "prompt_id" IS NOT NULL AND "version" IS NOT NULL;

UPDATE "score_rollups" "r"
   SET "count" = "r"."count" - "t"."n", "sum" = "r"."sum" - "t"."sum", "sum_squares" = "r"."sum_squares" - "t"."sum_squares",
       "categories" = (
         SELECT coalesce(jsonb_object_agg("e"."key", "e"."left"), '{}'::jsonb) FROM (
           SELECT "c"."key", "c"."value"::numeric - (
               SELECT count(*) FROM "thumbs_repeats" "d"
                WHERE "d"."prompt_id" = "r"."prompt_id" AND "d"."version" = "r"."version" AND "d"."environment" = "r"."environment"
                  AND "d"."hour" = "r"."hour" AND "d"."name" = "r"."name" AND "d"."string_value" = "c"."key") AS "left"
             FROM jsonb_each_text("r"."categories") "c") "e"
          WHERE "e"."left" <> 0)
  FROM (
    SELECT "prompt_id", "version", "environment", "hour", "name", count(*)::int AS "n",
           coalesce(sum("value"), 0) AS "sum", coalesce(sum("value" * "value"), 0) AS "sum_squares"
      FROM "thumbs_repeats" GROUP BY 1, 2, 3, 4, 5
  ) "t"
 WHERE "r"."prompt_id" = "t"."prompt_id" AND "r"."version" = "t"."version" AND "r"."environment" = "t"."environment"
   AND "r"."hour" = "t"."hour" AND "r"."name" = "t"."name";

DELETE FROM "score_rollups" "r" USING (SELECT DISTINCT "prompt_id", "version", "environment", "hour", "name" FROM "thumbs_repeats") "t"
 WHERE "r"."prompt_id" = "t"."prompt_id" AND "r"."version" = "t"."version" AND "r"."environment" = "t"."environment"
   AND "r"."hour" = "t"."hour" AND "r"."name" = "t"."name" AND "r"."count" <= 0;

-- Partial: people's scores alone (the drift test leaves partial indexes out; drift.integration.test.ts checks these).
CREATE UNIQUE INDEX "scores_author_generation_name_key" ON "scores"("author_user_id", "generation_id", "name") WHERE "author_user_id" IS NOT NULL AND "generation_id" IS NOT NULL;
CREATE UNIQUE INDEX "scores_author_run_name_key" ON "scores"("author_user_id", "run_id", "name") WHERE "author_user_id" IS NOT NULL AND "run_id" IS NOT NULL;
