import { z } from "zod";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { listPromptActivity, promptActivityItem } from "../../services/insight/audit-log.ts";

/** A prompt's activity in time order, for anyone who reads the prompt. */
export const forPrompt = promptProcedure("read", byPromptId)
  .output(z.array(promptActivityItem))
  .query(({ ctx }) => listPromptActivity(ctx.db, ctx.prompt.id));
