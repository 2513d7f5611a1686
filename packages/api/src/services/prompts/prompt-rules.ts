// The rules every change of a prompt obeys, whichever door it comes through: the app's procedures,
// bulk actions, imports, change requests and the REST runtime API all ask here, so no door keeps a
// copy that could drift. Each rule answers a refusal (or null): a door that reports refusals (bulk,
// import) takes its message, one that stops at the first throws it with `refuse`. Who may act on a
// prompt at all is canOnPrompt's (packages/shared); the limits of a single field are the shared
// input schemas' (a version's variables, a title's length), which every door parses.
import { Prisma, type DbOrTx, type DbTransaction } from "@promptly/db";
import {
  PROMPT_LABELS_MAX, PROMPT_MSG, PROMPT_TAGS_MAX, PROTECTED_LABEL, REVIEW_MSG, approvalsNeeded, canOnPrompt, type PromptAccess, type PromptFacts, type PromptVisibility,
} from "@promptly/shared";
import { fail, type DomainErrorCode } from "../../errors.ts";
import { holderSql } from "../access/visibility.ts";

export interface Refusal {
  code: DomainErrorCode;
  message: string;
  reason?: string;
}

/** Throws the refusal, if any. */
export function refuse(refusal: Refusal | null): void {
  if (refusal) fail(refusal.code, refusal.message, refusal.reason);
}

/** A prompt as the rules see it: its facts and the caller's access in its team. */
interface RulePrompt {
  facts: PromptFacts;
  access: PromptAccess;
}

// ---- archived prompts refuse writes ----

/** An archived prompt refuses every change until it is restored; `message` is the door's wording. */
export const archivedRefusal = (archived: boolean, message: string = PROMPT_MSG.archived): Refusal | null =>
  archived ? { code: "STATE_CONFLICT", message, reason: "ARCHIVED" } : null;

/**
 * How a write locks its prompt's row. `edit`, FOR NO KEY UPDATE: it changes other columns, or writes rows
 * that refer to the prompt; writers of the prompt still take turns, but a row inserted with its foreign key
 * to the prompt (a merge's generations, runs, scores, comments), which takes the prompt's row FOR KEY SHARE,
 * does not wait for the edit (nor the edit for it). `keys`, FOR UPDATE: it may delete the prompt, whose
 * production data goes with it while nothing links to it meanwhile, or rename it ((team_id, name) is a
 * unique key: the rename's own UPDATE takes FOR UPDATE, taken first here rather than halfway).
 */
export type PromptLock = "edit" | "keys";

/** The locking clause of `lock` (see PromptLock), for a SELECT of the prompt's row. */
export const promptLockSql = (lock: PromptLock) => (lock === "keys" ? Prisma.sql`FOR UPDATE` : Prisma.sql`FOR NO KEY UPDATE`);

/**
 * Locks the prompt's row inside `tx` (`lock`: see PromptLock) and refuses an archived (or vanished) one:
 * read under the lock, an archive at the same moment either came first (refused here) or waits for this transaction.
 */
export async function lockLivePrompt(tx: DbTransaction, promptId: string, message: string = PROMPT_MSG.archived, lock: PromptLock = "edit"): Promise<void> {
  const [row] = await tx.$queryRaw<{ archived: boolean }[]>`SELECT archived_at IS NOT NULL AS archived FROM prompts WHERE id = ${promptId}::uuid ${promptLockSql(lock)}`;
  refuse(archivedRefusal(!row || row.archived, message));
}

// ---- tags ----

/** A prompt carries at most PROMPT_TAGS_MAX tags. */
export const tooManyTags = (tags: readonly string[]) => new Set(tags).size > PROMPT_TAGS_MAX;

// ---- labels ----

/** A prompt carries at most PROMPT_LABELS_MAX distinct labels: `stored` it has, `adding` new names. */
export const tooManyLabels = (stored: number, adding: number) => stored + adding > PROMPT_LABELS_MAX;

// ---- production ----

/** Approvals the prompt's team requires before `production` moves; 0: those allowed move it directly. */
export async function requiredApprovals(db: DbOrTx, teamId: string): Promise<number> {
  const team = await db.team.findUnique({ where: { id: teamId }, select: { requiredApprovals: true } });
  return team?.requiredApprovals ?? 0;
}

/**
 * The team's required approvals as a direct move of `production` applies, in its transaction (after the
 * prompt's lock): the team's row is held FOR SHARE, so a settings change not yet committed is waited for and
 * read, and one made after waits for the move. The early check (requiredApprovals) reads outside it.
 */
export async function requiredApprovalsHeld(tx: DbTransaction, teamId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ requiredApprovals: number }[]>`SELECT required_approvals AS "requiredApprovals" FROM teams WHERE id = ${teamId}::uuid FOR SHARE`;
  return row?.requiredApprovals ?? 0;
}

/** Approvals a change request needs before it moves `production` (a request made while none are required still needs one). */
export const approvalsToMove = async (db: DbOrTx, teamId: string) => approvalsNeeded(await requiredApprovals(db, teamId));

