import { compareEvaluationInput } from "@promptly/shared";
import { byEvaluation, promptProcedure } from "../../procedures.ts";
import { compareEvaluation, evaluationComparison } from "../../services/evaluations/evaluations.ts";

/** The cases that flipped between two versions of an evaluation (passed on one, failed on the other), a page at a time, with both outputs cut short (every reader of the prompt). */
export const compare = promptProcedure("read", byEvaluation)
  .input(compareEvaluationInput)
  .output(evaluationComparison)
  .query(({ ctx, input }) => compareEvaluation(ctx.db, input));
