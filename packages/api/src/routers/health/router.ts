import { router } from "../../trpc.ts";
import { publicProcedure } from "../../procedures.ts";
import { checkHealth, healthReport } from "../../services/platform/health.ts";

export const healthRouter = router({
  /** Same report as GET /api/health. */
  check: publicProcedure.output(healthReport).query(({ ctx }) => checkHealth(ctx)),
});
