import { byPromptId, promptProcedure } from "../../procedures.ts";
import { chooseTeamRunConnection, runConnectionChoice } from "../../services/models/connections.ts";

/** The connection the prompt's playground starts on, and why (or that none qualifies: pick or test one). */
export const defaultConnection = promptProcedure("run", byPromptId)
  .output(runConnectionChoice)
  .query(({ ctx }) => chooseTeamRunConnection(ctx.db, ctx.prompt.organizationId, ctx.prompt.teamId));
