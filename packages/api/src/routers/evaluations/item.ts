import { evaluationItemInput } from "@promptly/shared";
import { byEvaluation, promptProcedure } from "../../procedures.ts";
import { evaluationItemOf, evaluationItemWhole } from "../../services/evaluations/evaluations.ts";

/** One case's run on one version whole: its output, its case's variables and expected output (every reader of the prompt; the matrix and comparison show them cut short). */
export const item = promptProcedure("read", byEvaluation)
  .input(evaluationItemInput)
  .output(evaluationItemWhole)
  .query(({ ctx, input }) => evaluationItemOf(ctx.db, ctx.prompt.id, input));
