// A prompt as its rules see it (its facts and the caller's access in its team), loaded for the procedure builders.
import type { DbOrTx } from "@promptly/db";
import { accessOf, type OrganizationRole, type PromptAccess, type PromptFacts, type TeamRole } from "@promptly/shared";
import type { Caller } from "../access/access.ts";
import { promptVisibility } from "../access/visibility.ts";

/** A prompt as its rules see it, with the caller's access in its team. */
export interface LoadedPrompt {
  id: string;
  teamId: string;
  organizationId: string;
  archived: boolean;
  facts: PromptFacts;
  access: PromptAccess;
}

/** Null when there is no such prompt; whether the caller may read it is canOnPrompt's to say. */
export async function loadPrompt(db: DbOrTx, caller: Caller, promptId: string): Promise<LoadedPrompt | null> {
  const { joins } = promptVisibility(caller);
  const [row] = await db.$queryRaw<
    { teamId: string; organizationId: string; visibility: PromptFacts["visibility"]; authorId: string | null; archived: boolean; teamRole: TeamRole | null; organizationRole: OrganizationRole | null }[]
  >`
    SELECT p.team_id::text AS "teamId", p.organization_id::text AS "organizationId", p.visibility::text AS visibility,
           p.author_id::text AS "authorId", p.archived_at IS NOT NULL AS archived,
           my_tm.role::text AS "teamRole", my_om.role::text AS "organizationRole"
    FROM prompts p ${joins}
    WHERE p.id = ${promptId}::uuid`;
  // A key knows nothing outside its team, and no archived prompt (as on /api/v1): for it, the prompt does not exist.
  if (!row || (caller.apiKey && (row.teamId !== caller.apiKey.teamId || row.archived))) return null;
  return {
    id: promptId,
    teamId: row.teamId,
    organizationId: row.organizationId,
    archived: row.archived,
    facts: { visibility: row.visibility, authorId: row.authorId },
    access: { ...accessOf(caller, { teamRole: row.teamRole, organizationRole: row.organizationRole }), userId: caller.userId },
  };
}
