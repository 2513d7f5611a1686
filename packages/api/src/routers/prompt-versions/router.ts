import { createVersionInput, listVersionsInput } from "@promptly/shared";
import { z } from "zod";
import { router } from "../../trpc.ts";
import { KEYS_TOO, byPromptId, promptProcedure } from "../../procedures.ts";
import { createVersion, listVersions } from "../../services/prompts/prompt-versions.ts";
import { versionHistoryPage } from "../../services/prompts/prompt-shapes.ts";

export const promptVersionsRouter = router({
  /** A new immutable version (team editor level; a private prompt's author). Lint errors refuse it. */
  create: promptProcedure("write", byPromptId, KEYS_TOO)
    .input(createVersionInput)
    .output(z.object({ version: z.number() }))
    .mutation(({ ctx, input }) => createVersion(ctx.db, ctx.caller, ctx.prompt, input, ctx.now(), ctx.audit)),

  /** The history, newest first; `cursor` is the last version of the previous page. */
  list: promptProcedure("read", byPromptId, KEYS_TOO)
    .input(listVersionsInput)
    .output(versionHistoryPage)
    .query(({ ctx, input }) => listVersions(ctx.db, ctx.prompt.id, input.cursor, input.limit)),
});
