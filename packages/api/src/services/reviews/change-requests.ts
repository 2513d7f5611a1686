// Reviewed promotion to production. A change request proposes a version for `production` (kind
// `label`), or archiving a prompt that carries it (kind `archive`: keys then get 404);
// the team's admins (prompt.label.protected) approve or reject it; the approval that reaches the team's
// required count moves the label in its own transaction. Every decision locks the request's row first
// (then the prompt's), so two admins approving at once move the label once. A request whose base (the
// version `production` pointed at when it was made, with its split) is no longer current is stale: it is marked so when
// read or approved, and its author refreshes it, which clears its approvals. A request keeps the versions
// it compares (its base and its proposed version), so a closed one shows the same diff for good.
import { z } from "zod";
import { Prisma, type Db, type DbOrTx, type DbTransaction } from "@promptly/db";
import {
  CHANGE_REQUEST_KINDS, CHANGE_REQUEST_STATUSES, MSG, approvalsNeeded, PROMPT_MSG, PROTECTED_LABEL, REVIEW_MSG, canOnPrompt, type ChangeRequestStatus, type CreateArchiveRequestInput, type CreateChangeRequestInput,
  accessOf, can, type OrganizationRole, type SplitEnd, type TeamRole,
} from "@promptly/shared";
import { fail } from "../../errors.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";
import { auditPrompt } from "../prompts/prompt-changes.ts";
import { authorAnswer, type RawAuthor } from "../prompts/prompt-rows.ts";
import type { Caller } from "../access/access.ts";
import { notify } from "../notifications/notify.ts";
import type { LoadedPrompt } from "../prompts/loaded-prompt.ts";
import { moveLabel, splitEndVersion, splitLabelIn } from "../prompts/prompt-labels.ts";
import { personItem, promptVersionItem } from "../prompts/prompt-shapes.ts";
import { loadVersion } from "../prompts/prompt-versions.ts";
import { approvalsToMove, archivedRefusal, changeRequestRefusal, lockLivePrompt, promptLockSql, refuse, splitRefusal, type LabelState } from "../prompts/prompt-rules.ts";
import { promptVisibility } from "../access/visibility.ts";
import { changeRequestEvidence, passRateRefusal, requiredPassRate, versionsEvidence } from "../evaluations/evidence.ts";

// ---- answers ----

export const changeRequestItem = z.object({
  id: z.string(),
  promptId: z.string(),
  promptName: z.string(),
  promptTitle: z.string(),
  teamId: z.string(),
  teamName: z.string(),
  /** `label`: point the label at the proposed version; `archive`: archive the prompt, which carries the label. */
  kind: z.enum(CHANGE_REQUEST_KINDS),
  label: z.string(),
  /** What `production` pointed at when the request was made (or refreshed); null: it was not set. */
  baseVersion: z.number().nullable(),
  /** Null for an archive request. */
  proposedVersion: z.number().nullable(),
  /** A split: the label keeps its version and serves the proposed one to this percent of fetches; null: the proposed version alone. */
  proposedWeight: z.number().nullable(),
  message: z.string(),
  /** `stale` also when the stored status is still `open` but `production` has moved since. */
  status: z.enum(CHANGE_REQUEST_STATUSES),
  author: personItem.nullable(),
  approvals: z.number(),
  /** Approvals that move the label (the team's setting, at least one). */
  approvalsNeeded: z.number(),
  createdAt: z.date(),
  updatedAt: z.date(),
  closedAt: z.date().nullable(),
});

const reviewItem = z.object({
  id: z.string(),
  reviewer: personItem.nullable(),
  decision: z.enum(["approved", "rejected"]),
  comment: z.string(),
  createdAt: z.date(),
});

export const changeRequestDetail = changeRequestItem.extend({
  /** The version `production` points at now (null: not set). */
  currentVersion: z.number().nullable(),
  /** The diff's left side: the base version the request was made (or refreshed) on, kept when it closes. */
  base: promptVersionItem.nullable(),
  /** The diff's right side; null for an archive request. */
  proposed: promptVersionItem.nullable(),
  reviews: z.array(reviewItem),
  /** The caller is a reviewer of this prompt (team admin level), whether or not they may review now. */
  isReviewer: z.boolean(),
  isAuthor: z.boolean(),
  can: z.object({ approve: z.boolean(), reject: z.boolean(), withdraw: z.boolean(), refresh: z.boolean() }),
  /** Why a reviewer (or the author) may not approve now; null when they may. */
  approveBlockedReason: z.string().nullable(),
  /**
   * Who may approve it, by name: the team's admins and its organization's admins, the author left out
   * (super users may too, and are not listed). Empty: nobody in the team or organization can.
   */
  approvers: z.array(personItem),
});

