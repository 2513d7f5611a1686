-- A version is immutable whatever code runs: no UPDATE and no DELETE of a version row typed by hand.
-- What still passes is what the foreign keys do themselves (trigger depth > 1): ON DELETE SET NULL of
-- the author when an account is deleted (nothing else may change), and ON DELETE CASCADE when the
-- whole prompt is deleted.
CREATE OR REPLACE FUNCTION "prompt_versions_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() > 1 THEN
    IF TG_OP = 'DELETE' THEN
      RETURN OLD;
    END IF;
    IF NEW."author_id" IS NULL AND (to_jsonb(NEW) - 'author_id') = (to_jsonb(OLD) - 'author_id') THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'prompt versions are immutable: save a new version instead' USING ERRCODE = 'restrict_violation';
END $$;

DROP TRIGGER "prompt_versions_immutable" ON "prompt_versions";
CREATE TRIGGER "prompt_versions_immutable" BEFORE UPDATE OR DELETE ON "prompt_versions"
  FOR EACH ROW EXECUTE FUNCTION "prompt_versions_immutable"();
