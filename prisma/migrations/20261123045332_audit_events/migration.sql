-- CreateEnum
CREATE TYPE "audit_actor_kind" AS ENUM ('user', 'api_key', 'cli');

-- CreateTable
CREATE TABLE "audit_events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID,
    "team_id" UUID,
    "prompt_id" UUID,
    "actor_kind" "audit_actor_kind" NOT NULL,
    "actor_id" UUID,
    "actor_name" TEXT,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "target_name" TEXT,
    "before" JSONB,
    "after" JSONB,
    "ip" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "seq" BIGSERIAL NOT NULL,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_events_organization_id_created_at_seq_idx" ON "audit_events"("organization_id", "created_at" DESC, "seq" DESC);

-- CreateIndex
CREATE INDEX "audit_events_prompt_id_created_at_seq_idx" ON "audit_events"("prompt_id", "created_at", "seq");


-- The audit trail is append-only whatever code runs, the table's owner included: no UPDATE, no DELETE,
-- no TRUNCATE. Nothing refers to it and it refers to nothing (plain ids, no foreign keys), so deleting
-- an organization, a user or a prompt never touches it.
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit events are append-only: % is refused', TG_OP USING ERRCODE = 'restrict_violation';
END $$;

CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();