export const changeRequestDecision = z.object({
  id: z.string(),
  status: z.enum(CHANGE_REQUEST_STATUSES),
  approvals: z.number(),
  approvalsNeeded: z.number(),
});

// ---- reading ----

type Person = RawAuthor;
const person = authorAnswer;

/** The effective status: an open request whose base is no longer the label's state (its version, or its split) is stale. */
const effectiveStatus = Prisma.sql`CASE WHEN cr.status = 'open' AND (cr.base_version, cr.base_candidate_version, cr.base_candidate_weight) IS DISTINCT FROM (pl.version, pl.candidate_version, pl.candidate_weight) THEN 'stale' ELSE cr.status::text END`;

const itemSelect = Prisma.sql`
  SELECT cr.id::text AS id, cr.prompt_id::text AS "promptId", p.name AS "promptName", p.title AS "promptTitle",
         p.team_id::text AS "teamId", t.name AS "teamName", cr.kind::text AS kind, cr.label, cr.base_version AS "baseVersion",
         cr.proposed_version AS "proposedVersion", cr.proposed_weight AS "proposedWeight", cr.message, ${effectiveStatus} AS status,
         CASE WHEN cr.author_id IS NULL THEN NULL
              ELSE json_build_object('id', cr.author_id, 'fullName', ap.full_name, 'email', (SELECT au.email FROM users au WHERE au.id = cr.author_id), 'avatarKey', ap.avatar_key) END AS author,
         (SELECT count(*) FROM change_request_reviews r WHERE r.change_request_id = cr.id AND r.decision = 'approved')::int AS approvals,
         t.required_approvals AS "requiredApprovals",
         pl.version AS "currentVersion", cr.created_at AS "createdAt", cr.updated_at AS "updatedAt", cr.closed_at AS "closedAt"
  FROM change_requests cr
  JOIN prompts p ON p.id = cr.prompt_id
  JOIN teams t ON t.id = p.team_id
  LEFT JOIN prompt_labels pl ON pl.prompt_id = cr.prompt_id AND pl.name = cr.label
  LEFT JOIN profiles ap ON ap.user_id = cr.author_id`;

type RawItem = Record<string, unknown> & { author: Person; currentVersion: number | null; status: ChangeRequestStatus; requiredApprovals: number };

const toItem = ({ requiredApprovals, ...row }: RawItem) =>
  changeRequestItem.parse({ ...row, author: person(row.author), approvalsNeeded: approvalsNeeded(requiredApprovals) });

export async function findChangeRequestPromptId(db: DbOrTx, id: string): Promise<string | null> {
  const row = await db.changeRequest.findUnique({ where: { id }, select: { promptId: true } });
  return row?.promptId ?? null;
}

/**
 * Requests on prompts the caller may read, newest first (at most 100). `status: "open"` means still
 * waiting for a decision, stale ones included (each item's status says which).
 */
export async function listChangeRequests(db: DbOrTx, caller: Caller, input: { teamId?: string; promptId?: string; status?: ChangeRequestStatus }) {
  const { joins, visible } = promptVisibility(caller);
  const where = [visible];
  if (input.teamId) where.push(Prisma.sql`p.team_id = ${input.teamId}::uuid`);
  if (input.promptId) where.push(Prisma.sql`cr.prompt_id = ${input.promptId}::uuid`);
  if (input.status === "open") where.push(Prisma.sql`cr.status IN ('open', 'stale')`);
  else if (input.status) where.push(Prisma.sql`${effectiveStatus} = ${input.status}`);
  const rows = await db.$queryRaw<RawItem[]>`
    ${itemSelect} ${joins}
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY cr.created_at DESC, cr.id DESC
    LIMIT 100`;
  return rows.map(toItem);
}

