-- A rollup row keeps the fold of a score's less frequent values under "(other)", which no value's key takes
-- any more: a value of the form "(other)", "\(other)", "\\(other)", ... is now kept with one more "\" in
-- front (packages/api/src/services/production/score-categories.ts). A key already of the form "\(other)",
-- "\\(other)", ... is such a value as it was sent: it gets its "\" too. "(other)" itself stays the fold (a
-- value sent as "(other)" before this was counted with it, past telling apart).
UPDATE score_rollups r
   SET categories = (SELECT jsonb_object_agg(CASE WHEN c.key ~ '^\\+\(other\)$' THEN '\' || c.key ELSE c.key END, c.value)
                       FROM jsonb_each(r.categories) c)
 WHERE EXISTS (SELECT 1 FROM jsonb_object_keys(r.categories) k WHERE k ~ '^\\+\(other\)$');
