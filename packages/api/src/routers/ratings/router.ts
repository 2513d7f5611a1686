import { setRatingInput } from "@promptly/shared";
import { router } from "../../trpc.ts";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { setRating } from "../../services/prompts/bookmarks-ratings.ts";

/** Any reader but the author rates a prompt 1-5 stars. */
export const ratingsRouter = router({
  set: promptProcedure("rate", byPromptId)
    .input(setRatingInput)
    .mutation(({ ctx, input }) => setRating(ctx.db, ctx.caller, ctx.prompt.id, input.stars, ctx.now())),
  clear: promptProcedure("rate", byPromptId).mutation(({ ctx }) => setRating(ctx.db, ctx.caller, ctx.prompt.id, null, ctx.now())),
});
