import { startEvaluationInput, evaluationSummary } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { runActorOf } from "../../services/runs/runs.ts";
import { startEvaluation } from "../../services/evaluations/evaluations.ts";

/** Runs every test case of the prompt against each chosen version, on the job queue (those who may run the prompt: editor level). */
export const start = promptProcedure("run", byPromptId)
  .input(startEvaluationInput)
  .output(evaluationSummary)
  .mutation(({ ctx, input }) => startEvaluation(ctx, runActorOf(ctx.caller), ctx.prompt, input));