/** The request, both versions for the diff, the reviews, and what the caller may do. Marks it stale when it is. */
export async function getChangeRequest(db: DbOrTx, prompt: LoadedPrompt, id: string, now: Date) {
  const [row] = await db.$queryRaw<RawItem[]>`${itemSelect} WHERE cr.id = ${id}::uuid`;
  if (!row) return fail("NOT_FOUND", MSG.notFound);
  const item = toItem(row);
  if (item.status === "stale") await markStale(db, id, now);
  const [base, proposed, reviews, approvers] = await Promise.all([
    item.baseVersion === null ? null : loadVersion(db, item.promptId, item.baseVersion),
    item.proposedVersion === null ? null : loadVersion(db, item.promptId, item.proposedVersion),
    db.$queryRaw<(Record<string, unknown> & { reviewer: Person })[]>`
      SELECT r.id::text AS id, r.decision::text AS decision, r.comment, r.created_at AS "createdAt",
             CASE WHEN r.reviewer_id IS NULL THEN NULL
                  ELSE json_build_object('id', r.reviewer_id, 'fullName', rp.full_name, 'email', (SELECT au.email FROM users au WHERE au.id = r.reviewer_id), 'avatarKey', rp.avatar_key) END AS reviewer
      FROM change_request_reviews r LEFT JOIN profiles rp ON rp.user_id = r.reviewer_id
      WHERE r.change_request_id = ${id}::uuid
      ORDER BY r.created_at, r.id`,
    approversOf(db, item.teamId, item.author?.id ?? null),
  ]);
  const userId = prompt.access.userId;
  const isAuthor = item.author?.id === userId;
  const isReviewer = canOnPrompt(prompt.access, prompt.facts, "label.protected");
  const awaiting = item.status === "open" || item.status === "stale";
  const approvedByMe = reviews.some((review) => review.reviewer?.id === userId && review.decision === "approved");
  const evidenceGate = awaiting && movesProduction(item) ? await passRateRefusal(db, prompt, item.proposedVersion!) : null;
  const approveBlockedReason = !awaiting
    ? REVIEW_MSG.notOpen
    : isAuthor
      ? REVIEW_MSG.ownApproval
      : prompt.archived
        ? REVIEW_MSG.archived
        : item.status === "stale"
          ? REVIEW_MSG.stale
          : approvedByMe
            ? REVIEW_MSG.alreadyReviewed
            : (evidenceGate?.message ?? null);
  return changeRequestDetail.parse({
    ...item,
    currentVersion: row.currentVersion,
    base,
    proposed,
    reviews: reviews.map((review) => ({ ...review, reviewer: person(review.reviewer) })),
    isReviewer,
    isAuthor,
    can: {
      approve: isReviewer && approveBlockedReason === null,
      reject: isReviewer && awaiting && !isAuthor,
      withdraw: isAuthor && awaiting,
      refresh: isAuthor && item.status === "stale" && !prompt.archived,
    },
    approveBlockedReason: isReviewer || isAuthor ? approveBlockedReason : null,
    approvers,
  });
}

/**
 * The team's admins and its organization's admins, by name: those who approve its change requests
 * (prompt.label.protected by their role in the team, or in the organization, as the permission table says).
 */
async function reviewersOf(db: DbOrTx, teamId: string) {
  const rows = await db.$queryRaw<{ person: Person; teamRole: TeamRole | null; organizationRole: OrganizationRole | null }[]>`
    WITH team AS (SELECT id, organization_id FROM teams WHERE id = ${teamId}::uuid),
    people AS (
      SELECT tm.user_id FROM team_members tm JOIN team ON tm.team_id = team.id
      UNION
      SELECT om.user_id FROM organization_members om JOIN team ON om.organization_id = team.organization_id)
    SELECT json_build_object('id', u.id, 'fullName', pr.full_name, 'email', u.email, 'avatarKey', pr.avatar_key) AS person,
           tm.role::text AS "teamRole", om.role::text AS "organizationRole"
    FROM people x CROSS JOIN team JOIN users u ON u.id = x.user_id LEFT JOIN profiles pr ON pr.user_id = u.id
    LEFT JOIN team_members tm ON tm.team_id = team.id AND tm.user_id = u.id
    LEFT JOIN organization_members om ON om.organization_id = team.organization_id AND om.user_id = u.id
    ORDER BY lower(COALESCE(NULLIF(pr.full_name, ''), u.email)), u.id`;
  // Super users may approve anywhere and are named as such, not listed.
  const by = (where: { teamRole?: TeamRole | null; organizationRole?: OrganizationRole | null }) =>
    can(accessOf({ role: "user", isSuperUser: false }, where), "prompt.label.protected");
  return rows
    .map((row) => ({ ...person(row.person)!, teamAdmin: by({ teamRole: row.teamRole }), organizationAdmin: by({ organizationRole: row.organizationRole }) }))
    .filter((reviewer) => reviewer.teamAdmin || reviewer.organizationAdmin);
}

