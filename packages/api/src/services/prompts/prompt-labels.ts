// A prompt's labels: pointing one at a version (directly or inside a change request's transaction) and removing one.
import type { Db, DbOrTx, DbTransaction } from "@promptly/db";
import { PROMPT_MSG, PROTECTED_LABEL, type SplitEnd } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { authorOf } from "../access/actor.ts";
import type { AuditContext } from "../insight/audit.ts";
import { notify } from "../notifications/notify.ts";
import type { LoadedPrompt } from "./loaded-prompt.ts";
import { auditPrompt, refuseArchived, touchLivePrompt } from "./prompt-changes.ts";
import { followMoveToIncluders } from "./prompt-includes.ts";
import { directLabelRefusal, lockLivePrompt, productionRollback, productionRollbackTargets, refuse, requiredApprovals, requiredApprovalsHeld, splitRefusal, tooManyLabels, type LabelState } from "./prompt-rules.ts";

/** What stops the caller moving (or removing) `label` of this prompt directly, by the prompt rules. */
const refuseDirectLabelChange = async (
  db: DbOrTx,
  prompt: Pick<LoadedPrompt, "teamId" | "facts" | "access">,
  label: string,
  change: "move" | "remove",
  rollback = false,
) => refuse(directLabelRefusal(label, prompt, label === PROTECTED_LABEL ? await requiredApprovals(db, prompt.teamId) : 0, change, rollback));

/**
 * The same check again in the direct change's transaction, under the prompt's lock: a team whose admin
 * turned reviews on while this change waited is refused as the early check would (a rollback is direct whatever they are).
 */
const refuseDirectLabelChangeIn = async (
  tx: DbTransaction,
  prompt: Pick<LoadedPrompt, "teamId" | "facts" | "access">,
  label: string,
  change: "move" | "remove",
  rollback = false,
) => {
  if (label !== PROTECTED_LABEL || (change === "move" && rollback)) return;
  refuse(directLabelRefusal(label, prompt, await requiredApprovalsHeld(tx, prompt.teamId), change, rollback));
};

/**
 * Points `label` at `version`. `production` needs team admin level, and no review required, except for a
 * rollback (back to a version that held it before): that is direct for those who may move it, audited
 * as a rollback.
 */
export async function setLabel(db: Db, prompt: LoadedPrompt, label: string, version: number, now: Date, context: AuditContext) {
  if (label !== PROTECTED_LABEL) {
    await setLabels(db, prompt, [label], version, now, context);
    return { label, version };
  }
  refuseArchived(prompt);
  const current = await db.promptLabel.findUnique({ where: { promptId_name: { promptId: prompt.id, name: label } }, select: splitSelect });
  // The label history only grows, so a version that held production keeps that standing while the move waits for the lock.
  const rollback = await productionRollback(db, prompt.id, version, current);
  await refuseDirectLabelChange(db, prompt, label, "move", rollback);
  await db.$transaction(async (tx) => {
    await touchLivePrompt(tx, prompt.id, now);
    await refuseDirectLabelChangeIn(tx, prompt, label, "move", rollback);
    await moveLabel(tx, prompt, label, version, authorOf(context.actor), now, context, { rollback });
  });
  return { label, version };
}

/**
 * Labels the caller read as already on the version (on it, or on it through a split, as its base or its
 * candidate), which a write leaves as they are if they still are under the prompt's lock; `mayMove`: the
 * caller's own decision, asked of each that no longer is before it is moved as the others are.
 */
interface KeptLabels {
  labels: readonly string[];
  mayMove: (label: string) => void;
}

/**
 * Points each of `labels` at a version: every label checked first, then all moved in one transaction, or
 * none. Each of `keep` is decided in that transaction, under the prompt's lock: still on the version (its
 * split, if any, included), it is not moved; no longer on it (moved, its split ended meanwhile), it is moved
 * too, once `keep.mayMove` and the prompt rules allow it. Answers the labels moved.
 */
