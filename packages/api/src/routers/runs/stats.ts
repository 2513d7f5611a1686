import { z } from "zod";
import { versionRunStats } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { promptRunStats } from "../../services/insight/run-stats.ts";

/** Per version of a prompt: runs, error rate, p50/p95 total time, mean tokens and cost (every reader of the prompt). */
export const stats = promptProcedure("read", byPromptId)
  .output(z.array(versionRunStats))
  .query(({ ctx }) => promptRunStats(ctx.db, ctx.prompt.id));