/** Whether the caller may move or remove `label` at all: `production` takes prompt.label.protected, any other label only writing. */
const mayMoveLabel = (label: string, prompt: RulePrompt) =>
  label !== PROTECTED_LABEL || canOnPrompt(prompt.access, prompt.facts, "label.protected");

/**
 * Why the caller may not move (or remove) `label` directly, or null. `production` needs
 * prompt.label.protected; when the team requires reviews nobody moves it directly, team admins and
 * super users included: only an approved change request does. Private prompts too: a private prompt
 * is shared again with whatever `production` it carries, and keys serve that. A rollback (a move of
 * `production` back to a version that held it before, see productionRollback) is the exception: those
 * who may move `production` make it directly whatever the team's reviews and pass rate, so an incident
 * never waits for a second admin.
 */
export function directLabelRefusal(
  label: string,
  prompt: RulePrompt,
  approvalsRequired: number,
  change: "move" | "remove" = "move",
  rollback = false,
): Refusal | null {
  if (label !== PROTECTED_LABEL) return null;
  if (change === "move" && rollback) return mayMoveLabel(label, prompt) ? null : { code: "FORBIDDEN", message: PROMPT_MSG.protectedLabel };
  if (approvalsRequired > 0) {
    return { code: "PRECONDITION", message: change === "move" ? REVIEW_MSG.reviewRequired : REVIEW_MSG.reviewRequiredRemove, reason: "REVIEW_REQUIRED" };
  }
  if (!mayMoveLabel(label, prompt)) return { code: "FORBIDDEN", message: PROMPT_MSG.protectedLabel };
  return null;
}

/** A label's state: its version, and its split's candidate and weight (null: it serves its version alone). */
export interface LabelState {
  version: number;
  candidateVersion: number | null;
  candidateWeight: number | null;
}

/** The audit actions that move a label: the label history reads them (every move is audited, in its transaction). */
const LABEL_MOVE_ACTIONS = ["prompt.label.set", "prompt.label.rolled_back"] as const;

/**
 * Whether pointing `production` at `version` alone is a rollback: `version` held `production` before (the
 * label history: the audit trail, append-only, says where every move took it from and to), and the move
 * changes the label (it is not already on `version` alone). `current` is the label as it is now.
 */
export async function productionRollback(db: DbOrTx, promptId: string, version: number, current: LabelState | null): Promise<boolean> {
  if (current && current.version === version && current.candidateVersion === null) return false;
  const [row] = await db.$queryRaw<{ held: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM audit_events e
      WHERE e.prompt_id = ${promptId}::uuid AND e.action IN (${Prisma.join([...LABEL_MOVE_ACTIONS, "prompt.label.remove"])})
        AND ((e.after->>'label' = ${PROTECTED_LABEL} AND (e.after->>'version')::int = ${version})
          OR (e.before->>'label' = ${PROTECTED_LABEL} AND (e.before->>'version')::int = ${version}))) AS held`;
  return row?.held ?? false;
}

/** The versions `production` could be rolled back to now: those that held it before, but the one it points at alone. */
export async function productionRollbackTargets(db: DbOrTx, promptId: string, current: LabelState | null): Promise<number[]> {
  const rows = await db.$queryRaw<{ version: number }[]>`
    SELECT DISTINCT held.version FROM audit_events e
    CROSS JOIN LATERAL (VALUES (e.after), (e.before)) AS side(state)
    CROSS JOIN LATERAL (SELECT (side.state->>'version')::int AS version) AS held
    WHERE e.prompt_id = ${promptId}::uuid AND e.action IN (${Prisma.join([...LABEL_MOVE_ACTIONS, "prompt.label.remove"])})
      AND side.state->>'label' = ${PROTECTED_LABEL} AND held.version IS NOT NULL
      AND EXISTS (SELECT 1 FROM prompt_versions v WHERE v.prompt_id = e.prompt_id AND v.version = held.version)
    ORDER BY held.version DESC`;
  return rows.map((row) => row.version).filter((version) => !(current && current.version === version && current.candidateVersion === null));
}

/** A split keeps the label's version and serves another beside it: the label must be set, and the candidate be another version. */
export function splitRefusal(labelVersion: number | null, candidate: number): Refusal | null {
  if (labelVersion === null) return { code: "NOT_FOUND", message: PROMPT_MSG.labelNotFound, reason: "LABEL_NOT_FOUND" };
  if (labelVersion === candidate) return { code: "INVALID", message: PROMPT_MSG.splitSameVersion, reason: "SPLIT_SAME_VERSION" };
  return null;
}

/**
 * Sharing a private prompt carries its `production` into the team, where keys serve it, so only a
 * `production` the rule would have let into the team goes: with reviews required, a version an
 * approved change request of this prompt put in production; without, one last moved by a holder of
 * prompt.label.protected, or the caller holds it. Staying private, or having no `production`, is free.
 * Read in the share's transaction after the prompt's lock, the team's rule by requiredApprovalsHeld: reviews
 * turned on by a settings change not yet committed are waited for and read.
 */
export async function shareRefusal(tx: DbTransaction, prompt: RulePrompt & { id: string; teamId: string }, visibility: PromptVisibility | undefined): Promise<Refusal | null> {
  if (prompt.facts.visibility !== "private" || visibility === undefined || visibility === "private") return null;
  const movedByRight = holderSql("prompt.label.protected", { userId: Prisma.sql`l.moved_by`, organizationId: Prisma.sql`p.organization_id`, teamId: Prisma.sql`p.team_id` });
  const [production] = await tx.$queryRaw<{ reviewed: boolean; movedByRight: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM change_requests cr
                   WHERE cr.prompt_id = p.id AND cr.label = l.name AND cr.status = 'approved' AND cr.proposed_version = l.version) AS reviewed,
           ${movedByRight} AS "movedByRight"
    FROM prompt_labels l JOIN prompts p ON p.id = l.prompt_id
    WHERE l.prompt_id = ${prompt.id}::uuid AND l.name = ${PROTECTED_LABEL}`;
  if (!production) return null;
  if ((await requiredApprovalsHeld(tx, prompt.teamId)) > 0) {
    return production.reviewed ? null : { code: "PRECONDITION", message: REVIEW_MSG.shareUnreviewed, reason: "REVIEW_REQUIRED" };
  }
  return production.movedByRight || mayMoveLabel(PROTECTED_LABEL, prompt) ? null : { code: "FORBIDDEN", message: PROMPT_MSG.shareProduction };
}

