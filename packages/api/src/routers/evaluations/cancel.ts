import { evaluationIdInput, evaluationSummary } from "@promptly/shared";
import { byEvaluation, promptProcedure } from "../../procedures.ts";
import { cancelEvaluation } from "../../services/evaluations/evaluations.ts";

/** Stops a queued or running evaluation: its remaining cases are cancelled and the calls in flight aborted (those who may run the prompt). */
export const cancel = promptProcedure("run", byEvaluation)
  .input(evaluationIdInput)
  .output(evaluationSummary)
  .mutation(({ ctx, input }) => cancelEvaluation(ctx.db, input.id));
