-- A claim finished without evaluating (the evaluation turned off, the prompt archived, the text no longer
-- kept) is `skipped`, not `done`: "evaluated today" counts the done ones alone. Those finished so far stay done.
ALTER TABLE "online_evaluation_runs" DROP CONSTRAINT "online_evaluation_runs_status_check";
ALTER TABLE "online_evaluation_runs" ADD CONSTRAINT "online_evaluation_runs_status_check" CHECK ("status" IN ('queued', 'judging', 'judged', 'done', 'skipped'));