/** Change requests are for prompts others can review: never a private one. */
export const changeRequestRefusal = (facts: PromptFacts): Refusal | null =>
  facts.visibility === "private" ? { code: "PRECONDITION", message: REVIEW_MSG.privatePrompt, reason: "PRIVATE_PROMPT" } : null;

// ---- archiving and deleting a prompt that carries production ----

/** What the removal rule reads of a prompt: whether it carries `production`, the team's setting, and whether a review covered it. */
export interface ProductionRemoval {
  /** The version `production` points at; null: the prompt does not carry it. */
  productionVersion: number | null;
  approvalsRequired: number;
  /** An approved archive request of this prompt was made on the version `production` points at now. */
  archiveApproved: boolean;
}

/**
 * Reads ProductionRemoval inside the caller's transaction (after the prompt's row is locked, so it holds until
 * commit). For a prompt carrying `production` the team's rule is read holding its row FOR SHARE, as
 * requiredApprovalsHeld holds it: required approvals turned on by a settings change not yet committed are
 * waited for and read, and one made after waits for the removal. Only then: a delete runs as long as its
 * generations take, and holding the team's row would hold every change of the team's settings that long.
 */
export async function productionRemoval(tx: DbTransaction, promptId: string): Promise<ProductionRemoval> {
  const [row] = await tx.$queryRaw<(ProductionRemoval & { teamId: string })[]>`
    SELECT l.version AS "productionVersion", t.required_approvals AS "approvalsRequired", t.id::text AS "teamId",
           (l.version IS NOT NULL AND EXISTS (
              SELECT 1 FROM change_requests cr
              WHERE cr.prompt_id = p.id AND cr.kind = 'archive' AND cr.status = 'approved' AND cr.base_version = l.version)) AS "archiveApproved"
    FROM prompts p JOIN teams t ON t.id = p.team_id
    LEFT JOIN prompt_labels l ON l.prompt_id = p.id AND l.name = ${PROTECTED_LABEL}
    WHERE p.id = ${promptId}::uuid`;
  if (!row) return { productionVersion: null, approvalsRequired: 0, archiveApproved: false };
  const { teamId, ...removal } = row;
  return removal.productionVersion === null ? removal : { ...removal, approvalsRequired: await requiredApprovalsHeld(tx, teamId) };
}

/**
 * Archiving or deleting a prompt that carries `production` is a production change (keys fetching it get
 * 404): it takes the right that moves `production`, and where the team requires reviews nobody does it
 * directly: an approved archive request archives it, and a prompt so archived may then be deleted. A
 * private prompt is exempt: keys do not serve it (sharing it again is shareRefusal's).
 */
export function removalRefusal(change: "archive" | "delete", prompt: RulePrompt, production: ProductionRemoval): Refusal | null {
  if (production.productionVersion === null || prompt.facts.visibility === "private") return null;
  if (production.approvalsRequired > 0 && !(change === "delete" && production.archiveApproved)) {
    return {
      code: "PRECONDITION",
      message: change === "archive" ? REVIEW_MSG.archiveReviewRequired : REVIEW_MSG.deleteReviewRequired,
      reason: "REVIEW_REQUIRED",
    };
  }
  if (!mayMoveLabel(PROTECTED_LABEL, prompt)) return { code: "FORBIDDEN", message: PROMPT_MSG.removeProduction };
  return null;
}
