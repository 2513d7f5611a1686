import { generationForPerson, productionGenerationInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { getGeneration, readsGenerationText } from "../../services/production/generations.ts";
import { ownThumbsOn } from "../../services/production/thumbs.ts";

/**
 * One generation of the prompt with its scores and the caller's own thumbs (every reader of the prompt), and
 * its input and output when the team keeps them, to its team's members and organization admins only.
 */
export const generation = promptProcedure("read", byPromptId)
  .input(productionGenerationInput)
  .output(generationForPerson)
  .query(async ({ ctx, input }) => {
    const [detail, ownThumbs] = await Promise.all([getGeneration(ctx.db, ctx.prompt.id, input.id, readsGenerationText(ctx.caller, ctx.prompt.access)), ownThumbsOn(ctx.db, ctx.caller, { generationId: input.id })]);
    return { ...detail, ownThumbs };
  });
