import { listEvaluationsInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { evaluationPage, listEvaluations } from "../../services/evaluations/evaluations.ts";

/** A prompt's evaluations, newest first (every reader of the prompt). */
export const list = promptProcedure("read", byPromptId)
  .input(listEvaluationsInput)
  .output(evaluationPage)
  .query(({ ctx, input }) => listEvaluations(ctx.db, { ...input, promptId: ctx.prompt.id }));
