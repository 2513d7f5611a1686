// Split releases: a label serving two versions by weight, set and ended as moves of the label. Where the
// team reviews `production`, nobody splits it or promotes its candidate directly: a change request is made
// instead, and its approval applies the split (or its end). Rolling a split of `production` back onto its
// own version is a rollback, direct for those who may move it. Elsewhere the prompt rules decide as for a move.
import type { Db } from "@promptly/db";
import { PROTECTED_LABEL, type SplitEnd } from "@promptly/shared";
import { DomainError } from "../../errors.ts";
import type { Caller } from "../access/access.ts";
import type { AuditContext } from "../insight/audit.ts";
import type { LoadedPrompt } from "../prompts/loaded-prompt.ts";
import { endSplit, splitLabel } from "../prompts/prompt-labels.ts";
import { directLabelRefusal, requiredApprovals } from "../prompts/prompt-rules.ts";
import { createChangeRequest } from "./change-requests.ts";

/** What a split (or its end) did: applied now, or a change request made that applies it when approved. */
export interface SplitAnswer {
  applied: boolean;
  changeRequestId: string | null;
}

/** Whether the prompt rules send a direct change of `label` to review (they decide it, as for any move). */
const reviewed = async (db: Db, prompt: LoadedPrompt, label: string, rollback = false) =>
  directLabelRefusal(label, prompt, label === PROTECTED_LABEL ? await requiredApprovals(db, prompt.teamId) : 0, "move", rollback)?.reason === "REVIEW_REQUIRED";

/**
 * Applies a direct change the check above let through: true once applied, false when the change's own
 * transaction refused it because the team's admin turned reviews on meanwhile. That change is then asked for,
 * as it would have been a moment later; any other refusal is the caller's answer.
 */
async function appliedUnlessReviewed(apply: () => Promise<unknown>): Promise<boolean> {
  try {
    await apply();
    return true;
  } catch (error) {
    if (error instanceof DomainError && error.reason === "REVIEW_REQUIRED") return false;
    throw error;
  }
}

/** Splits `label`: it keeps its version and serves `candidate` to `weight` percent of fetches. */
export async function splitOrRequest(
  db: Db, caller: Caller, prompt: LoadedPrompt, label: string, candidate: number, weight: number, now: Date, context: AuditContext,
): Promise<SplitAnswer> {
  if (!(await reviewed(db, prompt, label)) && (await appliedUnlessReviewed(() => splitLabel(db, prompt, label, candidate, weight, now, context)))) {
    return { applied: true, changeRequestId: null };
  }
  const { id } = await createChangeRequest(db, caller, prompt, { promptId: prompt.id, label: PROTECTED_LABEL, version: candidate, weight }, now, context);
  return { applied: false, changeRequestId: id };
}

/**
 * Ends `label`'s split in one move: `promote` onto its candidate, `rollback` onto its own version alone;
 * refused, with nothing changed or asked, when the label is no longer split as `end.expected` says.
 */
export async function endSplitOrRequest(
  db: Db, caller: Caller, prompt: LoadedPrompt, label: string, end: SplitEnd, now: Date, context: AuditContext,
): Promise<SplitAnswer> {
  // A rollback is direct for those who may move production; one who may not (an editor) asks for it as for a promotion.
  const rollback = end.outcome === "rollback" && directLabelRefusal(label, prompt, 0, "move", true) === null;
  if ((rollback || !(await reviewed(db, prompt, label))) && (await appliedUnlessReviewed(() => endSplit(db, prompt, label, end, now, context)))) {
    return { applied: true, changeRequestId: null };
  }
  // The version it ends on is read in the request's own transaction, so a split changed meanwhile is not mistaken.
  const { id } = await createChangeRequest(db, caller, prompt, { promptId: prompt.id, label: PROTECTED_LABEL, endSplit: end }, now, context);
  return { applied: false, changeRequestId: id };
}
