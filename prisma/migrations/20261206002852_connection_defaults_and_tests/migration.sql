-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "default_connection_id" UUID;

-- AlterTable
ALTER TABLE "teams" ADD COLUMN     "default_connection_id" UUID;

-- AlterTable
ALTER TABLE "provider_connections" ADD COLUMN     "last_test_error" TEXT,
ADD COLUMN     "last_test_ok" BOOLEAN,
ADD COLUMN     "last_tested_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "prompt_runs" ADD COLUMN     "error_detail" TEXT;

-- AlterTable
ALTER TABLE "evaluation_items" ADD COLUMN     "error_detail" TEXT;

-- AddForeignKey
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_default_connection_id_fkey" FOREIGN KEY ("default_connection_id") REFERENCES "provider_connections"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "teams" ADD CONSTRAINT "teams_default_connection_id_fkey" FOREIGN KEY ("default_connection_id") REFERENCES "provider_connections"("id") ON DELETE SET NULL ON UPDATE CASCADE;

