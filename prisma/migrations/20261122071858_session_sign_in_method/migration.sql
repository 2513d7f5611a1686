-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "sign_in_method" "sign_in_method" NOT NULL DEFAULT 'password';

