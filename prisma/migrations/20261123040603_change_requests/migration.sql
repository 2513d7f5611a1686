-- CreateEnum
CREATE TYPE "change_request_status" AS ENUM ('open', 'approved', 'rejected', 'withdrawn', 'stale');

-- CreateEnum
CREATE TYPE "change_request_decision" AS ENUM ('approved', 'rejected');

-- AlterTable
ALTER TABLE "teams" ADD COLUMN     "required_approvals" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "change_requests" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "prompt_id" UUID NOT NULL,
    "label" TEXT NOT NULL,
    "base_version" INTEGER,
    "proposed_version" INTEGER NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',
    "author_id" UUID,
    "status" "change_request_status" NOT NULL DEFAULT 'open',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "change_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "change_request_reviews" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "change_request_id" UUID NOT NULL,
    "reviewer_id" UUID,
    "decision" "change_request_decision" NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "change_request_reviews_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "change_requests_prompt_id_status_idx" ON "change_requests"("prompt_id", "status");

-- CreateIndex
CREATE INDEX "change_requests_status_created_at_idx" ON "change_requests"("status", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "change_request_reviews_change_request_id_reviewer_id_key" ON "change_request_reviews"("change_request_id", "reviewer_id");

-- AddForeignKey
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_prompt_id_proposed_version_fkey" FOREIGN KEY ("prompt_id", "proposed_version") REFERENCES "prompt_versions"("prompt_id", "version") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "change_request_reviews" ADD CONSTRAINT "change_request_reviews_change_request_id_fkey" FOREIGN KEY ("change_request_id") REFERENCES "change_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "change_request_reviews" ADD CONSTRAINT "change_request_reviews_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;


-- What Prisma's schema cannot say (issue 16).
ALTER TABLE "teams" ADD CONSTRAINT "teams_required_approvals_range" CHECK ("required_approvals" BETWEEN 0 AND 3);
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_message_length" CHECK (char_length("message") <= 2000);
ALTER TABLE "change_request_reviews" ADD CONSTRAINT "change_request_reviews_comment_length" CHECK (char_length("comment") <= 2000);
