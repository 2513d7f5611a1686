// Split releases: a label serving two versions by weight, set and ended as moves of the label. Where the
// team reviews `production`, nobody splits it or ends its split directly: a change request is made
// instead, and its approval applies the split (or its end). Elsewhere the prompt rules decide as for a move.
import type { Db } from "@promptly/db";
import { PROTECTED_LABEL, type SplitOutcome } from "@promptly/shared";
import type { Caller } from "../access/access.ts";
import type { AuditContext } from "../insight/audit.ts";
import type { LoadedPrompt } from "../prompts/loaded-prompt.ts";
import { endSplit, splitEndVersion, splitLabel } from "../prompts/prompt-labels.ts";
import { directLabelRefusal, requiredApprovals } from "../prompts/prompt-rules.ts";
import { createChangeRequest } from "./change-requests.ts";

/** What a split (or its end) did: applied now, or a change request made that applies it when approved. */
export interface SplitAnswer {
  applied: boolean;
  changeRequestId: string | null;
}

/** Whether the prompt rules send a direct change of `label` to review (they decide it, as for any move). */
const reviewed = async (db: Db, prompt: LoadedPrompt, label: string) =>
  directLabelRefusal(label, prompt, label === PROTECTED_LABEL ? await requiredApprovals(db, prompt.teamId) : 0)?.reason === "REVIEW_REQUIRED";

/** Splits `label`: it keeps its version and serves `candidate` to `weight` percent of fetches. */
export async function splitOrRequest(
  db: Db, caller: Caller, prompt: LoadedPrompt, label: string, candidate: number, weight: number, now: Date, context: AuditContext,
): Promise<SplitAnswer> {
  if (await reviewed(db, prompt, label)) {
    const { id } = await createChangeRequest(db, caller, prompt, { promptId: prompt.id, label: PROTECTED_LABEL, version: candidate, weight }, now, context);
    return { applied: false, changeRequestId: id };
  }
  await splitLabel(db, prompt, label, candidate, weight, now, context);
  return { applied: true, changeRequestId: null };
}

/** Ends `label`'s split in one move: `promote` onto its candidate, `rollback` onto its own version alone. */
export async function endSplitOrRequest(
  db: Db, caller: Caller, prompt: LoadedPrompt, label: string, outcome: SplitOutcome, now: Date, context: AuditContext,
): Promise<SplitAnswer> {
  if (await reviewed(db, prompt, label)) {
    const version = await splitEndVersion(db, prompt.id, label, outcome);
    const { id } = await createChangeRequest(db, caller, prompt, { promptId: prompt.id, label: PROTECTED_LABEL, version }, now, context);
    return { applied: false, changeRequestId: id };
  }
  await endSplit(db, prompt, label, outcome, now, context);
  return { applied: true, changeRequestId: null };
}
