import { z } from "zod";
import { createArchiveRequestInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { createArchiveRequest } from "../../services/reviews/change-requests.ts";

/** Who may archive the prompt asks to archive one that carries `production`; the team's admins review it. */
export const createArchive = promptProcedure("archive", byPromptId)
  .input(createArchiveRequestInput)
  .output(z.object({ id: z.string() }))
  .mutation(({ ctx, input }) => createArchiveRequest(ctx.db, ctx.caller, ctx.prompt, input, ctx.now(), ctx.audit));
