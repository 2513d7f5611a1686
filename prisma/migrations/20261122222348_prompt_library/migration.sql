-- CreateEnum
CREATE TYPE "prompt_visibility" AS ENUM ('private', 'team', 'organization');

-- CreateEnum
CREATE TYPE "prompt_type" AS ENUM ('text', 'chat');

-- CreateTable
CREATE TABLE "prompts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "visibility" "prompt_visibility" NOT NULL,
    "author_id" UUID,
    "latest_version" INTEGER NOT NULL DEFAULT 0,
    "bookmark_count" INTEGER NOT NULL DEFAULT 0,
    "rating_count" INTEGER NOT NULL DEFAULT 0,
    "rating_sum" INTEGER NOT NULL DEFAULT 0,
    "rating_average" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "search_vector" tsvector,
    "body_vector" tsvector,
    "archived_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prompts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "prompt_versions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "prompt_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "type" "prompt_type" NOT NULL,
    "template" TEXT,
    "messages" JSONB,
    "variables" JSONB NOT NULL DEFAULT '[]',
    "model" TEXT NOT NULL DEFAULT '',
    "config" JSONB NOT NULL DEFAULT '{}',
    "commit_message" TEXT NOT NULL DEFAULT '',
    "author_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prompt_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "prompt_labels" (
    "prompt_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "moved_by" UUID,
    "moved_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prompt_labels_pkey" PRIMARY KEY ("prompt_id","name")
);

-- CreateTable
CREATE TABLE "prompt_bookmarks" (
    "user_id" UUID NOT NULL,
    "prompt_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prompt_bookmarks_pkey" PRIMARY KEY ("user_id","prompt_id")
);

-- CreateTable
CREATE TABLE "prompt_ratings" (
    "user_id" UUID NOT NULL,
    "prompt_id" UUID NOT NULL,
    "stars" SMALLINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prompt_ratings_pkey" PRIMARY KEY ("user_id","prompt_id")
);

