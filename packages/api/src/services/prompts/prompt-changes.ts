// What every change of a prompt shares: who it is recorded as, a version's body, the audit entry and the live row's lock.
import { Prisma, type DbOrTx, type DbTransaction } from "@promptly/db";
import { versionBodyOf, type CreatePromptInput, type CreateVersionInput } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { auditAs, type AuditAction, type AuditContext } from "../insight/audit.ts";
import { checkVersionSchemas } from "./json-schemas.ts";
import type { LoadedPrompt } from "./loaded-prompt.ts";
import { archivedRefusal, refuse } from "./prompt-rules.ts";

type VersionBody = NonNullable<Extract<ReturnType<typeof versionBodyOf>, { body: unknown }>["body"]>;

/** The version's body; refused (INVALID) when its tools or response schema hold a schema that is not a valid JSON Schema. */
export function bodyOf(fields: CreateVersionInput | CreatePromptInput): VersionBody {
  const found = versionBodyOf(fields);
  if (!("body" in found)) return fail("INVALID", found.problem);
  checkVersionSchemas(fields.tools, fields.responseFormat);
  return found.body;
}

export const versionData = (body: VersionBody, fields: CreateVersionInput | CreatePromptInput, authorId: string | null) => ({
  type: body.type,
  template: body.type === "text" ? body.template : null,
  messages: body.type === "chat" ? (body.messages as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
  variables: (body.variables ?? []) as unknown as Prisma.InputJsonValue,
  model: fields.model ?? "",
  config: (fields.config ?? {}) as Prisma.InputJsonValue,
  tools: (fields.tools ?? []) as Prisma.InputJsonValue,
  responseFormat: fields.responseFormat ? (fields.responseFormat as Prisma.InputJsonValue) : Prisma.DbNull,
  commitMessage: fields.commitMessage ?? "",
  authorId,
});

/** One audit entry about a prompt, in its organization and team. */
export function auditPrompt(
  tx: DbOrTx,
  context: AuditContext,
  prompt: Pick<LoadedPrompt, "id" | "teamId" | "organizationId">,
  action: Exclude<Extract<AuditAction, `prompt.${string}`>, "prompt.create">,
  entry: { name?: string; before?: unknown; after?: unknown },
) {
  return auditAs(tx, context, {
    organizationId: prompt.organizationId,
    teamId: prompt.teamId,
    action,
    target: { type: "prompt", id: prompt.id, name: entry.name ?? null },
    before: entry.before,
    after: entry.after,
  });
}

/**
 * The highest version number the prompt `p` has given: its latest version's, or a deleted newer one's
 * (a deleted version's number is never given again). The next version takes this plus one.
 */
export const numberedUpToSql = Prisma.sql`GREATEST(p.latest_version, COALESCE((SELECT max(d.version) FROM deleted_prompt_versions d WHERE d.prompt_id = p.id), 0))`;

/**
 * Marks a change of a live prompt: updates its time (and, for a new version, takes the next number)
 * under the row's lock, so an archive at the same moment either comes first (CONFLICT) or waits.
 */
export async function touchLivePrompt(tx: DbTransaction, promptId: string, now: Date, options: { nextVersion?: boolean } = {}) {
  const [row] = await tx.$queryRaw<{ latestVersion: number; name: string }[]>`
    UPDATE prompts p SET updated_at = ${now}, latest_version = ${options.nextVersion ? Prisma.sql`${numberedUpToSql} + 1` : Prisma.sql`p.latest_version`}
    WHERE p.id = ${promptId}::uuid AND p.archived_at IS NULL
    RETURNING p.latest_version AS "latestVersion", p.name`;
  if (!row) refuse(archivedRefusal(true));
  return row!;
}

export const refuseArchived = (prompt: LoadedPrompt) => refuse(archivedRefusal(prompt.archived));
