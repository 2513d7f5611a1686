import { removeScoreInput } from "@promptly/shared";
import { z } from "zod";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { removeThumbs } from "../../services/production/thumbs.ts";

/** Removes the caller's own thumbs from a generation or a run of the prompt (every reader of the prompt; nobody removes another's). */
export const remove = promptProcedure("read", byPromptId)
  .input(removeScoreInput)
  .output(z.object({ removed: z.boolean() }))
  .mutation(({ ctx, input }) => removeThumbs(ctx.db, ctx.caller, ctx.prompt, input));
