import { evaluationIdInput } from "@promptly/shared";
import { byEvaluation, promptProcedure } from "../../procedures.ts";
import { evaluationResults, evaluationResultsOf } from "../../services/evaluations/evaluations.ts";

/** The matrix of cases x versions: each output, each assertion's verdict and reason, latency, tokens, cost (every reader of the prompt). */
export const results = promptProcedure("read", byEvaluation)
  .input(evaluationIdInput)
  .output(evaluationResults)
  .query(({ ctx, input }) => evaluationResultsOf(ctx.db, input.id));
