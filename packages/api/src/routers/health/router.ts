import { z } from "zod";
import { router } from "../../trpc.ts";
import { publicProcedure } from "../../procedures.ts";
import { checkHealth } from "../../services/health.ts";

const part = z.enum(["ok", "error"]);

export const healthRouter = router({
  /** Same report as GET /api/health. */
  check: publicProcedure
    .output(
      z.object({
        status: part,
        db: part,
        storage: part,
        mail: part,
        outbox: z.object({ depth: z.number(), oldestAgeSeconds: z.number(), failed: z.number() }).nullable(),
      }),
    )
    .query(({ ctx }) => checkHealth(ctx)),
});
