import { evaluationIdInput, evaluationSummary } from "@promptly/shared";
import { byEvaluation, promptProcedure } from "../../procedures.ts";
import { retryEvaluationErrors } from "../../services/evaluations/evaluations.ts";

/** Runs the evaluation's cases in error again, in the same evaluation, once it has ended (those who may start evaluations: who may run the prompt). */
export const retryErrors = promptProcedure("run", byEvaluation)
  .input(evaluationIdInput)
  .output(evaluationSummary)
  .mutation(({ ctx, input }) => retryEvaluationErrors(ctx, input.id));
