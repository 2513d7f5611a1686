-- Every app process keeps the sessions it served lately with their user's fields (email, profile,
-- app role, session timeout). Any change to what such an entry holds is announced on the runtime
-- channel in the writing transaction: `session:<id>` for a session row (ended, revoked, its
-- activity written), `user:<id>` for the user's row, profile or app role, and `sessions:all` when
-- one of these tables is truncated. Each process drops what changed when it hears it.
CREATE FUNCTION "promptly_session_notify_session"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('promptly_runtime', 'session:' || OLD."id");
  RETURN NULL;
END $$;

CREATE FUNCTION "promptly_session_notify_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('promptly_runtime', 'user:' || OLD."id");
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('promptly_runtime', 'user:' || NEW."user_id");
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('promptly_runtime', 'user:' || OLD."user_id");
  ELSE
    PERFORM pg_notify('promptly_runtime', 'user:' || OLD."user_id");
    IF NEW."user_id" <> OLD."user_id" THEN
      PERFORM pg_notify('promptly_runtime', 'user:' || NEW."user_id");
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION "promptly_session_notify_all"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('promptly_runtime', 'sessions:all');
  RETURN NULL;
END $$;

CREATE TRIGGER "sessions_session_notify" AFTER UPDATE OR DELETE ON "sessions" FOR EACH ROW
  EXECUTE FUNCTION "promptly_session_notify_session"();
CREATE TRIGGER "sessions_session_notify_truncate" AFTER TRUNCATE ON "sessions" FOR EACH STATEMENT
  EXECUTE FUNCTION "promptly_session_notify_all"();

CREATE TRIGGER "users_session_notify_update" AFTER UPDATE ON "users" FOR EACH ROW
  WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION "promptly_session_notify_user"();
CREATE TRIGGER "users_session_notify_delete" AFTER DELETE ON "users" FOR EACH ROW
  EXECUTE FUNCTION "promptly_session_notify_user"();
CREATE TRIGGER "users_session_notify_truncate" AFTER TRUNCATE ON "users" FOR EACH STATEMENT
  EXECUTE FUNCTION "promptly_session_notify_all"();

CREATE TRIGGER "profiles_session_notify" AFTER INSERT OR DELETE ON "profiles" FOR EACH ROW
  EXECUTE FUNCTION "promptly_session_notify_user"();
CREATE TRIGGER "profiles_session_notify_update" AFTER UPDATE ON "profiles" FOR EACH ROW
  WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION "promptly_session_notify_user"();
CREATE TRIGGER "profiles_session_notify_truncate" AFTER TRUNCATE ON "profiles" FOR EACH STATEMENT
  EXECUTE FUNCTION "promptly_session_notify_all"();

CREATE TRIGGER "user_roles_session_notify" AFTER INSERT OR DELETE ON "user_roles" FOR EACH ROW
  EXECUTE FUNCTION "promptly_session_notify_user"();
CREATE TRIGGER "user_roles_session_notify_update" AFTER UPDATE ON "user_roles" FOR EACH ROW
  WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION "promptly_session_notify_user"();
CREATE TRIGGER "user_roles_session_notify_truncate" AFTER TRUNCATE ON "user_roles" FOR EACH STATEMENT
  EXECUTE FUNCTION "promptly_session_notify_all"();
