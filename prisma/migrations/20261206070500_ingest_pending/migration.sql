-- CreateTable
CREATE TABLE "ingest_pending" (
    "id" BIGSERIAL NOT NULL,
    "team_id" UUID NOT NULL,
    "shard" SMALLINT NOT NULL DEFAULT 0,
    "caller" JSONB NOT NULL,
    "source" TEXT NOT NULL,
    "sent" TEXT NOT NULL,
    "dropped" INTEGER NOT NULL DEFAULT 0,
    "generations" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ingest_pending_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ingest_pending_team_id_shard_id_idx" ON "ingest_pending"("team_id", "shard", "id");

-- AddForeignKey
ALTER TABLE "ingest_pending" ADD CONSTRAINT "ingest_pending_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
