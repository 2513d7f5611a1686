-- AlterEnum
ALTER TYPE "api_key_scope" ADD VALUE 'delete';

-- CreateTable
CREATE TABLE "deleted_prompt_versions" (
    "prompt_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "deleted_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "deleted_prompt_versions_pkey" PRIMARY KEY ("prompt_id","version")
);

-- AddForeignKey
ALTER TABLE "deleted_prompt_versions" ADD CONSTRAINT "deleted_prompt_versions_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- A version of a live prompt is deleted by recording it here: the trigger deletes the row (a delete
-- made inside a trigger is what prompt_versions_immutable lets through; typed by hand it is still
-- refused), its labels, comments, change requests and includes going with it by their foreign keys.
-- When it was the newest, the prompt's latest version and search text become the newest left's. A
-- prompt keeps at least one version: deleting them all is deleting the prompt.
CREATE FUNCTION "deleted_prompt_versions_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "prompt_versions" WHERE "prompt_id" = NEW."prompt_id" AND "version" = NEW."version";
  IF NOT FOUND THEN
    RAISE EXCEPTION 'version % of prompt % does not exist', NEW."version", NEW."prompt_id" USING ERRCODE = 'no_data_found';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM "prompt_versions" WHERE "prompt_id" = NEW."prompt_id") THEN
    RAISE EXCEPTION 'a prompt keeps at least one version: delete the prompt instead' USING ERRCODE = 'restrict_violation';
  END IF;
  UPDATE "prompts" p
     SET "latest_version" = v."version", "body_vector" = to_tsvector('english', "prompt_version_text"(v."template", v."messages"))
    FROM (SELECT "version", "template", "messages" FROM "prompt_versions" WHERE "prompt_id" = NEW."prompt_id" ORDER BY "version" DESC LIMIT 1) v
   WHERE p."id" = NEW."prompt_id" AND p."latest_version" = NEW."version";
  RETURN NULL;
END $$;
CREATE TRIGGER "deleted_prompt_versions_remove" AFTER INSERT ON "deleted_prompt_versions"
  FOR EACH ROW EXECUTE FUNCTION "deleted_prompt_versions_remove"();

-- A deleted version's number is never given again: what was said of `v3` (usage, runs, evaluations,
-- the audit trail) stays about the version that was deleted.
CREATE FUNCTION "prompt_versions_number_unused"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "deleted_prompt_versions" WHERE "prompt_id" = NEW."prompt_id" AND "version" = NEW."version") THEN
    RAISE EXCEPTION 'version % of this prompt was deleted: its number is not given again', NEW."version" USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "prompt_versions_number_unused" BEFORE INSERT ON "prompt_versions"
  FOR EACH ROW EXECUTE FUNCTION "prompt_versions_number_unused"();