/** A reviewer as a person, without their roles. */
const asPerson = ({ teamAdmin: _team, organizationAdmin: _organization, ...reviewer }: Awaited<ReturnType<typeof reviewersOf>>[number]) => reviewer;

/** The people who may approve a request of the team, its author left out. */
async function approversOf(db: DbOrTx, teamId: string, authorId: string | null) {
  return (await reviewersOf(db, teamId)).filter((reviewer) => reviewer.id !== authorId).map(asPerson);
}

export const teamReviewersAnswer = z.object({
  teamAdmins: z.array(personItem),
  /** The organization's admins (some may be team admins too). */
  organizationAdmins: z.array(personItem),
});

/** Who approves the team's change requests: its admins (never their own request), its organization's admins, and super users (not listed). */
export async function teamReviewers(db: DbOrTx, teamId: string) {
  const reviewers = await reviewersOf(db, teamId);
  return teamReviewersAnswer.parse({
    teamAdmins: reviewers.filter((reviewer) => reviewer.teamAdmin).map(asPerson),
    organizationAdmins: reviewers.filter((reviewer) => reviewer.organizationAdmin).map(asPerson),
  });
}

/** A request that moves `production` to a version: the one the team's required pass rate gates. */
const movesProduction = (request: { kind: string; label: string; baseVersion: number | null; proposedVersion: number | null }) =>
  request.kind === "label" && request.label === PROTECTED_LABEL && request.proposedVersion !== null && request.proposedVersion !== request.baseVersion;

/**
 * The evidence beside a request: the proposed version's latest finished evaluation, and the version
 * `production` points at now, on the same cases where one evaluation ran both; with the team's required pass rate.
 */
export async function getChangeRequestEvidence(db: DbOrTx, prompt: LoadedPrompt, id: string) {
  const request = await db.changeRequest.findUnique({ where: { id }, select: { proposedVersion: true, label: true } });
  if (!request) return fail("NOT_FOUND", MSG.notFound);
  const [current, required] = await Promise.all([
    db.promptLabel.findUnique({ where: { promptId_name: { promptId: prompt.id, name: request.label } }, select: { version: true } }),
    requiredPassRate(db, prompt.teamId),
  ]);
  const evidence = await versionsEvidence(db, prompt.id, request.proposedVersion, current?.version ?? null);
  return changeRequestEvidence.parse({ requiredPassRate: required, ...evidence });
}

// ---- writes ----

async function markStale(db: DbOrTx, id: string, now: Date) {
  await db.changeRequest.updateMany({ where: { id, status: "open" }, data: { status: "stale", updatedAt: now } });
}

/** The label's state now (null: not set), what a request's base is compared with. */
function labelState(tx: DbTransaction, promptId: string, label: string): Promise<LabelState | null> {
  return tx.promptLabel.findUnique({ where: { promptId_name: { promptId, name: label } }, select: { version: true, candidateVersion: true, candidateWeight: true } });
}

/** A request's base as stored: the label's version and split when it was made or refreshed. */
const baseOf = (state: LabelState | null) => ({
  baseVersion: state?.version ?? null,
  baseCandidateVersion: state?.candidateVersion ?? null,
  baseCandidateWeight: state?.candidateWeight ?? null,
});

/** Whether the label is still in the state the request was based on: its version and its split alike. */
const isBase = (request: ReturnType<typeof baseOf>, state: LabelState | null) => {
  const now = baseOf(state);
  return request.baseVersion === now.baseVersion && request.baseCandidateVersion === now.baseCandidateVersion && request.baseCandidateWeight === now.baseCandidateWeight;
};

const refuseArchived = (prompt: LoadedPrompt) => refuse(archivedRefusal(prompt.archived, REVIEW_MSG.archived));

/**
 * A request to point `production` at `version`, based on what it points at now; the audit trail records it
 * ("Review requested"). With `weight`, a split: `production` keeps its version and serves `version` to that
 * percent of fetches. Without, `version` alone: a promotion, or, when `production` is split, its version
 * (the split rolled back) or its candidate (promoted). With `endSplit` instead of a version, the end of
 * the split as it is when the request is made (read in its transaction), refused if it is not the split its author saw.
 */
