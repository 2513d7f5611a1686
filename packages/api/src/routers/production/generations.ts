import { generationPage, productionGenerationsInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { listGenerations, readsGenerationText } from "../../services/production/generations.ts";

/** The prompt's generations, newest first, a page at a time, with their scores (every reader of the prompt; the judge's reasons as the text is read). */
export const generations = promptProcedure("read", byPromptId)
  .input(productionGenerationsInput)
  .output(generationPage)
  .query(({ ctx, input }) => listGenerations(ctx.db, ctx.prompt.id, input, ctx.now(), readsGenerationText(ctx.caller, ctx.prompt.access)));
