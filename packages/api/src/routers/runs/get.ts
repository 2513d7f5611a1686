import { can } from "@promptly/shared";
import { byPromptRun, promptProcedure } from "../../procedures.ts";
import { getPromptRun, promptRunItem } from "../../services/runs/runs.ts";

/** One run, with what was sent and answered (every reader of its prompt; key names to those who manage the team's keys). */
export const get = promptProcedure("read", byPromptRun)
  .output(promptRunItem)
  .query(({ ctx, input }) => getPromptRun(ctx.db, ctx.prompt.id, input.id, can(ctx.prompt.access, "apiKey.manage")));
