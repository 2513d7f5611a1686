-- The generations whose usage is known (input or output tokens said) per rollup row: the mean tokens per
-- generation is taken over them, as the mean cost is over cost_count, so one that reported no usage does
-- not count as 0 tokens.

-- AlterTable
ALTER TABLE "generation_rollups" ADD COLUMN     "token_count" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "generation_rollups_daily" ADD COLUMN     "token_count" INTEGER NOT NULL DEFAULT 0;

-- The rows already summed cannot tell which of their generations reported usage (the generations behind
-- them may be gone past retention): every one is taken as having reported it, the mean read as before.
-- Each table is set alike, without the daily trigger (the days are the sums of their hours either way).
ALTER TABLE "generation_rollups" DISABLE TRIGGER generation_rollups_daily_sum;
UPDATE generation_rollups SET token_count = generations;
UPDATE generation_rollups_daily SET token_count = generations;
ALTER TABLE "generation_rollups" ENABLE TRIGGER generation_rollups_daily_sum;

-- production_scale's trigger, token_count summed too.
CREATE OR REPLACE FUNCTION production_rollup_daily() RETURNS trigger
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
      input_tokens = d.input_tokens - OLD.input_tokens, output_tokens = d.output_tokens - OLD.output_tokens, token_count = d.token_count - OLD.token_count,
      cost = d.cost - OLD.cost, cost_count = d.cost_count - OLD.cost_count, cost_sum_squares = d.cost_sum_squares - OLD.cost_sum_squares
     WHERE d.prompt_id = OLD.prompt_id AND d.version = OLD.version AND d.environment = OLD.environment AND d.model = OLD.model
       AND d.day = date_bin('1 day', OLD.hour, origin);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO generation_rollups_daily AS d (prompt_id, version, environment, model, day, generations, errors, latency_sum, latency_count,
      ttft_sum, ttft_count, latency_hist, ttft_hist, input_tokens, output_tokens, token_count, cost, cost_count, cost_sum_squares)
    VALUES (NEW.prompt_id, NEW.version, NEW.environment, NEW.model, date_bin('1 day', NEW.hour, origin), NEW.generations, NEW.errors, NEW.latency_sum,
      NEW.latency_count, NEW.ttft_sum, NEW.ttft_count, coalesce(NEW.latency_hist, '{}'), coalesce(NEW.ttft_hist, '{}'), NEW.input_tokens, NEW.output_tokens,
      NEW.token_count, NEW.cost, NEW.cost_count, NEW.cost_sum_squares)
    ON CONFLICT (prompt_id, version, environment, model, day) DO UPDATE SET
      generations = d.generations + EXCLUDED.generations, errors = d.errors + EXCLUDED.errors,
      latency_sum = d.latency_sum + EXCLUDED.latency_sum, latency_count = d.latency_count + EXCLUDED.latency_count,
      ttft_sum = d.ttft_sum + EXCLUDED.ttft_sum, ttft_count = d.ttft_count + EXCLUDED.ttft_count,
      latency_hist = production_hist_add(d.latency_hist, EXCLUDED.latency_hist), ttft_hist = production_hist_add(d.ttft_hist, EXCLUDED.ttft_hist),
      input_tokens = d.input_tokens + EXCLUDED.input_tokens, output_tokens = d.output_tokens + EXCLUDED.output_tokens, token_count = d.token_count + EXCLUDED.token_count,
      cost = d.cost + EXCLUDED.cost, cost_count = d.cost_count + EXCLUDED.cost_count, cost_sum_squares = d.cost_sum_squares + EXCLUDED.cost_sum_squares;
  END IF;
  RETURN NULL;
END;
$$;
