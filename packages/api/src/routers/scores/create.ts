import { createScoreInput } from "@promptly/shared";
import { z } from "zod";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { giveThumbs } from "../../services/production/thumbs.ts";

/** A thumbs up or down, with an optional comment, on a generation or a run of the prompt (every reader of the prompt): a second one replaces the first. */
export const create = promptProcedure("read", byPromptId)
  .input(createScoreInput)
  .output(z.object({ id: z.string() }))
  .mutation(({ ctx, input }) => giveThumbs(ctx.db, ctx.caller, ctx.prompt, input));