export async function setLabels(
  db: Db, prompt: LoadedPrompt, labels: readonly string[], version: number, now: Date, context: AuditContext, keep?: KeptLabels,
): Promise<string[]> {
  refuseArchived(prompt);
  await refuseDirectLabelMoves(db, prompt, labels);
  return await db.$transaction(async (tx) => {
    const kept = keep?.labels.filter((label) => !labels.includes(label)) ?? [];
    if (kept.length) await lockLivePrompt(tx, prompt.id);
    const gone = kept.length ? await labelsNotOn(tx, prompt.id, version, kept) : [];
    for (const label of gone) keep!.mayMove(label);
    const moving = [...new Set([...labels, ...gone])];
    if (!moving.length) return [];
    await touchLivePrompt(tx, prompt.id, now);
    await moveLabels(tx, prompt, moving, version, now, context, prompt);
    return moving;
  });
}

/** Those of `labels` not on the version now: on another version, split or not, without it as candidate, or on none. */
async function labelsNotOn(tx: DbTransaction, promptId: string, version: number, labels: readonly string[]): Promise<string[]> {
  const rows = await tx.promptLabel.findMany({ where: { promptId, name: { in: [...labels] } }, select: { name: true, version: true, candidateVersion: true } });
  const on = new Set(rows.filter((row) => row.version === version || row.candidateVersion === version).map((row) => row.name));
  return labels.filter((label) => !on.has(label));
}

/** The versions `production` of the prompt could be rolled back to now. */
export async function productionRollbacks(db: DbOrTx, promptId: string) {
  const current = await db.promptLabel.findUnique({ where: { promptId_name: { promptId, name: PROTECTED_LABEL } }, select: splitSelect });
  return { versions: await productionRollbackTargets(db, promptId, current) };
}

/** Before a write that moves `labels` (setLabels, or a new prompt's or version's labels): each move as the prompt rules allow it directly. */
export async function refuseDirectLabelMoves(db: DbOrTx, prompt: Pick<LoadedPrompt, "teamId" | "facts" | "access">, labels: readonly string[]) {
  for (const label of new Set(labels)) await refuseDirectLabelChange(db, prompt, label, "move");
}

/**
 * Moves each of `labels` (once) onto `version`, in the write's transaction, as the context's actor: a direct
 * move, so each is checked again here by the prompt rules as `rules` (the early check's prompt) gives them
 * (the caller holds the prompt's lock, or created it).
 */
export async function moveLabels(
  tx: DbTransaction,
  prompt: Pick<LoadedPrompt, "id" | "teamId" | "organizationId">,
  labels: readonly string[],
  version: number,
  now: Date,
  context: AuditContext,
  rules: Pick<LoadedPrompt, "teamId" | "facts" | "access">,
) {
  for (const label of new Set(labels)) await refuseDirectLabelChangeIn(tx, rules, label, "move");
  for (const label of new Set(labels)) await moveLabel(tx, prompt, label, version, authorOf(context.actor), now, context);
}

/**
 * Moves a label inside the caller's transaction, under the prompt row's lock (an archived prompt is
 * refused; a new label beyond PROMPT_LABELS_MAX of the prompt is INVALID). Every move of `production`, directly or through a change request, is notified here.
 */
