import { z } from "zod";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { listRunConnections, runConnectionItem } from "../../services/models/connections.ts";

/**
 * The connections a prompt may run on, for its playground: those of its organization open to its team.
 * Asked by whoever may run the prompt (providers.list is the organization admins' page, with more in it).
 */
export const connections = promptProcedure("run", byPromptId)
  .output(z.array(runConnectionItem))
  .query(({ ctx }) => listRunConnections(ctx.db, ctx.prompt.organizationId, ctx.prompt.teamId));
