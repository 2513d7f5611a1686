import { evaluationIdInput, evaluationSummary } from "@promptly/shared";
import { byEvaluation, promptProcedure } from "../../procedures.ts";
import { getEvaluation } from "../../services/evaluations/evaluations.ts";

/** An evaluation's progress and per-version figures (every reader of the prompt). */
export const get = promptProcedure("read", byEvaluation)
  .input(evaluationIdInput)
  .output(evaluationSummary)
  .query(({ ctx, input }) => getEvaluation(ctx.db, input.id));
