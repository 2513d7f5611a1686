-- A generation linked to a prompt names its version: the per-version lists and rollups group by version,
-- so one linked without it would be in none of them. Ingest links a generation only to a version it read;
-- this makes that the database's rule.

-- Added NOT VALID: the rule holds for every row written from now on (in every month's partition, and in
-- the ones production_ensure_generation_partition creates later, which copy the table's CHECKs), taking
-- the table's lock only for a moment. The rows already stored are checked by the next migration, in its
-- own transaction, under a lock that lets ingest and reads go on (a VALIDATE here would hold this one's
-- lock, which stops every read and write of generations, for the whole scan).
ALTER TABLE "generations" ADD CONSTRAINT "generations_prompt_version_check" CHECK ("prompt_id" IS NULL OR "version" IS NOT NULL) NOT VALID;
