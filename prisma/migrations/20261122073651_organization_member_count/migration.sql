-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "member_count" INTEGER NOT NULL DEFAULT 0;


-- Keep member_count equal to the number of organization_members rows, whatever writes them
-- (services, invites, direct SQL). Prisma does not model triggers: they live in migrations only.
UPDATE "organizations" o
   SET "member_count" = (SELECT count(*) FROM "organization_members" m WHERE m."organization_id" = o."id");

CREATE FUNCTION "organization_member_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "organizations" SET "member_count" = "member_count" + 1 WHERE "id" = NEW."organization_id";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "organizations" SET "member_count" = "member_count" - 1 WHERE "id" = OLD."organization_id";
  ELSIF NEW."organization_id" IS DISTINCT FROM OLD."organization_id" THEN
    UPDATE "organizations" SET "member_count" = "member_count" - 1 WHERE "id" = OLD."organization_id";
    UPDATE "organizations" SET "member_count" = "member_count" + 1 WHERE "id" = NEW."organization_id";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "organization_members_count"
AFTER INSERT OR DELETE OR UPDATE OF "organization_id" ON "organization_members"
FOR EACH ROW EXECUTE FUNCTION "organization_member_count"();