export async function moveLabel(
  tx: DbTransaction,
  prompt: Pick<LoadedPrompt, "id" | "teamId" | "organizationId">,
  label: string,
  version: number,
  moverId: string | null,
  now: Date,
  context: AuditContext,
  options: { rollback?: boolean } = {},
) {
  const promptId = prompt.id;
  const rollback = options.rollback === true && label === PROTECTED_LABEL;
  const { name } = await touchLivePrompt(tx, promptId, now);
  const exists = await tx.promptVersion.findUnique({ where: { promptId_version: { promptId, version } }, select: { id: true } });
  if (!exists) fail("NOT_FOUND", PROMPT_MSG.versionNotFound, "VERSION_NOT_FOUND");
  // The label history: where it pointed before this move (null: it did not exist), and its split, if it was split.
  const previous = await tx.promptLabel.findUnique({ where: { promptId_name: { promptId, name: label } }, select: splitSelect });
  // A new label: the prompt's labels stay bounded (counted under the prompt's lock, so concurrent moves cannot pass it together).
  if (!previous && tooManyLabels(await tx.promptLabel.count({ where: { promptId } }), 1)) fail("INVALID", PROMPT_MSG.tooManyLabels, "TOO_MANY_LABELS");
  await auditPrompt(tx, context, prompt, rollback ? "prompt.label.rolled_back" : "prompt.label.set", {
    before: { label, version: previous?.version ?? null, ...splitOf(previous) },
    after: { label, version },
  });
  // A move points the label at one version: a split it had ends here.
  await tx.$executeRaw`
    INSERT INTO prompt_labels (prompt_id, name, version, moved_by, moved_at)
    VALUES (${promptId}::uuid, ${label}, ${version}, ${moverId}::uuid, ${now})
    ON CONFLICT (prompt_id, name) DO UPDATE SET version = EXCLUDED.version, candidate_version = NULL, candidate_weight = NULL,
                                                moved_by = EXCLUDED.moved_by, moved_at = EXCLUDED.moved_at`;
  await followMoveToIncluders(tx, { prompt, name, label, previousVersion: previous?.version ?? null, version }, context.actor, now);
  if (label === PROTECTED_LABEL) await notify(tx, { kind: "production_moved", promptId, version, actorId: moverId, ...(rollback ? { rollback } : {}) }, now);
  return { label, version };
}

// ---- split releases ----

const splitSelect = { version: true, candidateVersion: true, candidateWeight: true } as const;

/** A label's split for the audit trail and webhooks: `{ split: { version, weight } }`, or nothing when it serves one version. */
export const splitOf = (row: LabelState | null | undefined) =>
  row?.candidateVersion != null && row.candidateWeight != null ? { split: { version: row.candidateVersion, weight: row.candidateWeight } } : {};

/**
 * Splits `label` in the caller's transaction, under the prompt row's lock: it keeps its version and
 * serves `candidate` to `weight` percent of fetches (the rest stay on its version). A split is a move
 * of the label: audited as one (with the split beside the version), so webhooks and notifications follow.
 */
export async function splitLabelIn(
  tx: DbTransaction,
  prompt: Pick<LoadedPrompt, "id" | "teamId" | "organizationId">,
  label: string,
  candidate: number,
  weight: number,
  moverId: string | null,
  now: Date,
  context: AuditContext,
) {
  const promptId = prompt.id;
  await touchLivePrompt(tx, promptId, now);
  const found = await tx.promptLabel.findUnique({ where: { promptId_name: { promptId, name: label } }, select: splitSelect });
  // The weight was parsed by the door's schema (splitWeightSchema), and the database checks it again.
  refuse(splitRefusal(found?.version ?? null, candidate));
  const current = found!;
  const exists = await tx.promptVersion.findUnique({ where: { promptId_version: { promptId, version: candidate } }, select: { id: true } });
  if (!exists) fail("NOT_FOUND", PROMPT_MSG.versionNotFound, "VERSION_NOT_FOUND");
  const split = { version: candidate, weight };
  await auditPrompt(tx, context, prompt, "prompt.label.set", {
    before: { label, version: current.version, ...splitOf(current) },
    after: { label, version: current.version, split },
  });
  await tx.promptLabel.update({
    where: { promptId_name: { promptId, name: label } },
    data: { candidateVersion: candidate, candidateWeight: weight, movedById: moverId, movedAt: now },
  });
  // What moved: production keeps its version and now serves the candidate beside it.
  if (label === PROTECTED_LABEL) await notify(tx, { kind: "production_moved", promptId, version: current.version, split, actorId: moverId }, now);
  return { label, version: current.version, split };
}

