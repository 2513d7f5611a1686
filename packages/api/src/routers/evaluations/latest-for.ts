import { evaluationSummary, latestEvaluationInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { latestEvaluation } from "../../services/evaluations/evaluations.ts";

/** The latest finished evaluation that ran all these versions on the same cases, or null (a change request's evidence; every reader of the prompt). */
export const latestFor = promptProcedure("read", byPromptId)
  .input(latestEvaluationInput)
  .output(evaluationSummary.nullable())
  .query(({ ctx, input }) => latestEvaluation(ctx.db, ctx.prompt.id, input.versions));
