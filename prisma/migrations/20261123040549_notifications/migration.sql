-- CreateEnum
CREATE TYPE "notification_kind" AS ENUM ('comment', 'reply', 'mention', 'review_requested', 'review_decided', 'production_moved', 'team_added', 'invite_accepted');

-- AlterEnum
ALTER TYPE "mail_kind" ADD VALUE 'notification';

-- CreateTable
CREATE TABLE "notifications" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "kind" "notification_kind" NOT NULL,
    "actor_id" UUID,
    "prompt_id" UUID,
    "team_id" UUID,
    "comment_id" UUID,
    "change_request_id" UUID,
    "data" JSONB NOT NULL DEFAULT '{}',
    "in_app" BOOLEAN NOT NULL DEFAULT true,
    "read_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notifications_user_id_in_app_created_at_id_idx" ON "notifications"("user_id", "in_app", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "notifications_user_id_read_at_idx" ON "notifications"("user_id", "read_at");

-- CreateIndex
CREATE INDEX "notifications_prompt_id_idx" ON "notifications"("prompt_id");

-- CreateIndex
CREATE INDEX "notifications_team_id_idx" ON "notifications"("team_id");

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

