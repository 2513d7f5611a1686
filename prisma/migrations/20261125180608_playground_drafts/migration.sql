-- CreateTable
CREATE TABLE "playground_drafts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "prompt_id" UUID NOT NULL,
    "user_id" UUID,
    "api_key_id" UUID,
    "body" JSONB NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "playground_drafts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "playground_drafts_expires_at_idx" ON "playground_drafts"("expires_at");

-- AddForeignKey
ALTER TABLE "playground_drafts" ADD CONSTRAINT "playground_drafts_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "playground_drafts" ADD CONSTRAINT "playground_drafts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "playground_drafts" ADD CONSTRAINT "playground_drafts_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- A draft is staged by exactly one of a person or an API key: only that one may run it.
ALTER TABLE "playground_drafts" ADD CONSTRAINT "playground_drafts_one_stager" CHECK (num_nonnulls("user_id", "api_key_id") = 1);
