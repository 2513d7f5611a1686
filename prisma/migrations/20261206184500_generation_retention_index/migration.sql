-- Housekeeping deletes an organization's generations past its retention a batch at a time, oldest first:
-- found through this index (on every month's partition) instead of by reading whole months.
CREATE INDEX "generations_organization_id_started_at_idx" ON "generations"("organization_id", "started_at");
