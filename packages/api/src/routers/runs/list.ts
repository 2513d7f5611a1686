import { can, listRunsInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { listPromptRuns, promptRunPage } from "../../services/runs/runs.ts";

/** A prompt's runs, newest first, filtered by version, model and status (every reader of the prompt; key names to those who manage the team's keys). */
export const list = promptProcedure("read", byPromptId)
  .input(listRunsInput)
  .output(promptRunPage)
  .query(({ ctx, input }) => listPromptRuns(ctx.db, { ...input, promptId: ctx.prompt.id }, can(ctx.prompt.access, "apiKey.manage")));
