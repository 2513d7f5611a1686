import { z } from "zod";
import { endSplitInput, removeLabelInput, setLabelInput, splitLabelInput } from "@promptly/shared";
import { router } from "../../trpc.ts";
import { KEYS_TOO, byPromptId, promptLabelProcedure, promptProcedure } from "../../procedures.ts";
import { productionRollbacks, removeLabel, setLabel } from "../../services/prompts/prompt-labels.ts";
import { endSplitOrRequest, splitOrRequest } from "../../services/reviews/label-splits.ts";

/** A split or its end: applied now, or (where the team reviews `production`) the change request that applies it once approved. */
const splitAnswer = z.object({ applied: z.boolean(), changeRequestId: z.string().nullable() });

/** The versions `production` may be rolled back to (they held it before), newest first. */
const rollbackTargets = z.object({ versions: z.array(z.number()) });

export const promptLabelsRouter = router({
  /**
   * Points a label at a version; `production` needs team admin level, and no review required unless it is
   * a rollback (back to a version that held it before, audited as `prompt.label.rolled_back`).
   */
  set: promptLabelProcedure(byPromptId, KEYS_TOO)
    .input(setLabelInput)
    .mutation(({ ctx, input }) => setLabel(ctx.db, ctx.prompt, input.label, input.version, ctx.now(), ctx.audit)),

  /** Readers of the prompt: which versions held `production` before and could take it back (the History tab's Roll back). */
  rollbackTargets: promptProcedure("read", byPromptId)
    .output(rollbackTargets)
    .query(({ ctx }) => productionRollbacks(ctx.db, ctx.prompt.id)),

  remove: promptLabelProcedure(byPromptId, KEYS_TOO)
    .input(removeLabelInput)
    .mutation(({ ctx, input }) => removeLabel(ctx.db, ctx.prompt, input.label, ctx.now(), ctx.audit)),

  /** A split release: the label keeps its version and serves another to `weight` percent of fetches; a move of the label like any other. */
  split: promptLabelProcedure(byPromptId, KEYS_TOO)
    .input(splitLabelInput)
    .output(splitAnswer)
    .mutation(({ ctx, input }) => splitOrRequest(ctx.db, ctx.caller, ctx.prompt, input.label, input.version, input.weight, ctx.now(), ctx.audit)),

  /**
   * Ends a split in one move: promote its candidate, or roll back to the label's version alone. With `expected`
   * (the split the caller saw), a split changed since is refused (CONFLICT) and nothing is moved or asked.
   */
  endSplit: promptLabelProcedure(byPromptId, KEYS_TOO)
    .input(endSplitInput)
    .output(splitAnswer)
    .mutation(({ ctx, input }) => endSplitOrRequest(ctx.db, ctx.caller, ctx.prompt, input.label, input, ctx.now(), ctx.audit)),
});
