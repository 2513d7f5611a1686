import { createScoreInput } from "@promptly/shared";
import { z } from "zod";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { createPersonScore } from "../../services/production/production-api.ts";

/** A thumbs up or down, with an optional comment, on a generation or a run of the prompt (every reader of the prompt). */
export const create = promptProcedure("read", byPromptId)
  .input(createScoreInput)
  .output(z.object({ id: z.string() }))
  .mutation(({ ctx, input }) => createPersonScore(ctx.db, ctx.caller, ctx.prompt, input));
