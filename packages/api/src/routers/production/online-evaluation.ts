import { z } from "zod";
import { idSchema, onlineEvaluationAnswer, setOnlineEvaluationInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { router } from "../../trpc.ts";
import { getOnlineEvaluation, setOnlineEvaluation } from "../../services/evaluations/online.ts";

/**
 * The prompt's online evaluation: every reader sees it; setting it spends on the team's model
 * connections without a review, so it takes what moving a protected label takes (a team admin).
 */
export const onlineEvaluation = router({
  get: promptProcedure("read", byPromptId)
    .input(z.object({ promptId: idSchema }))
    .output(onlineEvaluationAnswer)
    .query(({ ctx }) => getOnlineEvaluation(ctx.db, ctx.prompt.id, ctx.now())),
  set: promptProcedure("label.protected", byPromptId)
    .input(setOnlineEvaluationInput)
    .output(onlineEvaluationAnswer)
    .mutation(({ ctx, input }) => setOnlineEvaluation(ctx.db, ctx.prompt, input, ctx.audit)),
});
