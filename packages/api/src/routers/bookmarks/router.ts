import { router } from "../../trpc.ts";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { addBookmark, removeBookmark } from "../../services/prompts/bookmarks-ratings.ts";

/** Anyone who may read a prompt may bookmark it; both are idempotent. */
export const bookmarksRouter = router({
  add: promptProcedure("read", byPromptId).mutation(({ ctx }) => addBookmark(ctx.db, ctx.caller, ctx.prompt.id, ctx.now())),
  remove: promptProcedure("read", byPromptId).mutation(({ ctx }) => removeBookmark(ctx.db, ctx.caller, ctx.prompt.id)),
});
