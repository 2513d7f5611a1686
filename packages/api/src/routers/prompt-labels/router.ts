import { removeLabelInput, setLabelInput } from "@promptly/shared";
import { router } from "../../trpc.ts";
import { KEYS_TOO, byPromptId, promptLabelProcedure } from "../../procedures.ts";
import { removeLabel, setLabel } from "../../services/prompts/prompt-labels.ts";

export const promptLabelsRouter = router({
  /** Points a label at a version (a rollback points it at an older one); `production` needs team admin level. */
  set: promptLabelProcedure(byPromptId, KEYS_TOO)
    .input(setLabelInput)
    .mutation(({ ctx, input }) => setLabel(ctx.db, ctx.prompt, input.label, input.version, ctx.now(), ctx.audit)),

  remove: promptLabelProcedure(byPromptId, KEYS_TOO)
    .input(removeLabelInput)
    .mutation(({ ctx, input }) => removeLabel(ctx.db, ctx.prompt, input.label, ctx.now(), ctx.audit)),
});
