-- Production at scale: the spread of cost per generation in the rollups (for comparing two versions'
-- mean cost), and how long each organization keeps generations' own rows.

-- AlterTable
ALTER TABLE "generation_rollups" ADD COLUMN     "cost_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "cost_sum_squares" DOUBLE PRECISION NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "generation_retention_days" INTEGER NOT NULL DEFAULT 90;

-- The rollups already stored get their count and sum of squares of costs from the generations still kept.
UPDATE generation_rollups r SET cost_sum_squares = g.squares, cost_count = g.costed
  FROM (SELECT prompt_id, version, environment, coalesce(model, '') AS model, date_bin('1 hour', started_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS hour, sum(cost * cost) AS squares, count(*) AS costed
          FROM generations WHERE prompt_id IS NOT NULL AND version IS NOT NULL AND cost IS NOT NULL
         GROUP BY 1, 2, 3, 4, 5) g
 WHERE r.prompt_id = g.prompt_id AND r.version = g.version AND r.environment = g.environment AND r.model = g.model AND r.hour = g.hour;

ALTER TABLE "organizations" ADD CONSTRAINT "organizations_generation_retention_days_check" CHECK ("generation_retention_days" BETWEEN 1 AND 3650);

-- CreateTable
CREATE TABLE "generation_rollups_daily" (
    "prompt_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "environment" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "day" TIMESTAMPTZ(3) NOT NULL,
    "generations" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,
    "latency_sum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "latency_count" INTEGER NOT NULL DEFAULT 0,
    "ttft_sum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "ttft_count" INTEGER NOT NULL DEFAULT 0,
    "latency_hist" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "ttft_hist" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "input_tokens" BIGINT NOT NULL DEFAULT 0,
    "output_tokens" BIGINT NOT NULL DEFAULT 0,
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "cost_count" INTEGER NOT NULL DEFAULT 0,
    "cost_sum_squares" DOUBLE PRECISION NOT NULL DEFAULT 0,

    CONSTRAINT "generation_rollups_daily_pkey" PRIMARY KEY ("prompt_id","version","environment","model","day")
);

-- AddForeignKey
ALTER TABLE "generation_rollups_daily" ADD CONSTRAINT "generation_rollups_daily_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A histogram times -1: an hourly row's earlier counts taken out of its day.
CREATE FUNCTION production_hist_negate(a integer[]) RETURNS integer[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(-n ORDER BY i), '{}') FROM unnest(a) WITH ORDINALITY AS u(n, i)
$$;

-- Keeps generation_rollups_daily the sum of generation_rollups per UTC day, whoever writes the hourly
-- rows (ingestion's upserts, a recompute, a test): the new row's figures go into its day, the old
-- row's come out. A deleted hourly row only updates its day (a day gone with its prompt stays gone).
CREATE FUNCTION production_rollup_daily() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  origin CONSTANT timestamptz := TIMESTAMPTZ '2000-01-01 00:00:00+00';
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE generation_rollups_daily d SET
      generations = d.generations - OLD.generations, errors = d.errors - OLD.errors,
      latency_sum = d.latency_sum - OLD.latency_sum, latency_count = d.latency_count - OLD.latency_count,
      ttft_sum = d.ttft_sum - OLD.ttft_sum, ttft_count = d.ttft_count - OLD.ttft_count,
      latency_hist = production_hist_add(d.latency_hist, production_hist_negate(OLD.latency_hist)),
      ttft_hist = production_hist_add(d.ttft_hist, production_hist_negate(OLD.ttft_hist)),
      input_tokens = d.input_tokens - OLD.input_tokens, output_tokens = d.output_tokens - OLD.output_tokens,
      cost = d.cost - OLD.cost, cost_count = d.cost_count - OLD.cost_count, cost_sum_squares = d.cost_sum_squares - OLD.cost_sum_squares
     WHERE d.prompt_id = OLD.prompt_id AND d.version = OLD.version AND d.environment = OLD.environment AND d.model = OLD.model
       AND d.day = date_bin('1 day', OLD.hour, origin);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO generation_rollups_daily AS d (prompt_id, version, environment, model, day, generations, errors, latency_sum, latency_count,
      ttft_sum, ttft_count, latency_hist, ttft_hist, input_tokens, output_tokens, cost, cost_count, cost_sum_squares)
    VALUES (NEW.prompt_id, NEW.version, NEW.environment, NEW.model, date_bin('1 day', NEW.hour, origin), NEW.generations, NEW.errors, NEW.latency_sum,
      NEW.latency_count, NEW.ttft_sum, NEW.ttft_count, coalesce(NEW.latency_hist, '{}'), coalesce(NEW.ttft_hist, '{}'), NEW.input_tokens, NEW.output_tokens,
      NEW.cost, NEW.cost_count, NEW.cost_sum_squares)
    ON CONFLICT (prompt_id, version, environment, model, day) DO UPDATE SET
      generations = d.generations + EXCLUDED.generations, errors = d.errors + EXCLUDED.errors,
      latency_sum = d.latency_sum + EXCLUDED.latency_sum, latency_count = d.latency_count + EXCLUDED.latency_count,
      ttft_sum = d.ttft_sum + EXCLUDED.ttft_sum, ttft_count = d.ttft_count + EXCLUDED.ttft_count,
      latency_hist = production_hist_add(d.latency_hist, EXCLUDED.latency_hist), ttft_hist = production_hist_add(d.ttft_hist, EXCLUDED.ttft_hist),
      input_tokens = d.input_tokens + EXCLUDED.input_tokens, output_tokens = d.output_tokens + EXCLUDED.output_tokens,
      cost = d.cost + EXCLUDED.cost, cost_count = d.cost_count + EXCLUDED.cost_count, cost_sum_squares = d.cost_sum_squares + EXCLUDED.cost_sum_squares;
  END IF;
  RETURN NULL;
END;
$$;

-- Histograms summed over rows, bucket by bucket.
CREATE AGGREGATE production_hist_sum(integer[]) (SFUNC = production_hist_add, STYPE = integer[], INITCOND = '{}');

-- The days of the hourly rows already stored (before the trigger, which then keeps them).
INSERT INTO generation_rollups_daily (prompt_id, version, environment, model, day, generations, errors, latency_sum, latency_count, ttft_sum, ttft_count,
  latency_hist, ttft_hist, input_tokens, output_tokens, cost, cost_count, cost_sum_squares)
SELECT prompt_id, version, environment, model, date_bin('1 day', hour, TIMESTAMPTZ '2000-01-01 00:00:00+00'), sum(generations), sum(errors),
       sum(latency_sum), sum(latency_count), sum(ttft_sum), sum(ttft_count), production_hist_sum(coalesce(latency_hist, '{}')),
       production_hist_sum(coalesce(ttft_hist, '{}')), sum(input_tokens), sum(output_tokens), sum(cost), sum(cost_count), sum(cost_sum_squares)
  FROM generation_rollups
 GROUP BY 1, 2, 3, 4, 5;

CREATE TRIGGER generation_rollups_daily_sum AFTER INSERT OR UPDATE OR DELETE ON generation_rollups
  FOR EACH ROW EXECUTE FUNCTION production_rollup_daily();
