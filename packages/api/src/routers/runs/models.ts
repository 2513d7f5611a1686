import { z } from "zod";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { promptRunModels } from "../../services/runs/runs.ts";

/** The models a prompt's runs used, for the Runs tab's model filter (every reader of the prompt). */
export const models = promptProcedure("read", byPromptId)
  .output(z.array(z.string()))
  .query(({ ctx }) => promptRunModels(ctx.db, ctx.prompt.id));
