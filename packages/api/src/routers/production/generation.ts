import { generationForPerson, productionGenerationInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { getGeneration } from "../../services/production/generations.ts";
import { ownThumbsOn } from "../../services/production/thumbs.ts";

/** One generation of the prompt with its scores, the caller's own thumbs, and its input and output when the team keeps them (every reader of the prompt). */
export const generation = promptProcedure("read", byPromptId)
  .input(productionGenerationInput)
  .output(generationForPerson)
  .query(async ({ ctx, input }) => {
    const [detail, ownThumbs] = await Promise.all([getGeneration(ctx.db, ctx.prompt.id, input.id), ownThumbsOn(ctx.db, ctx.caller, { generationId: input.id })]);
    return { ...detail, ownThumbs };
  });
