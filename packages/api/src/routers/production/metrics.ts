import { productionMetrics as metricsAnswer, productionMetricsInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { productionMetrics } from "../../services/production/metrics.ts";

/** The prompt's production figures per version and per chart bucket, from the hourly rollups (every reader of the prompt). */
export const metrics = promptProcedure("read", byPromptId)
  .input(productionMetricsInput)
  .output(metricsAnswer)
  .query(({ ctx, input }) => productionMetrics(ctx.db, ctx.prompt.id, input, ctx.now()));
