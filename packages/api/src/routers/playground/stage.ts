import { z } from "zod";
import { stagePlaygroundDraftInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { stagePlaygroundDraft } from "../../services/runs/playground-drafts.ts";
import { runActorOf } from "../../services/runs/runs.ts";

/**
 * Stages an edited body (template or messages, and a conversation's turns) for `playground.run`, whose
 * input travels in the event stream's URL: posted here, where its size is no problem, it is run by id.
 * Asked by whoever may run the prompt; the draft is theirs, for this prompt, for 15 minutes.
 */
export const stage = promptProcedure("run", byPromptId)
  .input(stagePlaygroundDraftInput)
  .output(z.object({ draftId: z.string() }))
  .mutation(({ ctx, input: { promptId: _promptId, ...body } }) => stagePlaygroundDraft(ctx.db, runActorOf(ctx.caller), ctx.prompt.id, body, ctx.now()));
