-- CreateTable
CREATE TABLE "prompt_usage_daily" (
    "prompt_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "count" BIGINT NOT NULL,

    CONSTRAINT "prompt_usage_daily_pkey" PRIMARY KEY ("prompt_id","day","label")
);

-- CreateIndex
CREATE INDEX "prompt_usage_daily_prompt_id_day_label_count_idx" ON "prompt_usage_daily"("prompt_id", "day", "label", "count");

-- AddForeignKey
ALTER TABLE "prompt_usage_daily" ADD CONSTRAINT "prompt_usage_daily_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- What exists so far, summed.
INSERT INTO "prompt_usage_daily" ("prompt_id", "day", "label", "count")
SELECT "prompt_id", "day", "label", sum("count") FROM "prompt_usage" GROUP BY 1, 2, 3;

-- Every change of prompt_usage moves the rollup by the same amount, in the same statement: a flush
-- (INSERT ... ON CONFLICT DO UPDATE SET count = count + excluded.count) adds its delta; a usage row
-- deleted with its API key takes its count away. A deleted prompt takes its rollup rows with it (FK).
CREATE FUNCTION promptly_usage_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE prompt_usage_daily SET count = count - OLD.count
    WHERE prompt_id = OLD.prompt_id AND day = OLD.day AND label = OLD.label;
    RETURN OLD;
  END IF;
  INSERT INTO prompt_usage_daily (prompt_id, day, label, count)
  VALUES (NEW.prompt_id, NEW.day, NEW.label, NEW.count - CASE WHEN TG_OP = 'UPDATE' THEN OLD.count ELSE 0 END)
  ON CONFLICT (prompt_id, day, label) DO UPDATE SET count = prompt_usage_daily.count + EXCLUDED.count;
  RETURN NEW;
END $$;

CREATE TRIGGER prompt_usage_rollup AFTER INSERT OR UPDATE OR DELETE ON "prompt_usage"
FOR EACH ROW EXECUTE FUNCTION promptly_usage_rollup();
