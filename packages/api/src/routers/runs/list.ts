import { listRunsInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { listPromptRuns, promptRunPage } from "../../services/models/runs.ts";

/** A prompt's runs, newest first, filtered by version, model and status (every reader of the prompt). */
export const list = promptProcedure("read", byPromptId)
  .input(listRunsInput)
  .output(promptRunPage)
  .query(({ ctx, input }) => listPromptRuns(ctx.db, { ...input, promptId: ctx.prompt.id }));
