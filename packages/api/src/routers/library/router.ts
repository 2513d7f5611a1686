// library.*: export and import of a team's library. Export needs prompt.read in the team,
// import prompt.write; what each prompt allows (a protected label, a prompt here one cannot change)
// is canOnPrompt's, asked by the library service.
import { exportLibraryInput, importLibraryInput } from "@promptly/shared";
import { router } from "../../trpc.ts";
import { byTeamId, teamResourceProcedure } from "../../procedures.ts";
import { exportFile, exportLibraryFile } from "../../services/prompts/library-export.ts";
import { applyImport, importPlan, previewImport, type LibraryRequest } from "../../services/prompts/library-import.ts";
import type { Caller } from "../../services/access/access.ts";
import type { TeamAccessInfo } from "../../services/access/access.ts";
import type { AuditContext } from "../../services/insight/audit.ts";

const requestOf = (caller: Caller, team: TeamAccessInfo, audit: AuditContext): LibraryRequest => ({
  caller,
  access: { ...team, userId: caller.userId },
  team: { teamId: team.teamId, organizationId: team.organizationId },
  audit,
});

export const libraryRouter = router({
  /** The team's live prompts the caller may read: JSON text, or a zip of Markdown files in base64. */
  export: teamResourceProcedure("prompt.read", byTeamId)
    .input(exportLibraryInput)
    .output(exportFile)
    .query(({ ctx, input }) => exportLibraryFile(ctx.db, ctx.caller, input.teamId, input.format, ctx.now())),

  /** What applying the document would do; changes nothing. */
  previewImport: teamResourceProcedure("prompt.write", byTeamId)
    .input(importLibraryInput)
    .output(importPlan)
    .mutation(({ ctx, input }) => previewImport(ctx.db, requestOf(ctx.caller, ctx.team, ctx.audit), input.document)),

  /** Plans again and applies it in one transaction; any conflict refuses it all. */
  applyImport: teamResourceProcedure("prompt.write", byTeamId)
    .input(importLibraryInput)
    .output(importPlan)
    .mutation(({ ctx, input }) => applyImport(ctx.db, requestOf(ctx.caller, ctx.team, ctx.audit), input.document, ctx.now())),
});
