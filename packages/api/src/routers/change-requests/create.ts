import { z } from "zod";
import { createChangeRequestInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { createChangeRequest } from "../../services/reviews/change-requests.ts";

/** An editor asks for `production` to point at a version; the team's admins review it. */
export const create = promptProcedure("write", byPromptId)
  .input(createChangeRequestInput)
  .output(z.object({ id: z.string() }))
  .mutation(({ ctx, input }) => createChangeRequest(ctx.db, ctx.caller, ctx.prompt, input, ctx.now(), ctx.audit));
