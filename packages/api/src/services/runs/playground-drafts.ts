// Staged playground drafts: an edited body (template or messages, and a conversation's turns) too long
// to travel in a run's URL is posted first and kept in PostgreSQL (any app process may serve the run),
// then runs name it by id. Only its stager may run it, only on its prompt, until it expires; several
// runs may use it (the playground's columns run one draft at once).
import type { z } from "zod";
import type { DbOrTx, Prisma } from "@promptly/db";
import { PLAYGROUND_DRAFT_TTL_MS, RUN_MSG, stagePlaygroundDraftInput, type PlaygroundDraftBody, type runPromptInput } from "@promptly/shared";
import { fail } from "../../errors.ts";

/** Who stages and runs: a person or a team's API key (a run's actor). */
type DraftActor = { userId?: string | null; apiKeyId?: string | null };
type RunInput = z.output<typeof runPromptInput>;

const draftBody = stagePlaygroundDraftInput.omit({ promptId: true });

/** Keeps the draft for the actor's runs of the prompt; its id is what a run then names. */
export async function stagePlaygroundDraft(db: DbOrTx, actor: DraftActor, promptId: string, body: PlaygroundDraftBody, now: Date): Promise<{ draftId: string }> {
  const row = await db.playgroundDraft.create({
    data: {
      promptId,
      userId: actor.userId ?? null,
      apiKeyId: actor.apiKeyId ?? null,
      body: body as Prisma.InputJsonObject,
      expiresAt: new Date(now.getTime() + PLAYGROUND_DRAFT_TTL_MS),
    },
    select: { id: true },
  });
  return { draftId: row.id };
}

/**
 * The run's input with its staged draft in place of `draftId` (an input without one is returned as it
 * is). A draft that is gone, expired, another's or another prompt's is one answer: it has expired
 * (NOT_FOUND, nothing of another's draft revealed). A draft and an inline body together are refused.
 */
export async function withStagedDraft(db: DbOrTx, actor: DraftActor, promptId: string, input: RunInput, now: Date): Promise<RunInput> {
  if (input.draftId === undefined) return input;
  if (input.template !== undefined || input.messages !== undefined || input.followUp !== undefined) {
    return fail("INVALID", RUN_MSG.draftWithInline, "DRAFT_WITH_INLINE");
  }
  const row = await db.playgroundDraft.findUnique({
    where: { id: input.draftId },
    select: { promptId: true, userId: true, apiKeyId: true, body: true, expiresAt: true },
  });
  const stagedByActor = row !== null && (actor.apiKeyId ? row.apiKeyId === actor.apiKeyId : row.userId === (actor.userId ?? null));
  if (!row || !stagedByActor || row.promptId !== promptId || row.expiresAt <= now) return fail("NOT_FOUND", RUN_MSG.draftExpired, "DRAFT_EXPIRED");
  const { draftId: _draftId, ...rest } = input;
  return { ...rest, ...draftBody.parse(row.body) };
}
