-- CreateTable
CREATE TABLE "prompt_comments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "prompt_id" UUID NOT NULL,
    "version" INTEGER,
    "parent_id" UUID,
    "author_id" UUID,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "edited_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "prompt_comments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comment_mentions" (
    "comment_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,

    CONSTRAINT "comment_mentions_pkey" PRIMARY KEY ("comment_id","user_id")
);

-- CreateIndex
CREATE INDEX "prompt_comments_prompt_id_created_at_id_idx" ON "prompt_comments"("prompt_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "prompt_comments_parent_id_created_at_idx" ON "prompt_comments"("parent_id", "created_at");

-- CreateIndex
CREATE INDEX "prompt_comments_author_id_idx" ON "prompt_comments"("author_id");

-- CreateIndex
CREATE INDEX "comment_mentions_user_id_idx" ON "comment_mentions"("user_id");

-- AddForeignKey
ALTER TABLE "prompt_comments" ADD CONSTRAINT "prompt_comments_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_comments" ADD CONSTRAINT "prompt_comments_prompt_id_version_fkey" FOREIGN KEY ("prompt_id", "version") REFERENCES "prompt_versions"("prompt_id", "version") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_comments" ADD CONSTRAINT "prompt_comments_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "prompt_comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_comments" ADD CONSTRAINT "prompt_comments_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_mentions" ADD CONSTRAINT "comment_mentions_comment_id_fkey" FOREIGN KEY ("comment_id") REFERENCES "prompt_comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_mentions" ADD CONSTRAINT "comment_mentions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;



-- The rules of comments, also for code that bypasses the API: 1-5,000 characters while live; a
-- deleted thread's stub keeps no text.
ALTER TABLE "prompt_comments"
  ADD CONSTRAINT "prompt_comments_body_check" CHECK (
    ("deleted_at" IS NULL AND char_length("body") BETWEEN 1 AND 5000)
    OR ("deleted_at" IS NOT NULL AND "body" = ''));

-- Replies are one level deep and stay on their thread's prompt.
CREATE FUNCTION "prompt_comments_reply_rules"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."parent_id" IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM "prompt_comments" c
     WHERE c."id" = NEW."parent_id" AND c."parent_id" IS NULL AND c."prompt_id" = NEW."prompt_id") THEN
    RAISE EXCEPTION 'a reply answers a top-level comment of the same prompt' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "prompt_comments_reply_rules" BEFORE INSERT OR UPDATE OF "parent_id", "prompt_id" ON "prompt_comments"
  FOR EACH ROW EXECUTE FUNCTION "prompt_comments_reply_rules"();
