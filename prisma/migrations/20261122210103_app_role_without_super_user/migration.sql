-- The super user is the profile's flag (profiles.super_user), never a stored role. A stored
-- 'super-user' role never made anyone a super user without the flag, so it becomes plain 'user'.
UPDATE "user_roles" SET "role" = 'user' WHERE "role" = 'super-user';

-- AlterEnum (the runner applies each migration in one transaction)
CREATE TYPE "app_role_new" AS ENUM ('administrator', 'team_lead', 'user');
ALTER TABLE "user_roles" ALTER COLUMN "role" TYPE "app_role_new" USING ("role"::text::"app_role_new");
ALTER TYPE "app_role" RENAME TO "app_role_old";
ALTER TYPE "app_role_new" RENAME TO "app_role";
DROP TYPE "app_role_old";
