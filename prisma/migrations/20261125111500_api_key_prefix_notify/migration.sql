-- Every app process keeps the beginnings (the stored prefix) of all API keys, so that an address past
-- its limit of unknown keys is refused without a query only for keys that begin like no stored key.
-- A new key (or a changed prefix) is announced on the runtime channel as `key-prefix:<prefix>`.
CREATE FUNCTION "promptly_runtime_notify_api_key_prefix"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('promptly_runtime', 'key-prefix:' || NEW."prefix");
  RETURN NULL;
END $$;

CREATE TRIGGER "api_keys_runtime_notify_prefix" AFTER INSERT OR UPDATE OF "prefix" ON "api_keys" FOR EACH ROW
  EXECUTE FUNCTION "promptly_runtime_notify_api_key_prefix"();
