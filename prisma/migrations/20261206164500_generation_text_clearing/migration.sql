-- AlterTable
ALTER TABLE "teams" ADD COLUMN     "generation_text_cleared_before" TIMESTAMPTZ(3);

-- Generations still holding text, per team and start: housekeeping finds what it must clear of a team
-- that stopped keeping text without reading the team's other generations.
CREATE INDEX "generations_text_idx" ON "generations"("team_id", "started_at") WHERE "input" IS NOT NULL OR "output" IS NOT NULL;

-- Teams that stopped keeping text before this: what they still hold is cleared too.
UPDATE "teams" t SET "generation_text_cleared_before" = now()
 WHERE NOT t."keep_generation_text" AND EXISTS (SELECT 1 FROM "generations" g WHERE g."team_id" = t."id" AND (g."input" IS NOT NULL OR g."output" IS NOT NULL));