export async function createChangeRequest(
  db: Db,
  caller: Caller,
  prompt: LoadedPrompt,
  input: CreateChangeRequestInput | (Omit<CreateChangeRequestInput, "version" | "weight"> & { endSplit: SplitEnd }),
  now: Date,
  context: AuditContext,
) {
  refuseArchived(prompt);
  refuse(changeRequestRefusal(prompt.facts));
  const label = PROTECTED_LABEL;
  return db.$transaction(async (tx) => {
    // Requests of one prompt are made and decided one at a time, under its row's lock.
    await lockLivePrompt(tx, prompt.id, REVIEW_MSG.archived);
    const version = "endSplit" in input ? await splitEndVersion(tx, prompt.id, label, input.endSplit) : input.version;
    const exists = await tx.promptVersion.findUnique({ where: { promptId_version: { promptId: prompt.id, version } }, select: { id: true } });
    if (!exists) fail("NOT_FOUND", PROMPT_MSG.versionNotFound, "VERSION_NOT_FOUND");
    const current = await labelState(tx, prompt.id, label);
    const base = baseOf(current);
    const baseVersion = base.baseVersion;
    const weight = ("weight" in input ? input.weight : undefined) ?? null;
    if (weight !== null) refuse(splitRefusal(baseVersion, version));
    // Pointing a split `production` at its own version alone ends the split: that is a change.
    if (weight === null && baseVersion === version && current?.candidateVersion == null) {
      fail("STATE_CONFLICT", REVIEW_MSG.alreadyInProduction, "ALREADY_IN_PRODUCTION");
    }
    const duplicate = await tx.changeRequest.findFirst({
      where: { promptId: prompt.id, kind: "label", label, proposedVersion: version, proposedWeight: weight, status: { in: ["open", "stale"] } },
      select: { id: true },
    });
    if (duplicate) fail("ALREADY_EXISTS", REVIEW_MSG.duplicateOpen, "DUPLICATE_REQUEST");
    const created = await tx.changeRequest.create({
      data: {
        promptId: prompt.id,
        label,
        ...base,
        proposedVersion: version,
        proposedWeight: weight,
        message: input.message ?? "",
        authorId: caller.userId,
        createdAt: now,
        updatedAt: now,
      },
      select: { id: true },
    });
    await notify(tx, { kind: "review_requested", changeRequestId: created.id, promptId: prompt.id, teamId: prompt.teamId, actorId: caller.userId }, now);
    await auditRequested(tx, context, prompt, created.id, { kind: "label", label, ...base, proposedVersion: version, proposedWeight: weight }, input.message);
    return { id: created.id };
  });
}

/**
 * A request to archive a prompt that carries `production`, based on the version it points at now: the
 * way to archive it where the team reviews changes to `production`. Any who may archive the prompt may ask.
 */
export async function createArchiveRequest(db: Db, caller: Caller, prompt: LoadedPrompt, input: CreateArchiveRequestInput, now: Date, context: AuditContext) {
  refuseArchived(prompt);
  refuse(changeRequestRefusal(prompt.facts));
  const label = PROTECTED_LABEL;
  return db.$transaction(async (tx) => {
    await lockLivePrompt(tx, prompt.id, REVIEW_MSG.archived);
    const base = baseOf(await labelState(tx, prompt.id, label));
    const baseVersion = base.baseVersion;
    if (baseVersion === null) fail("STATE_CONFLICT", REVIEW_MSG.archiveWithoutProduction, "NO_PRODUCTION");
    const duplicate = await tx.changeRequest.findFirst({ where: { promptId: prompt.id, kind: "archive", status: { in: ["open", "stale"] } }, select: { id: true } });
    if (duplicate) fail("ALREADY_EXISTS", REVIEW_MSG.duplicateArchive, "DUPLICATE_REQUEST");
    const created = await tx.changeRequest.create({
      data: { promptId: prompt.id, kind: "archive", label, ...base, proposedVersion: null, message: input.message ?? "", authorId: caller.userId, createdAt: now, updatedAt: now },
      select: { id: true },
    });
    await notify(tx, { kind: "review_requested", changeRequestId: created.id, promptId: prompt.id, teamId: prompt.teamId, actorId: caller.userId }, now);
    await auditRequested(tx, context, prompt, created.id, { kind: "archive", label, ...base, proposedVersion: null, proposedWeight: null }, input.message);
    return { id: created.id };
  });
}

