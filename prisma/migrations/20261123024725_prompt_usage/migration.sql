-- CreateTable
CREATE TABLE "prompt_usage" (
    "prompt_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "api_key_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "count" BIGINT NOT NULL,

    CONSTRAINT "prompt_usage_pkey" PRIMARY KEY ("prompt_id","version","api_key_id","day")
);

-- CreateIndex
CREATE INDEX "prompt_usage_api_key_id_idx" ON "prompt_usage"("api_key_id");

-- AddForeignKey
ALTER TABLE "prompt_usage" ADD CONSTRAINT "prompt_usage_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_usage" ADD CONSTRAINT "prompt_usage_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The runtime API's cache invalidation (issue 15). Every app process keeps resolved prompts and keys
-- in memory and LISTENs on `promptly_runtime`; these triggers send what changed in the transaction of
-- the change, whatever code (or cascade) makes it, so a process never misses a write. PostgreSQL
-- delivers a notification on commit and folds equal payloads of one transaction into one.
-- Payloads: `team:<id>` (drop that team's prompts and keys), `key:<id>` (drop that key).
CREATE FUNCTION "promptly_runtime_notify_prompt"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('promptly_runtime', 'team:' || OLD."team_id");
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW."team_id" <> OLD."team_id") THEN
    PERFORM pg_notify('promptly_runtime', 'team:' || NEW."team_id");
  END IF;
  RETURN NULL;
END $$;

-- Only the columns an answer holds: bookmark and rating counters and search vectors change nothing served.
CREATE TRIGGER "prompts_runtime_notify_update" AFTER UPDATE ON "prompts" FOR EACH ROW
  WHEN (OLD."team_id" IS DISTINCT FROM NEW."team_id" OR OLD."name" IS DISTINCT FROM NEW."name"
     OR OLD."title" IS DISTINCT FROM NEW."title" OR OLD."tags" IS DISTINCT FROM NEW."tags"
     OR OLD."visibility" IS DISTINCT FROM NEW."visibility" OR OLD."latest_version" IS DISTINCT FROM NEW."latest_version"
     OR OLD."archived_at" IS DISTINCT FROM NEW."archived_at" OR OLD."updated_at" IS DISTINCT FROM NEW."updated_at")
  EXECUTE FUNCTION "promptly_runtime_notify_prompt"();
CREATE TRIGGER "prompts_runtime_notify_insert_delete" AFTER INSERT OR DELETE ON "prompts" FOR EACH ROW
  EXECUTE FUNCTION "promptly_runtime_notify_prompt"();

-- A label names a version of one prompt: its team is the prompt's (gone already when the prompt is
-- deleted, and then the prompt's own trigger has told).
CREATE FUNCTION "promptly_runtime_notify_label"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  team uuid;
BEGIN
  SELECT "team_id" INTO team FROM "prompts" WHERE "id" = (CASE WHEN TG_OP = 'DELETE' THEN OLD."prompt_id" ELSE NEW."prompt_id" END);
  IF team IS NOT NULL THEN
    PERFORM pg_notify('promptly_runtime', 'team:' || team);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "prompt_labels_runtime_notify" AFTER INSERT OR UPDATE OR DELETE ON "prompt_labels" FOR EACH ROW
  EXECUTE FUNCTION "promptly_runtime_notify_label"();

-- A key is dropped when what decides its requests changes (revoked, expiry, labels, scopes) or it is
-- deleted; last_used_at moves once a minute and decides nothing.
CREATE FUNCTION "promptly_runtime_notify_api_key"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('promptly_runtime', 'key:' || OLD."id");
  RETURN NULL;
END $$;

CREATE TRIGGER "api_keys_runtime_notify_update" AFTER UPDATE ON "api_keys" FOR EACH ROW
  WHEN (OLD."revoked_at" IS DISTINCT FROM NEW."revoked_at" OR OLD."expires_at" IS DISTINCT FROM NEW."expires_at"
     OR OLD."labels" IS DISTINCT FROM NEW."labels" OR OLD."scopes" IS DISTINCT FROM NEW."scopes"
     OR OLD."team_id" IS DISTINCT FROM NEW."team_id" OR OLD."key_hash" IS DISTINCT FROM NEW."key_hash")
  EXECUTE FUNCTION "promptly_runtime_notify_api_key"();
CREATE TRIGGER "api_keys_runtime_notify_delete" AFTER DELETE ON "api_keys" FOR EACH ROW
  EXECUTE FUNCTION "promptly_runtime_notify_api_key"();
