import { evaluationResultsInput } from "@promptly/shared";
import { byEvaluation, promptProcedure } from "../../procedures.ts";
import { evaluationResults, evaluationResultsOf } from "../../services/evaluations/evaluations.ts";

/** The matrix of cases x versions, a page of cases at a time: each output (cut short), each assertion's verdict and reason, latency, tokens, cost (every reader of the prompt). */
export const results = promptProcedure("read", byEvaluation)
  .input(evaluationResultsInput)
  .output(evaluationResults)
  .query(({ ctx, input }) => evaluationResultsOf(ctx.db, input));
