// A prompt as its rules see it (its facts and the caller's access in its team), loaded for the procedure builders.
import { Prisma, type DbOrTx } from "@promptly/db";
import { accessOf, type OrganizationRole, type PromptAccess, type PromptFacts, type TeamRole } from "@promptly/shared";
import type { Caller } from "../access/access.ts";
import { mayKnowPrompt, promptVisibility } from "../access/visibility.ts";

/** A prompt as its rules see it, with the caller's access in its team. */
export interface LoadedPrompt {
  id: string;
  teamId: string;
  organizationId: string;
  archived: boolean;
  facts: PromptFacts;
  access: PromptAccess;
}

/** The prompt's facts and the caller's roles in its team and organization as one column `access`, for `FROM prompts p ${promptVisibility.joins}`. */
export const accessColumn = Prisma.sql`
  json_build_object('teamId', p.team_id, 'organizationId', p.organization_id, 'visibility', p.visibility,
                    'authorId', p.author_id, 'archived', p.archived_at IS NOT NULL,
                    'teamRole', my_tm.role, 'organizationRole', my_om.role) AS access`;

export interface AccessRow {
  teamId: string;
  organizationId: string;
  visibility: PromptFacts["visibility"];
  authorId: string | null;
  archived: boolean;
  teamRole: TeamRole | null;
  organizationRole: OrganizationRole | null;
}

/** The prompt of an access row (null when there is none); whether the caller may read it is canOnPrompt's to say. */
export function loadedPromptOf(caller: Caller, promptId: string, row: AccessRow | undefined): LoadedPrompt | null {
  // What the caller may not know of (a key: another team's prompt, an archived one) does not exist for it.
  if (!row || !mayKnowPrompt(caller, row)) return null;
  return {
    id: promptId,
    teamId: row.teamId,
    organizationId: row.organizationId,
    archived: row.archived,
    facts: { visibility: row.visibility, authorId: row.authorId },
    access: { ...accessOf(caller, { teamRole: row.teamRole, organizationRole: row.organizationRole }), userId: caller.userId },
  };
}

/** Null when there is no such prompt; whether the caller may read it is canOnPrompt's to say. */
export async function loadPrompt(db: DbOrTx, caller: Caller, promptId: string): Promise<LoadedPrompt | null> {
  const { joins } = promptVisibility(caller);
  const [row] = await db.$queryRaw<{ access: AccessRow }[]>`
    SELECT ${accessColumn}
    FROM prompts p ${joins}
    WHERE p.id = ${promptId}::uuid`;
  return loadedPromptOf(caller, promptId, row?.access);
}

/** A procedure builder's decision on a loaded prompt (null: none): the prompt when the caller may act, else it throws. */
export type PromptDecision = (prompt: LoadedPrompt | null) => LoadedPrompt;
