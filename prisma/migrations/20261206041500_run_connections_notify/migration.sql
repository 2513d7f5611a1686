-- Every app process keeps, for the API's runs, each team's organization, its default connections and
-- the connections open to it (findTeamRunConnections), so a run reads none of them before the
-- provider is called. Any change to what such an entry holds is announced on the runtime channel in
-- the writing transaction, once per statement: `run-connections`, and each process drops them all
-- (connections change seldom; a run's reads are many).
CREATE FUNCTION "promptly_runtime_notify_run_connections"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('promptly_runtime', 'run-connections');
  RETURN NULL;
END $$;

CREATE TRIGGER "provider_connections_run_connections_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "provider_connections"
  FOR EACH STATEMENT EXECUTE FUNCTION "promptly_runtime_notify_run_connections"();
CREATE TRIGGER "provider_connection_teams_run_connections_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "provider_connection_teams"
  FOR EACH STATEMENT EXECUTE FUNCTION "promptly_runtime_notify_run_connections"();
CREATE TRIGGER "teams_run_connections_notify" AFTER UPDATE OF "default_connection_id", "organization_id" OR DELETE OR TRUNCATE ON "teams"
  FOR EACH STATEMENT EXECUTE FUNCTION "promptly_runtime_notify_run_connections"();
CREATE TRIGGER "organizations_run_connections_notify" AFTER UPDATE OF "default_connection_id" OR DELETE OR TRUNCATE ON "organizations"
  FOR EACH STATEMENT EXECUTE FUNCTION "promptly_runtime_notify_run_connections"();
