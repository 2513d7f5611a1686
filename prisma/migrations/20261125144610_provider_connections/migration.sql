-- CreateEnum
CREATE TYPE "provider_kind" AS ENUM ('openai', 'anthropic', 'openai_compatible');

-- CreateTable
CREATE TABLE "provider_connections" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "kind" "provider_kind" NOT NULL,
    "name" TEXT NOT NULL,
    "base_url" TEXT,
    "api_key_sealed" TEXT NOT NULL,
    "api_key_last4" TEXT NOT NULL,
    "models" TEXT[],
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_connection_teams" (
    "connection_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,

    CONSTRAINT "provider_connection_teams_pkey" PRIMARY KEY ("connection_id","team_id")
);

-- CreateTable
CREATE TABLE "model_prices" (
    "organization_id" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "input_per_million" DOUBLE PRECISION NOT NULL,
    "output_per_million" DOUBLE PRECISION NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "model_prices_pkey" PRIMARY KEY ("organization_id","model")
);

-- CreateIndex
CREATE UNIQUE INDEX "provider_connections_organization_id_name_key" ON "provider_connections"("organization_id", "name");

-- CreateIndex
CREATE INDEX "provider_connection_teams_team_id_idx" ON "provider_connection_teams"("team_id");

-- AddForeignKey
ALTER TABLE "provider_connections" ADD CONSTRAINT "provider_connections_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_connections" ADD CONSTRAINT "provider_connections_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_connection_teams" ADD CONSTRAINT "provider_connection_teams_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "provider_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_connection_teams" ADD CONSTRAINT "provider_connection_teams_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "model_prices" ADD CONSTRAINT "model_prices_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

