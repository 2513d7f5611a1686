-- Search indexes that start with the organization: a search in one organization reads only that
-- organization's entries of the full-text and trigram indexes (btree_gin lets a GIN index hold the
-- uuid). Measured by `npm run bench -- prompts` at 100,000 prompts in 10 organizations.
-- Written by hand (Prisma's schema cannot say a GIN index over a uuid and a tsvector or trigrams):
-- the drift test ignores indexes named *_fts and *_trgm, and the prompt tests check that search works.
CREATE EXTENSION IF NOT EXISTS btree_gin;
DROP INDEX "prompts_search_vector_idx";
DROP INDEX "prompts_title_trgm";
DROP INDEX "prompts_name_trgm";
CREATE INDEX "prompts_organization_id_search_vector_fts" ON "prompts" USING GIN ("organization_id", "search_vector");
CREATE INDEX "prompts_organization_id_title_trgm" ON "prompts" USING GIN ("organization_id", "title" gin_trgm_ops);
CREATE INDEX "prompts_organization_id_name_trgm" ON "prompts" USING GIN ("organization_id", "name" gin_trgm_ops);
