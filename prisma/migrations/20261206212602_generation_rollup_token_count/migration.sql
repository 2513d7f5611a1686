-- The generations whose usage is known (input or output tokens said) per rollup row: the mean tokens per
-- generation is taken over them, as the mean cost is over cost_count, so one that reported no usage does
-- not count as 0 tokens.

-- A row summed before this column existed keeps it null, read as its generations (it cannot tell which of
-- them reported usage: the generations behind it may be gone past retention), so its mean reads as before.
-- No row is rewritten: on a large database an UPDATE of every row would hold both tables (and every merge
-- and read of them) for its whole run. A writer adding to a null one starts from its generations.
-- AlterTable
ALTER TABLE "generation_rollups" ADD COLUMN     "token_count" INTEGER;

-- AlterTable
ALTER TABLE "generation_rollups_daily" ADD COLUMN     "token_count" INTEGER;

-- production_scale's trigger, token_count summed too (a null one as its generations).
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
      input_tokens = d.input_tokens - OLD.input_tokens, output_tokens = d.output_tokens - OLD.output_tokens, token_count = coalesce(d.token_count, d.generations) - coalesce(OLD.token_count, OLD.generations),
      cost = d.cost - OLD.cost, cost_count = d.cost_count - OLD.cost_count, cost_sum_squares = d.cost_sum_squares - OLD.cost_sum_squares
     WHERE d.prompt_id = OLD.prompt_id AND d.version = OLD.version AND d.environment = OLD.environment AND d.model = OLD.model
       AND d.day = date_bin('1 day', OLD.hour, origin);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO generation_rollups_daily AS d (prompt_id, version, environment, model, day, generations, errors, latency_sum, latency_count,
      ttft_sum, ttft_count, latency_hist, ttft_hist, input_tokens, output_tokens, token_count, cost, cost_count, cost_sum_squares)
    VALUES (NEW.prompt_id, NEW.version, NEW.environment, NEW.model, date_bin('1 day', NEW.hour, origin), NEW.generations, NEW.errors, NEW.latency_sum,
      NEW.latency_count, NEW.ttft_sum, NEW.ttft_count, coalesce(NEW.latency_hist, '{}'), coalesce(NEW.ttft_hist, '{}'), NEW.input_tokens, NEW.output_tokens,
      coalesce(NEW.token_count, NEW.generations), NEW.cost, NEW.cost_count, NEW.cost_sum_squares)
    ON CONFLICT (prompt_id, version, environment, model, day) DO UPDATE SET
      generations = d.generations + EXCLUDED.generations, errors = d.errors + EXCLUDED.errors,
      latency_sum = d.latency_sum + EXCLUDED.latency_sum, latency_count = d.latency_count + EXCLUDED.latency_count,
      ttft_sum = d.ttft_sum + EXCLUDED.ttft_sum, ttft_count = d.ttft_count + EXCLUDED.ttft_count,
      latency_hist = production_hist_add(d.latency_hist, EXCLUDED.latency_hist), ttft_hist = production_hist_add(d.ttft_hist, EXCLUDED.ttft_hist),
      input_tokens = d.input_tokens + EXCLUDED.input_tokens, output_tokens = d.output_tokens + EXCLUDED.output_tokens, token_count = coalesce(d.token_count, d.generations) + EXCLUDED.token_count,
      cost = d.cost + EXCLUDED.cost, cost_count = d.cost_count + EXCLUDED.cost_count, cost_sum_squares = d.cost_sum_squares + EXCLUDED.cost_sum_squares;
  END IF;
  RETURN NULL;
END;
$$;
