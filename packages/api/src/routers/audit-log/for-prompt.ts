import { promptActivityInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { listPromptActivity, promptActivityPage } from "../../services/insight/audit-log.ts";

/** A prompt's activity, newest first a page at a time, for anyone who reads the prompt. */
export const forPrompt = promptProcedure("read", byPromptId)
  .input(promptActivityInput)
  .output(promptActivityPage)
  .query(({ ctx, input }) => listPromptActivity(ctx.db, ctx.prompt.id, input.cursor));
