import { productionCompareInput, productionComparison } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { compareProductionVersions } from "../../services/production/metrics.ts";

/** Two versions (or a split label's two) compared on each production figure, each with its sentence (every reader of the prompt). */
export const compare = promptProcedure("read", byPromptId)
  .input(productionCompareInput)
  .output(productionComparison)
  .query(({ ctx, input }) => compareProductionVersions(ctx.db, ctx.prompt.id, input, ctx.now()));
