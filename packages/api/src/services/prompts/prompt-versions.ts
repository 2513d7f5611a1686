// A prompt's immutable versions: one with its contract in force, the history page, and the next version.
import type { Db, DbOrTx } from "@promptly/db";
import { LATEST_LABEL, effectiveContract, extractPlaceholders, type CreateVersionInput, type PromptMessage } from "@promptly/shared";
import { authorOf } from "../access/actor.ts";
import type { AuditContext } from "../insight/audit.ts";
import type { Caller } from "../access/visibility.ts";
import type { LoadedPrompt } from "./loaded-prompt.ts";
import { followMoveToIncluders, saveIncludes } from "./prompt-includes.ts";
import { moveLabels, refuseDirectLabelMoves } from "./prompt-labels.ts";
import { auditPrompt, bodyOf, refuseArchived, touchLivePrompt, versionData } from "./prompt-changes.ts";
import { versionColumns, withAvatar, type RawItem } from "./prompt-rows.ts";
import { retagPrompt } from "./prompt-writes.ts";
import { promptVersionItem, versionHistoryPage } from "./prompt-shapes.ts";

/** One version of a prompt with its body and its contract in force (null when there is none), as `getPrompt` shows it. */
export async function loadVersion(db: DbOrTx, promptId: string, version: number) {
  const [row] = await db.$queryRaw<(Record<string, unknown> & { author: RawItem["author"] })[]>`
    SELECT ${versionColumns}
    FROM prompt_versions v LEFT JOIN profiles vp ON vp.user_id = v.author_id
    WHERE v.prompt_id = ${promptId}::uuid AND v.version = ${version}`;
  return row ? versionAnswer(row) : null;
}

/** A row of `versionColumns` as an answer: its author's avatar URL, and the contract in force. */
export function versionAnswer(row: Record<string, unknown> & { author: RawItem["author"] }) {
  const placeholders = extractPlaceholders({ type: row["type"] as "text" | "chat", messages: row["messages"] as PromptMessage[] | null });
  const answer = promptVersionItem.parse({ ...withAvatar(row), placeholders });
  return { ...answer, variables: effectiveContract(answer) };
}

/** The versions of a prompt, newest first, with the labels on each; `cursor` is the last version seen. */
export async function listVersions(db: DbOrTx, promptId: string, cursor: number | undefined, limit = 50) {
  const rows = await db.$queryRaw<(Record<string, unknown> & { author: RawItem["author"]; version: number })[]>`
    SELECT v.version, v.type::text AS type, v.model, v.commit_message AS "commitMessage", v.created_at AS "createdAt",
           CASE WHEN v.author_id IS NULL THEN NULL
                ELSE json_build_object('id', v.author_id, 'fullName', vp.full_name, 'email', (SELECT au.email FROM users au WHERE au.id = v.author_id), 'avatarKey', vp.avatar_key) END AS author,
           COALESCE((SELECT array_agg(l.name ORDER BY l.name) FROM prompt_labels l WHERE l.prompt_id = v.prompt_id AND l.version = v.version), '{}') AS labels
    FROM prompt_versions v LEFT JOIN profiles vp ON vp.user_id = v.author_id
    WHERE v.prompt_id = ${promptId}::uuid AND v.version < ${cursor ?? 2147483647}
    ORDER BY v.version DESC
    LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit);
  return versionHistoryPage.parse({
    items: page.map(withAvatar),
    nextCursor: rows.length > limit ? (page.at(-1)?.version ?? null) : null,
  });
}

/**
 * The next version: the prompt's row is locked by incrementing its counter, so concurrent saves take
 * numbers one after another, without gaps or repeats. The type is the one given, or read from what is given.
 * `labels` point at it in the same transaction, each as setLabel's prompt rules allow, and `tags`,
 * when given, become the prompt's (every version answers its prompt's tags).
 */
export async function createVersion(
  db: Db,
  caller: Caller,
  prompt: LoadedPrompt,
  input: CreateVersionInput,
  now: Date,
  context: AuditContext,
  labels: readonly string[] = [],
  tags?: readonly string[],
) {
  refuseArchived(prompt);
  await refuseDirectLabelMoves(db, prompt, labels);
  const body = bodyOf(input);
  return db.$transaction(async (tx) => {
    const { latestVersion: version, name } = await touchLivePrompt(tx, prompt.id, now, { nextVersion: true });
    if (tags !== undefined) await retagPrompt(tx, prompt, tags, now, context);
    const { id } = await tx.promptVersion.create({
      data: { promptId: prompt.id, version, createdAt: now, ...versionData(body, input, authorOf(context.actor)) },
      select: { id: true },
    });
    await saveIncludes(tx, { caller, access: prompt.access }, { teamId: prompt.teamId, name, versionId: id, version, body });
    // latest was the newest version before this one (a deleted version takes latest back to the newest left).
    const [before] = await tx.$queryRaw<{ version: number | null }[]>`SELECT max(version) AS version FROM prompt_versions WHERE prompt_id = ${prompt.id}::uuid AND version < ${version}`;
    await followMoveToIncluders(tx, { prompt, name, label: LATEST_LABEL, previousVersion: before?.version ?? null, version }, context.actor, now);
    await auditPrompt(tx, context, prompt, "prompt.version", { after: { version, commitMessage: input.commitMessage ?? "" } });
    await moveLabels(tx, prompt, labels, version, now, context, prompt);
    return { version, versionId: id };
  });
}