/** The audit trail's "Review requested", for a label request and an archive request alike. */
function auditRequested(
  tx: DbTransaction,
  context: AuditContext,
  prompt: LoadedPrompt,
  id: string,
  request: Omit<LockedRequest, "status" | "authorId">,
  message: string | undefined,
) {
  return auditAs(tx, context, {
    organizationId: prompt.organizationId,
    teamId: prompt.teamId,
    promptId: prompt.id,
    action: "change_request.create",
    target: { type: "change_request", id, name: requestName(request) },
    before: baseEntry(request),
    after: { label: request.label, version: request.proposedVersion, ...proposedExtras(request), message: message ?? "" },
  });
}

interface LockedRequest {
  kind: (typeof CHANGE_REQUEST_KINDS)[number];
  status: ChangeRequestStatus;
  authorId: string | null;
  label: string;
  baseVersion: number | null;
  baseCandidateVersion: number | null;
  baseCandidateWeight: number | null;
  proposedVersion: number | null;
  proposedWeight: number | null;
}

/** What a request's audit entries add beside the proposed version: an archive, or a split's weight. */
const proposedExtras = (request: Pick<LockedRequest, "kind" | "proposedWeight">) => ({
  ...(request.kind === "archive" ? { archive: true } : {}),
  ...(request.proposedWeight !== null ? { weight: request.proposedWeight } : {}),
});

/** A request that ends a split back onto the label's own version: a rollback (that version holds it), audited and notified as one. */
const endsSplitBack = (request: Pick<LockedRequest, "baseVersion" | "baseCandidateVersion" | "proposedVersion" | "proposedWeight">) =>
  request.proposedWeight === null && request.baseCandidateVersion !== null && request.proposedVersion === request.baseVersion;

/** Locks the request's row, then its prompt's: who decides second waits here and sees the first's decision. */
async function lockRequest(tx: DbTransaction, id: string, promptId: string): Promise<LockedRequest> {
  const [row] = await tx.$queryRaw<LockedRequest[]>`
    SELECT kind::text AS kind, status::text AS status, author_id::text AS "authorId", label, base_version AS "baseVersion",
           base_candidate_version AS "baseCandidateVersion", base_candidate_weight AS "baseCandidateWeight", proposed_version AS "proposedVersion",
           proposed_weight AS "proposedWeight"
    FROM change_requests WHERE id = ${id}::uuid FOR UPDATE`;
  if (!row) return fail("NOT_FOUND", MSG.notFound);
  // A decision archives the prompt at most (never deletes it): merges go on writing its generations.
  await tx.$queryRaw`SELECT 1 FROM prompts WHERE id = ${promptId}::uuid ${promptLockSql("edit")}`;
  return row;
}

const awaitingDecision = (request: LockedRequest) => {
  if (request.status !== "open" && request.status !== "stale") fail("STATE_CONFLICT", REVIEW_MSG.notOpen, "REQUEST_CLOSED");
};

const countApprovals = (tx: DbTransaction, id: string) => tx.changeRequestReview.count({ where: { changeRequestId: id, decision: "approved" } });

/**
 * An approval; the one that reaches the team's count moves the label in this transaction (status
 * `approved`). A stale request is marked so (that write is kept) and the approval refused.
 */
