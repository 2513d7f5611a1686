import { generationDetail, productionGenerationInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { getGeneration } from "../../services/production/generations.ts";

/** One generation of the prompt with its scores, and its input and output when the team keeps them (every reader of the prompt). */
export const generation = promptProcedure("read", byPromptId)
  .input(productionGenerationInput)
  .output(generationDetail)
  .query(({ ctx, input }) => getGeneration(ctx.db, ctx.prompt.id, input.id));
