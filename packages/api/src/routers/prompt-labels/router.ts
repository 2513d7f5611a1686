import { removeLabelInput, setLabelInput } from "@promptly/shared";
import { router } from "../../trpc.ts";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { removeLabel, setLabel } from "../../services/prompts.ts";

export const promptLabelsRouter = router({
  /** Points a label at a version (a rollback points it at an older one); `production` needs team admin level. */
  set: promptProcedure("write", byPromptId)
    .input(setLabelInput)
    .mutation(({ ctx, input }) => setLabel(ctx.db, ctx.caller, ctx.prompt, input.label, input.version, ctx.now())),

  remove: promptProcedure("write", byPromptId)
    .input(removeLabelInput)
    .mutation(({ ctx, input }) => removeLabel(ctx.db, ctx.prompt, input.label, ctx.now())),
});