export async function approveChangeRequest(
  db: Db,
  caller: Caller,
  prompt: LoadedPrompt,
  id: string,
  comment: string | undefined,
  now: Date,
  context: AuditContext,
) {
  refuseArchived(prompt);
  const result = await db.$transaction(async (tx) => {
    const request = await lockRequest(tx, id, prompt.id);
    awaitingDecision(request);
    if (request.authorId === caller.userId) fail("FORBIDDEN", REVIEW_MSG.ownApproval, "OWN_REQUEST");
    // Stale when the label moved or its split changed since: a split (or its end) is decided on the split it was asked on.
    if (request.status === "stale" || !isBase(request, await labelState(tx, prompt.id, request.label))) {
      await markStale(tx, id, now);
      return { stale: true } as const;
    }
    const previous = await tx.changeRequestReview.findUnique({ where: { changeRequestId_reviewerId: { changeRequestId: id, reviewerId: caller.userId } }, select: { id: true } });
    if (previous) fail("STATE_CONFLICT", REVIEW_MSG.alreadyReviewed, "ALREADY_REVIEWED");
    // Review with evidence: every approval of a `production` move asks the team's required pass rate.
    if (movesProduction(request)) refuse(await passRateRefusal(tx, prompt, request.proposedVersion!));
    await tx.changeRequestReview.create({ data: { changeRequestId: id, reviewerId: caller.userId, decision: "approved", comment: comment ?? "", createdAt: now } });
    const [approvals, approvalsNeeded] = await Promise.all([countApprovals(tx, id), approvalsToMove(tx, prompt.teamId)]);
    let status: ChangeRequestStatus = "open";
    if (approvals >= approvalsNeeded) {
      if (request.proposedVersion === null) {
        // An archive request: the prompt's row is locked and live (refused above otherwise).
        await tx.prompt.update({ where: { id: prompt.id }, data: { archivedAt: now, updatedAt: now } });
        await auditPrompt(tx, context, prompt, "prompt.archive", {});
      } else if (request.proposedWeight !== null) {
        await splitLabelIn(tx, prompt, request.label, request.proposedVersion, request.proposedWeight, caller.userId, now, context);
      } else {
        await moveLabel(tx, prompt, request.label, request.proposedVersion, caller.userId, now, context, { rollback: endsSplitBack(request) });
      }
      status = "approved";
      await notifyDecision(tx, prompt, id, request, request.kind === "archive" ? "archived" : "merged", caller.userId, now);
    }
    await tx.changeRequest.update({ where: { id }, data: { status, updatedAt: now, closedAt: status === "approved" ? now : null } });
    await auditDecision(tx, context, prompt, id, request, "change_request.approve", { status, approvals, approvalsNeeded, comment: comment ?? "" });
    return { stale: false, decision: { id, status, approvals, approvalsNeeded } } as const;
  });
  if (result.stale) return fail("PRECONDITION", REVIEW_MSG.stale, "REQUEST_STALE");
  return result.decision;
}

/** A decision on a change request, on the prompt's Activity: the label, the versions it concerns, the outcome. */
function auditDecision(
  tx: DbTransaction,
  context: AuditContext,
  prompt: LoadedPrompt,
  id: string,
  request: LockedRequest,
  action: "change_request.approve" | "change_request.reject",
  after: Record<string, unknown>,
) {
  return auditAs(tx, context, {
    organizationId: prompt.organizationId,
    teamId: prompt.teamId,
    promptId: prompt.id,
    action,
    target: { type: "change_request", id, name: requestName(request) },
    before: baseEntry(request),
    after: { label: request.label, version: request.proposedVersion, ...proposedExtras(request), ...after },
  });
}

type RequestBase = Pick<LockedRequest, "label" | "baseVersion" | "baseCandidateVersion" | "baseCandidateWeight">;

/** The base's split, when the label was split as the request was made: `{ version, weight }` of its candidate. */
const baseSplit = (request: RequestBase) =>
  request.baseCandidateVersion !== null && request.baseCandidateWeight !== null ? { version: request.baseCandidateVersion, weight: request.baseCandidateWeight } : null;

/** A request's audit entries' `before`: the label as the request was based on it, its split beside its version (as a move's entry has it). */
const baseEntry = (request: RequestBase) => {
  const split = baseSplit(request);
  return { label: request.label, version: request.baseVersion, ...(split ? { split } : {}) };
};

/**
 * A request's name in the audit trail and webhooks. One based on a split names the split, and one that
 * points the label at a version alone says it ends it: rolled back onto its version, its candidate promoted.
 */
const requestName = (request: RequestBase & Pick<LockedRequest, "proposedVersion" | "proposedWeight">) => {
  const split = baseSplit(request);
  // A label on no version yet is "nowhere", as a move's entry words it ("Moved production from nowhere to v2").
  const base = split ? `v${request.baseVersion} ${100 - split.weight}% · v${split.version} ${split.weight}%` : request.baseVersion === null ? "nowhere" : `v${request.baseVersion}`;
  if (request.proposedVersion === null) return `archive (${request.label} on ${base})`;
  // A split is refused on a label with no version (splitRefusal): its base is a version.
  if (request.proposedWeight !== null) return `${request.label}: v${request.baseVersion} ${100 - request.proposedWeight}% · v${request.proposedVersion} ${request.proposedWeight}%`;
  if (!split) return `${request.label}: ${base} → v${request.proposedVersion}`;
  const end = request.proposedVersion === request.baseVersion ? "split rolled back" : request.proposedVersion === split.version ? "split promoted" : "split ended";
  return `${request.label}: ${base} → v${request.proposedVersion} (${end})`;
};


