// testCases.*: a prompt's test cases. Readers of the prompt read them; its editors (prompt.write)
// write them, by hand or by importing a CSV or JSON Lines file. An archived prompt refuses writes.
import { z } from "zod";
import { getTestCaseInput, importTestCasesInput, listTestCasesInput, testCaseIdInput, testCaseInput, updateTestCaseInput } from "@promptly/shared";
import { router } from "../../trpc.ts";
import { byPromptId, byTestCase, promptProcedure } from "../../procedures.ts";
import {
  createTestCase, deleteTestCase, getTestCase, importTestCases, listTestCases, testCaseItem, testCasePreview, updateTestCase,
} from "../../services/evaluations/test-cases.ts";

export const testCasesRouter = router({
  /** Oldest first, each case a preview (its texts cut short): the list of 2,000 large cases stays small. */
  list: promptProcedure("read", byPromptId)
    .input(listTestCasesInput)
    .output(z.array(testCasePreview))
    .query(({ ctx }) => listTestCases(ctx.db, ctx.prompt)),

  /** One case whole (the edit dialog's form). */
  get: promptProcedure("read", byPromptId)
    .input(getTestCaseInput)
    .output(testCaseItem)
    .query(({ ctx, input }) => getTestCase(ctx.db, ctx.prompt, input.id)),

  create: promptProcedure("write", byPromptId)
    .input(testCaseInput)
    .output(testCaseItem)
    .mutation(({ ctx, input }) => createTestCase(ctx.db, ctx.prompt, input, ctx.audit)),

  update: promptProcedure("write", byTestCase)
    .input(updateTestCaseInput)
    .output(testCaseItem)
    .mutation(({ ctx, input }) => updateTestCase(ctx.db, ctx.prompt, input.id, input, ctx.audit)),

  delete: promptProcedure("write", byTestCase)
    .input(testCaseIdInput)
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => deleteTestCase(ctx.db, ctx.prompt, input.id, ctx.audit)),

  /** Every case of the file, or none (bad rows reported by line). */
  import: promptProcedure("write", byPromptId)
    .input(importTestCasesInput)
    .output(z.object({ imported: z.number() }))
    .mutation(({ ctx, input }) => importTestCases(ctx.db, ctx.prompt, input.format, input.content, ctx.audit)),
});
