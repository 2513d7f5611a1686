-- The rows stored before generations_prompt_version_check (the previous migration) are checked against it.
-- No write path links a generation without its version; one found anyway is stored unlinked, as ingest
-- stores a generation whose version it cannot link (it was in no per-version list or rollup either way),
-- and so are its scores, which took their link from it (nor were they in a rollup: their version is null too).
WITH "unlinked" AS (
  UPDATE "generations" SET "prompt_id" = NULL WHERE "prompt_id" IS NOT NULL AND "version" IS NULL RETURNING "id"
)
UPDATE "scores" SET "prompt_id" = NULL WHERE "generation_id" IN (SELECT "id" FROM "unlinked") AND "version" IS NULL;

-- VALIDATE takes a lock that lets reads and writes of generations go on while it reads every partition.
ALTER TABLE "generations" VALIDATE CONSTRAINT "generations_prompt_version_check";