function notifyDecision(tx: DbTransaction, prompt: LoadedPrompt, id: string, request: LockedRequest, decision: "merged" | "archived" | "rejected", actorId: string, now: Date) {
  if (!request.authorId) return Promise.resolve();
  return notify(tx, { kind: "review_decided", changeRequestId: id, promptId: prompt.id, requesterId: request.authorId, decision, actorId }, now);
}

/** A rejection closes the request; a reviewer who approved before may still reject (their approval is replaced). */
export async function rejectChangeRequest(db: Db, caller: Caller, prompt: LoadedPrompt, id: string, comment: string, now: Date, context: AuditContext) {
  return db.$transaction(async (tx) => {
    const request = await lockRequest(tx, id, prompt.id);
    awaitingDecision(request);
    if (request.authorId === caller.userId) fail("FORBIDDEN", REVIEW_MSG.ownReject, "OWN_REQUEST");
    await tx.changeRequestReview.deleteMany({ where: { changeRequestId: id, reviewerId: caller.userId } });
    await tx.changeRequestReview.create({ data: { changeRequestId: id, reviewerId: caller.userId, decision: "rejected", comment, createdAt: now } });
    await tx.changeRequest.update({ where: { id }, data: { status: "rejected", updatedAt: now, closedAt: now } });
    await notifyDecision(tx, prompt, id, request, "rejected", caller.userId, now);
    await auditDecision(tx, context, prompt, id, request, "change_request.reject", { status: "rejected", comment });
    const [approvals, approvalsNeeded] = await Promise.all([countApprovals(tx, id), approvalsToMove(tx, prompt.teamId)]);
    return { id, status: "rejected" as const, approvals, approvalsNeeded };
  });
}

/** The author takes their request back. */
export async function withdrawChangeRequest(db: Db, caller: Caller, prompt: LoadedPrompt, id: string, now: Date) {
  return db.$transaction(async (tx) => {
    const request = await lockRequest(tx, id, prompt.id);
    if (request.authorId !== caller.userId) fail("FORBIDDEN", REVIEW_MSG.authorOnly, "AUTHOR_ONLY");
    awaitingDecision(request);
    await tx.changeRequest.update({ where: { id }, data: { status: "withdrawn", updatedAt: now, closedAt: now } });
    return { id, status: "withdrawn" as const };
  });
}

/** The author re-bases a stale request on what `production` points at now; its approvals are cleared and reviewers asked again. */
export async function refreshChangeRequest(db: Db, caller: Caller, prompt: LoadedPrompt, id: string, now: Date) {
  refuseArchived(prompt);
  return db.$transaction(async (tx) => {
    const request = await lockRequest(tx, id, prompt.id);
    if (request.authorId !== caller.userId) fail("FORBIDDEN", REVIEW_MSG.authorOnly, "AUTHOR_ONLY");
    awaitingDecision(request);
    const state = await labelState(tx, prompt.id, request.label);
    const current = state?.version ?? null;
    if (isBase(request, state) && request.status === "open") fail("STATE_CONFLICT", REVIEW_MSG.notStale, "NOT_STALE");
    if (request.kind === "archive" && current === null) fail("STATE_CONFLICT", REVIEW_MSG.archiveWithoutProduction, "NO_PRODUCTION");
    if (request.kind === "label" && current === request.proposedVersion && state?.candidateVersion == null && request.proposedWeight === null) {
      fail("STATE_CONFLICT", REVIEW_MSG.alreadyInProduction, "ALREADY_IN_PRODUCTION");
    }
    await tx.changeRequestReview.deleteMany({ where: { changeRequestId: id } });
    await tx.changeRequest.update({ where: { id }, data: { ...baseOf(state), status: "open", updatedAt: now } });
    await notify(tx, { kind: "review_requested", changeRequestId: id, promptId: prompt.id, teamId: prompt.teamId, actorId: caller.userId }, now);
    return { id, status: "open" as const, baseVersion: current };
  });
}
