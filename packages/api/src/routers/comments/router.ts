// comments.*: comments on a prompt. Readers of the prompt may read and write them; who
// may edit or delete one is canOnComment's (packages/shared), checked in the service under the row's lock.
import { z } from "zod";
import { createCommentInput, deleteCommentInput, listCommentsInput, listRepliesInput, mentionCandidatesInput, updateCommentInput } from "@promptly/shared";
import { router } from "../../trpc.ts";
import { byComment, byPromptId, promptProcedure } from "../../procedures.ts";
import {
  commentPage, createComment, deleteComment, listComments, listReplies, mentionCandidate, mentionCandidates, replyPage, updateComment,
} from "../../services/reviews/comments.ts";

export const commentsRouter = router({
  /** Threads newest first, 20 a page, each with its newest 50 replies and how many it has. */
  list: promptProcedure("read", byPromptId)
    .input(listCommentsInput)
    .output(commentPage)
    .query(({ ctx, input }) => listComments(ctx.db, ctx.prompt, input.cursor)),

  /** One thread's earlier replies, 50 a page going back, each page oldest first: those comments.list leaves out. */
  replies: promptProcedure("read", byComment)
    .input(listRepliesInput)
    .output(replyPage)
    .query(({ ctx, input }) => listReplies(ctx.db, ctx.prompt, input.id, input.cursor)),

  /** Counted per author (RATE_LIMITS): past the limit, TOO_MANY_REQUESTS and nothing is stored. */
  create: promptProcedure("read", byPromptId)
    .input(createCommentInput)
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) =>
      createComment(ctx.db, { rateLimiter: ctx.rateLimits, rateLimits: ctx.config.rateLimits }, ctx.caller, ctx.prompt, input, ctx.now())),

  /** The author's own comment only. An edit that mentions someone anew is counted as create is; one that notifies nobody is not. */
  update: promptProcedure("read", byComment)
    .input(updateCommentInput)
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) =>
      updateComment(ctx.db, { rateLimiter: ctx.rateLimits, rateLimits: ctx.config.rateLimits }, ctx.caller, ctx.prompt, input.id, input.body, ctx.now())),

  /** The author's own, or anyone's at team admin level (`comment.moderate`). */
  delete: promptProcedure("read", byComment)
    .input(deleteCommentInput)
    .output(z.object({ id: z.string(), kept: z.enum(["stub", "nothing"]) }))
    .mutation(({ ctx, input }) => deleteComment(ctx.db, ctx.prompt, input.id, ctx.now())),

  /** The `@` autocomplete: members of the prompt's organization who may read it, at most 10. */
  mentionCandidates: promptProcedure("read", byPromptId)
    .input(mentionCandidatesInput)
    .output(z.array(mentionCandidate))
    .query(({ ctx, input }) => mentionCandidates(ctx.db, ctx.caller, ctx.prompt, input.q)),
});