-- CreateIndex
CREATE INDEX "prompts_organization_id_updated_at_id_idx" ON "prompts"("organization_id", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "prompts_organization_id_name_id_idx" ON "prompts"("organization_id", "name", "id");

-- CreateIndex
CREATE INDEX "prompts_organization_id_bookmark_count_id_idx" ON "prompts"("organization_id", "bookmark_count" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "prompts_organization_id_rating_average_id_idx" ON "prompts"("organization_id", "rating_average" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "prompts_author_id_idx" ON "prompts"("author_id");

-- CreateIndex
CREATE INDEX "prompts_search_vector_idx" ON "prompts" USING GIN ("search_vector");

-- CreateIndex
CREATE UNIQUE INDEX "prompts_team_id_name_key" ON "prompts"("team_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "prompt_versions_prompt_id_version_key" ON "prompt_versions"("prompt_id", "version");

-- CreateIndex
CREATE INDEX "prompt_bookmarks_prompt_id_created_at_idx" ON "prompt_bookmarks"("prompt_id", "created_at");

-- CreateIndex
CREATE INDEX "prompt_ratings_prompt_id_idx" ON "prompt_ratings"("prompt_id");

-- AddForeignKey
ALTER TABLE "prompts" ADD CONSTRAINT "prompts_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompts" ADD CONSTRAINT "prompts_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompts" ADD CONSTRAINT "prompts_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_versions" ADD CONSTRAINT "prompt_versions_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_versions" ADD CONSTRAINT "prompt_versions_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_labels" ADD CONSTRAINT "prompt_labels_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_labels" ADD CONSTRAINT "prompt_labels_prompt_id_version_fkey" FOREIGN KEY ("prompt_id", "version") REFERENCES "prompt_versions"("prompt_id", "version") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_labels" ADD CONSTRAINT "prompt_labels_moved_by_fkey" FOREIGN KEY ("moved_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_bookmarks" ADD CONSTRAINT "prompt_bookmarks_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_bookmarks" ADD CONSTRAINT "prompt_bookmarks_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_ratings" ADD CONSTRAINT "prompt_ratings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_ratings" ADD CONSTRAINT "prompt_ratings_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- ---------------------------------------------------------------------------------------------
-- Written by hand: what schema.prisma cannot say. The drift test ignores CHECK constraints and
-- indexes named *_trgm; prompt-library.integration.test.ts checks that they hold.
-- ---------------------------------------------------------------------------------------------

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The rules of the prompt library issue, also for code that bypasses the API.
ALTER TABLE "prompts"
  ADD CONSTRAINT "prompts_name_check" CHECK (
    char_length("name") BETWEEN 1 AND 128
    AND "name" ~ '^[a-z0-9._-]+(/[a-z0-9._-]+)*$'),
  ADD CONSTRAINT "prompts_title_check" CHECK (char_length("title") BETWEEN 1 AND 120),
  ADD CONSTRAINT "prompts_description_check" CHECK (char_length("description") <= 1000),
  ADD CONSTRAINT "prompts_tags_check" CHECK ("tags" IS NOT NULL AND cardinality("tags") <= 10),
  ADD CONSTRAINT "prompts_counters_check" CHECK ("bookmark_count" >= 0 AND "rating_count" >= 0 AND "latest_version" >= 0);
ALTER TABLE "prompt_versions"
  ADD CONSTRAINT "prompt_versions_version_check" CHECK ("version" >= 1),
  ADD CONSTRAINT "prompt_versions_body_check" CHECK (
    ("type" = 'text' AND "template" IS NOT NULL AND "messages" IS NULL)
    OR ("type" = 'chat' AND "template" IS NULL AND jsonb_typeof("messages") = 'array')),
  ADD CONSTRAINT "prompt_versions_config_check" CHECK (jsonb_typeof("config") = 'object'),
  ADD CONSTRAINT "prompt_versions_model_check" CHECK (char_length("model") <= 100),
  ADD CONSTRAINT "prompt_versions_commit_message_check" CHECK (char_length("commit_message") <= 500);
ALTER TABLE "prompt_labels"
  ADD CONSTRAINT "prompt_labels_name_check" CHECK ("name" ~ '^[a-z0-9_.-]{1,36}$' AND "name" <> 'latest');
ALTER TABLE "prompt_ratings"
  ADD CONSTRAINT "prompt_ratings_stars_check" CHECK ("stars" BETWEEN 1 AND 5);

-- Typos and prefixes find things: trigram similarity on title and name.
CREATE INDEX "prompts_title_trgm" ON "prompts" USING GIN ("title" gin_trgm_ops);
CREATE INDEX "prompts_name_trgm" ON "prompts" USING GIN ("name" gin_trgm_ops);

-- A version is immutable whatever code runs. The one UPDATE allowed is the foreign key's own
-- ON DELETE SET NULL of the author (an account deleted), which changes nothing else.
CREATE FUNCTION "prompt_versions_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."author_id" IS NULL AND (to_jsonb(NEW) - 'author_id') = (to_jsonb(OLD) - 'author_id') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'prompt versions are immutable: save a new version instead' USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER "prompt_versions_immutable" BEFORE UPDATE ON "prompt_versions"
  FOR EACH ROW EXECUTE FUNCTION "prompt_versions_immutable"();

-- The search text of a version: the template, or every message's content.
CREATE FUNCTION "prompt_version_text"("template" TEXT, "messages" JSONB) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE("template", (SELECT string_agg(m->>'content', E'\n' ORDER BY ordinality)
                               FROM jsonb_array_elements("messages") WITH ORDINALITY AS e(m, ordinality)), '')
$$;

-- The latest version's text goes into the prompt's search vector (weight C).
CREATE FUNCTION "prompt_versions_index_body"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "prompts" SET "body_vector" = to_tsvector('english', "prompt_version_text"(NEW."template", NEW."messages"))
   WHERE "id" = NEW."prompt_id" AND "latest_version" <= NEW."version";
  RETURN NULL;
END $$;
CREATE TRIGGER "prompt_versions_index_body" AFTER INSERT ON "prompt_versions"
  FOR EACH ROW EXECUTE FUNCTION "prompt_versions_index_body"();

-- Title and name (A: words, and the name's parts between / _ . -), tags (A), description (B), body (C).
CREATE FUNCTION "prompts_search_vector"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."search_vector" :=
       setweight(to_tsvector('english', NEW."title"), 'A')
    || setweight(to_tsvector('simple', NEW."name" || ' ' || translate(NEW."name", '/_.-', '    ')), 'A')
    || setweight(to_tsvector('simple', array_to_string(NEW."tags", ' ')), 'A')
    || setweight(to_tsvector('english', NEW."description"), 'B')
    || setweight(COALESCE(NEW."body_vector", ''::tsvector), 'C');
  RETURN NEW;
END $$;
CREATE TRIGGER "prompts_search_vector" BEFORE INSERT OR UPDATE OF "title", "name", "tags", "description", "body_vector" ON "prompts"
  FOR EACH ROW EXECUTE FUNCTION "prompts_search_vector"();

-- Bookmark and rating counters, kept for sorting.
CREATE FUNCTION "prompt_bookmarks_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "prompts" SET "bookmark_count" = "bookmark_count" + 1 WHERE "id" = NEW."prompt_id";
  ELSE
    UPDATE "prompts" SET "bookmark_count" = "bookmark_count" - 1 WHERE "id" = OLD."prompt_id";
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "prompt_bookmarks_count" AFTER INSERT OR DELETE ON "prompt_bookmarks"
  FOR EACH ROW EXECUTE FUNCTION "prompt_bookmarks_count"();

CREATE FUNCTION "prompt_ratings_count"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "delta_count" INTEGER := 0;
  "delta_sum" INTEGER := 0;
  "target" UUID;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    "delta_count" := "delta_count" + 1; "delta_sum" := "delta_sum" + NEW."stars"; "target" := NEW."prompt_id";
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    "delta_count" := "delta_count" - 1; "delta_sum" := "delta_sum" - OLD."stars"; "target" := OLD."prompt_id";
  END IF;
  UPDATE "prompts"
     SET "rating_count" = "rating_count" + "delta_count",
         "rating_sum" = "rating_sum" + "delta_sum",
         "rating_average" = CASE WHEN "rating_count" + "delta_count" > 0
                                 THEN ("rating_sum" + "delta_sum")::float8 / ("rating_count" + "delta_count") ELSE 0 END
   WHERE "id" = "target";
  RETURN NULL;
END $$;
CREATE TRIGGER "prompt_ratings_count" AFTER INSERT OR UPDATE OF "stars" OR DELETE ON "prompt_ratings"
  FOR EACH ROW EXECUTE FUNCTION "prompt_ratings_count"();
