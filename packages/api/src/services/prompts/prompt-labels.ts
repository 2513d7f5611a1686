// A prompt's labels: pointing one at a version (directly or inside a change request's transaction) and removing one.
import type { Db, DbOrTx, DbTransaction } from "@promptly/db";
import { PROMPT_MSG, PROTECTED_LABEL } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { authorOf } from "../access/actor.ts";
import type { AuditContext } from "../insight/audit.ts";
import { notify } from "../notifications/notify.ts";
import type { LoadedPrompt } from "./loaded-prompt.ts";
import { auditPrompt, refuseArchived, touchLivePrompt } from "./prompt-changes.ts";
import { followMoveToIncluders } from "./prompt-includes.ts";
import { directLabelRefusal, refuse, requiredApprovals } from "./prompt-rules.ts";

/** What stops the caller moving (or removing) `label` of this prompt directly, by the prompt rules. */
const refuseDirectLabelChange = async (
  db: DbOrTx,
  prompt: Pick<LoadedPrompt, "teamId" | "facts" | "access">,
  label: string,
  change: "move" | "remove",
) => refuse(directLabelRefusal(label, prompt, label === PROTECTED_LABEL ? await requiredApprovals(db, prompt.teamId) : 0, change));

/** Points `label` at `version` (rolling back is pointing it at an older one). `production` needs team admin level, and no review required. */
export async function setLabel(db: Db, prompt: LoadedPrompt, label: string, version: number, now: Date, context: AuditContext) {
  await setLabels(db, prompt, [label], version, now, context);
  return { label, version };
}

/** Points each of `labels` at a version: every label checked first, then all moved in one transaction, or none. */
export async function setLabels(db: Db, prompt: LoadedPrompt, labels: readonly string[], version: number, now: Date, context: AuditContext) {
  refuseArchived(prompt);
  await refuseDirectLabelMoves(db, prompt, labels);
  await db.$transaction((tx) => moveLabels(tx, prompt, labels, version, now, context));
}

/** Before a write that moves `labels` (setLabels, or a new prompt's or version's labels): each move as the prompt rules allow it directly. */
export async function refuseDirectLabelMoves(db: DbOrTx, prompt: Pick<LoadedPrompt, "teamId" | "facts" | "access">, labels: readonly string[]) {
  for (const label of new Set(labels)) await refuseDirectLabelChange(db, prompt, label, "move");
}

/** Moves each of `labels` (once) onto `version`, in the write's transaction, as the context's actor. */
export async function moveLabels(
  tx: DbTransaction,
  prompt: Pick<LoadedPrompt, "id" | "teamId" | "organizationId">,
  labels: readonly string[],
  version: number,
  now: Date,
  context: AuditContext,
) {
  for (const label of new Set(labels)) await moveLabel(tx, prompt, label, version, authorOf(context.actor), now, context);
}

/**
 * Moves a label inside the caller's transaction, under the prompt row's lock (an archived prompt is
 * refused). Every move of `production`, directly or through a change request, is notified here.
 */
export async function moveLabel(
  tx: DbTransaction,
  prompt: Pick<LoadedPrompt, "id" | "teamId" | "organizationId">,
  label: string,
  version: number,
  moverId: string | null,
  now: Date,
  context: AuditContext,
) {
  const promptId = prompt.id;
  const { name } = await touchLivePrompt(tx, promptId, now);
  const exists = await tx.promptVersion.findUnique({ where: { promptId_version: { promptId, version } }, select: { id: true } });
  if (!exists) fail("NOT_FOUND", PROMPT_MSG.versionNotFound, "VERSION_NOT_FOUND");
  // The label history: where it pointed before this move (null: it did not exist).
  const previous = await tx.promptLabel.findUnique({ where: { promptId_name: { promptId, name: label } }, select: { version: true } });
  await auditPrompt(tx, context, prompt, "prompt.label.set", { before: { label, version: previous?.version ?? null }, after: { label, version } });
  await tx.$executeRaw`
    INSERT INTO prompt_labels (prompt_id, name, version, moved_by, moved_at)
    VALUES (${promptId}::uuid, ${label}, ${version}, ${moverId}::uuid, ${now})
    ON CONFLICT (prompt_id, name) DO UPDATE SET version = EXCLUDED.version, moved_by = EXCLUDED.moved_by, moved_at = EXCLUDED.moved_at`;
  await followMoveToIncluders(tx, { prompt, name, label, previousVersion: previous?.version ?? null, version }, context.actor, now);
  if (label === PROTECTED_LABEL) await notify(tx, { kind: "production_moved", promptId, version, actorId: moverId }, now);
  return { label, version };
}

export async function removeLabel(db: Db, prompt: LoadedPrompt, label: string, now: Date, context: AuditContext) {
  refuseArchived(prompt);
  await refuseDirectLabelChange(db, prompt, label, "remove");
  await db.$transaction(async (tx) => {
    await touchLivePrompt(tx, prompt.id, now);
    const previous = await tx.promptLabel.findUnique({ where: { promptId_name: { promptId: prompt.id, name: label } }, select: { version: true } });
    const { count } = await tx.promptLabel.deleteMany({ where: { promptId: prompt.id, name: label } });
    if (count === 0 || !previous) return fail("NOT_FOUND", PROMPT_MSG.labelNotFound, "LABEL_NOT_FOUND");
    await auditPrompt(tx, context, prompt, "prompt.label.remove", { before: { label, version: previous.version }, after: { label, version: null } });
  });
}