/**
 * The version a split's end leaves the label on: its candidate (`promote`) or its own version (`rollback`);
 * refused when it is not split, or not split as the caller saw it (`expected`). Read in the transaction that
 * ends it (or asks for its end), under the prompt's lock.
 */
export async function splitEndVersion(tx: DbTransaction, promptId: string, label: string, end: SplitEnd): Promise<number> {
  const current = await tx.promptLabel.findUnique({ where: { promptId_name: { promptId, name: label } }, select: splitSelect });
  if (!current) return fail("NOT_FOUND", PROMPT_MSG.labelNotFound, "LABEL_NOT_FOUND");
  if (current.candidateVersion === null) return fail("STATE_CONFLICT", PROMPT_MSG.notSplit, "NOT_SPLIT");
  // "Promote v2" must never promote the v3 another admin split it to since.
  const { expected } = end;
  if (expected && (expected.version !== current.version || expected.split.version !== current.candidateVersion || expected.split.weight !== current.candidateWeight)) {
    return fail("STATE_CONFLICT", PROMPT_MSG.splitChanged, "SPLIT_CHANGED");
  }
  return end.outcome === "promote" ? current.candidateVersion : current.version;
}

/** Splits `label` directly, as the prompt rules allow a move of it directly (`production`: team admin level, and no review required). */
export async function splitLabel(db: Db, prompt: LoadedPrompt, label: string, candidate: number, weight: number, now: Date, context: AuditContext) {
  refuseArchived(prompt);
  await refuseDirectLabelChange(db, prompt, label, "move");
  return db.$transaction(async (tx) => {
    await touchLivePrompt(tx, prompt.id, now);
    await refuseDirectLabelChangeIn(tx, prompt, label, "move");
    return splitLabelIn(tx, prompt, label, candidate, weight, authorOf(context.actor), now, context);
  });
}

/**
 * Ends `label`'s split directly: one move onto the candidate (`promote`) or back onto its version alone
 * (`rollback`). Rolling `production` back onto its own version is a rollback (that version holds it):
 * direct for those who may move it, whatever the team's reviews, and audited as one.
 */
export async function endSplit(db: Db, prompt: LoadedPrompt, label: string, end: SplitEnd, now: Date, context: AuditContext) {
  refuseArchived(prompt);
  const rollback = end.outcome === "rollback" && label === PROTECTED_LABEL;
  await refuseDirectLabelChange(db, prompt, label, "move", rollback);
  return db.$transaction(async (tx) => {
    await touchLivePrompt(tx, prompt.id, now);
    await refuseDirectLabelChangeIn(tx, prompt, label, "move", rollback);
    // Read under the prompt's lock: a split ended or changed meanwhile is refused, not ended twice.
    const version = await splitEndVersion(tx, prompt.id, label, end);
    return moveLabel(tx, prompt, label, version, authorOf(context.actor), now, context, { rollback });
  });
}

export async function removeLabel(db: Db, prompt: LoadedPrompt, label: string, now: Date, context: AuditContext) {
  refuseArchived(prompt);
  await refuseDirectLabelChange(db, prompt, label, "remove");
  await db.$transaction(async (tx) => {
    await touchLivePrompt(tx, prompt.id, now);
    await refuseDirectLabelChangeIn(tx, prompt, label, "remove");
    const previous = await tx.promptLabel.findUnique({ where: { promptId_name: { promptId: prompt.id, name: label } }, select: splitSelect });
    const { count } = await tx.promptLabel.deleteMany({ where: { promptId: prompt.id, name: label } });
    if (count === 0 || !previous) return fail("NOT_FOUND", PROMPT_MSG.labelNotFound, "LABEL_NOT_FOUND");
    // A split label takes its split with it: the label history keeps what it served, as a move's entry does.
    await auditPrompt(tx, context, prompt, "prompt.label.remove", { before: { label, version: previous.version, ...splitOf(previous) }, after: { label, version: null } });
  });
}
