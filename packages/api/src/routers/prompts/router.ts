// prompts.*: the library's prompts. Who may do what is the procedure builders' and
// canOnPrompt's; handlers call the prompts service. KEYS_TOO: a team's API key may call it too.
import { z } from "zod";
import {
  bulkPromptsInput, createPromptInput, getPromptInput, listPromptsInput, nameAvailableInput, promptFacetsInput, renamePromptInput, updatePromptInput,
} from "@promptly/shared";
import { router } from "../../trpc.ts";
import { KEYS_TOO, protectedProcedure, byOrganizationId, byPrompt, byTeamId, organizationResourceProcedure, organizationStatementProcedure, promptProcedure, promptStatementProcedure, teamResourceProcedure } from "../../procedures.ts";
import { getPrompt, listPrompts, promptFacets } from "../../services/prompts/prompt-reads.ts";
import { promptDetail, promptPage } from "../../services/prompts/prompt-shapes.ts";
import { createPrompt, deletePrompt, isNameAvailable, renamePrompt, setArchived, updatePrompt } from "../../services/prompts/prompt-writes.ts";
import { readableTeamIn } from "../../services/prompts/prompt-places.ts";
import { bulkPrompts, bulkResult } from "../../services/prompts/bulk.ts";

const archivedState = z.object({ archivedAt: z.date().nullable() });

export const promptsRouter = router({
  /** The prompts the caller may read in an organization, filtered, searched and sorted; keyset pages. */
  list: organizationStatementProcedure("organization.read", byOrganizationId, KEYS_TOO)
    .input(listPromptsInput)
    .output(promptPage)
    .query(async ({ ctx, input }) => {
      if (input.teamId) await readableTeamIn(ctx.db, ctx.caller, input.organizationId, input.teamId);
      return listPrompts(ctx.db, ctx.caller, { ...input, organizationId: ctx.organizationId }, ctx.decideOrganization);
    }),

  /** Folders and tags of the readable prompts, for the list's filters. */
  facets: organizationResourceProcedure("organization.read", byOrganizationId, KEYS_TOO)
    .input(promptFacetsInput)
    .query(async ({ ctx, input }) => {
      if (input.teamId) await readableTeamIn(ctx.db, ctx.caller, input.organizationId, input.teamId);
      return promptFacets(ctx.db, ctx.caller, input.organizationId, input.teamId);
    }),

  get: promptStatementProcedure("read", byPrompt, KEYS_TOO)
    .input(getPromptInput)
    .output(promptDetail)
    .query(({ ctx, input }) => getPrompt(ctx.db, ctx.caller, ctx.promptId, ctx.decidePrompt, input)),

  /** Creating a prompt takes team editor level. The prompt and its version 1 are written together. */
  create: teamResourceProcedure("prompt.write", byTeamId, KEYS_TOO)
    .input(createPromptInput)
    .output(z.object({ id: z.string(), name: z.string(), version: z.literal(1) }))
    .mutation(async ({ ctx, input }) => {
      const created = await createPrompt(ctx.db, ctx.caller, ctx.team, input, ctx.now(), ctx.audit);
      return { ...created, version: 1 as const };
    }),

  /** Whether a name is free in a team (the editor asks as the author types). */
  nameAvailable: teamResourceProcedure("prompt.write", byTeamId, KEYS_TOO)
    .input(nameAvailableInput)
    .query(({ ctx, input }) => isNameAvailable(ctx.db, ctx.team.teamId, input.name)),

  update: promptProcedure("write", byPrompt, KEYS_TOO)
    .input(updatePromptInput)
    .mutation(({ ctx, input }) => updatePrompt(ctx.db, ctx.prompt, input, ctx.now(), ctx.audit)),

  rename: promptProcedure("rename", byPrompt)
    .input(renamePromptInput)
    .mutation(({ ctx, input }) => renamePrompt(ctx.db, ctx.prompt, input.name, ctx.now(), ctx.audit)),

  archive: promptProcedure("archive", byPrompt)
    .output(archivedState)
    .mutation(({ ctx }) => setArchived(ctx.db, ctx.prompt, true, ctx.now(), ctx.audit)),

  restore: promptProcedure("archive", byPrompt)
    .output(archivedState)
    .mutation(({ ctx }) => setArchived(ctx.db, ctx.prompt, false, ctx.now(), ctx.audit)),

  /** For good; archived prompts only. */
  delete: promptProcedure("delete", byPrompt).mutation(({ ctx }) => deletePrompt(ctx.db, ctx.prompt, ctx.audit)),

  /**
   * One action on many prompts, in one transaction: each prompt is checked with canOnPrompt
   * for the action's ability, and any refusal refuses all (applied: false, naming each refused prompt).
   */
  bulk: protectedProcedure
    .input(bulkPromptsInput)
    .output(bulkResult)
    .mutation(({ ctx, input }) => bulkPrompts(ctx.db, ctx.caller, input.promptIds, input.action, ctx.now(), ctx.audit)),
});
