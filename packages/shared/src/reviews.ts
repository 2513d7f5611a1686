// Reviewed promotion to production: a team's required approvals, and change requests
// that move `production` once the team's admins approve. Inputs and texts shared by the procedures
// and the screens.
import { z } from "zod";
import { PROTECTED_LABEL, splitWeightSchema, versionLabel } from "./prompts.ts";
import { requiredPassRateSchema } from "./evaluations.ts";
import { idSchema } from "./validation.ts";

export const REQUIRED_APPROVALS_MAX = 3;
export const CHANGE_REQUEST_TEXT_MAX = 2000;
export const CHANGE_REQUEST_STATUSES = ["open", "approved", "rejected", "withdrawn", "stale"] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];
/** `label`: point the label at a version; `archive`: archive a prompt that carries it. */
export const CHANGE_REQUEST_KINDS = ["label", "archive"] as const;

export const REVIEW_MSG = {
  reviewRequired: "This team reviews changes to 'production': request a review instead of moving the label",
  reviewRequiredRemove: "This team reviews changes to 'production': the label cannot be removed while reviews are required",
  onlyProduction: "Change requests move the 'production' label only",
  archiveReviewRequired: "This team reviews changes to 'production': this prompt carries it, so request a review to archive it",
  deleteReviewRequired: "This team reviews changes to 'production': this prompt carries it and no approved change request archived it, so it cannot be deleted",
  archiveWithoutProduction: "This prompt carries no 'production' label: archive it directly, no review is needed",
  duplicateArchive: "An open change request already proposes archiving this prompt",
  alreadyInProduction: "'production' already points at this version",
  duplicateOpen: "An open change request already proposes this version",
  archived: "This prompt is archived: restore it before requesting or reviewing changes",
  privatePrompt: "A private prompt is its author's alone: nobody else could review it. Share it with the team to request a review",
  shareUnreviewed: "This team reviews changes to 'production': this private prompt's 'production' points at a version no change request approved, so it cannot be shared",
  ownApproval: "You cannot approve your own change request: another team admin or an organization admin has to approve it",
  ownReject: "You cannot review your own change request: withdraw it instead",
  alreadyReviewed: "You have already approved this change request",
  notOpen: "This change request is closed: it was already approved, rejected or withdrawn",
  stale: "'production' moved since this change request was made: its author has to refresh it before it can be approved",
  notStale: "This change request is up to date: there is nothing to refresh",
  authorOnly: "Only the author of a change request can do this",
  rejectCommentRequired: "Say why you reject the change",
  messageTooLong: `A message has at most ${CHANGE_REQUEST_TEXT_MAX} characters`,
  commentTooLong: `A comment has at most ${CHANGE_REQUEST_TEXT_MAX} characters`,
  approvalsRange: `Required approvals is a whole number from 0 to ${REQUIRED_APPROVALS_MAX}`,
  // The web app's own texts.
  requestedToast: "Review requested",
  approvedToast: "Approved",
  mergedToast: "Approved: 'production' moved",
  archiveMergedToast: "Approved: the prompt is archived",
  rejectedToast: "Rejected",
  withdrawnToast: "Change request withdrawn",
  refreshedToast: "Change request refreshed",
  settingsSavedToast: "Review setting saved",
} as const;

export const CHANGE_REQUEST_STATUS_LABELS: Record<ChangeRequestStatus, string> = {
  open: "Open",
  approved: "Approved",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
  stale: "Needs refresh",
};

/**
 * What a request proposes, in a few words: 'v3 to production', 'v3 at 10% of production' (a split),
 * 'v2 alone in production' (a split rolled back), or 'Archive (production on v2)'.
 */
export function changeRequestTitle(request: {
  kind: (typeof CHANGE_REQUEST_KINDS)[number]; label: string; baseVersion: number | null; proposedVersion: number | null; proposedWeight?: number | null;
}): string {
  if (request.kind === "archive" || request.proposedVersion === null) {
    return `Archive (${request.label} on ${request.baseVersion === null ? "no version" : versionLabel(request.baseVersion)})`;
  }
  if (request.proposedWeight != null) return `${versionLabel(request.proposedVersion)} at ${request.proposedWeight}% of ${request.label}`;
  if (request.proposedVersion === request.baseVersion) return `${versionLabel(request.proposedVersion)} alone in ${request.label}`;
  return `${versionLabel(request.proposedVersion)} to ${request.label}`;
}

/** The sentence under the team's review setting. */
export function requiredApprovalsSentence(count: number): string {
  if (count === 0) return "No review: team admins move 'production' directly.";
  const approvals = count === 1 ? "one team admin" : `${count} team admins`;
  return `Moving 'production' needs a change request approved by ${approvals} other than its author. Nobody moves it directly.`;
}

/** Who approves a team's change requests, as the team's settings and a request's page say it. */
export const APPROVERS_TEXT = "Who can approve: the team's admins other than the requester, the organization's admins, and super users.";

/** A person who may approve, by id and the name shown. */
interface Reviewer {
  id: string;
  name: string;
}

/**
 * The warning beside a review setting nobody may satisfy for some requests: with one team admin, their own
 * requests wait for an organization admin (or a super user when the organization has none); with none, every request does.
 */
export function approversWarning(teamAdmins: readonly Reviewer[], organizationAdmins: readonly Reviewer[]): string | null {
  if (teamAdmins.length === 0) {
    return organizationAdmins.length === 0
      ? "This team has no admin and its organization no admin: only a super user can approve its change requests."
      : "This team has no admin: only an organization admin or a super user can approve its change requests.";
  }
  if (teamAdmins.length > 1) return null;
  const [only] = teamAdmins as [Reviewer];
  const others = organizationAdmins.filter((admin) => admin.id !== only.id).map((admin) => admin.name);
  return others.length === 0
    ? `${only.name} is this team's only admin: their own change requests can only be approved by a super user, as the organization has no other admin. Add a second team admin.`
    : `${only.name} is this team's only admin: their own change requests can only be approved by an organization admin (${others.join(", ")}).`;
}

/** How many approvals move the label: a request made while the team needs none still needs one. */
export const approvalsNeeded = (requiredApprovals: number) => Math.max(1, requiredApprovals);

const requiredApprovalsSchema = z
  .number({ error: REVIEW_MSG.approvalsRange })
  .int(REVIEW_MSG.approvalsRange)
  .min(0, REVIEW_MSG.approvalsRange)
  .max(REQUIRED_APPROVALS_MAX, REVIEW_MSG.approvalsRange);

/** teams.updateSettings: the team comes from the procedure builder (`id`); a setting left out stays as it is. */
export const teamSettingsInput = z.object({ id: idSchema, requiredApprovals: requiredApprovalsSchema.optional(), requiredPassRate: requiredPassRateSchema.optional() });

const messageSchema = z.string().trim().max(CHANGE_REQUEST_TEXT_MAX, REVIEW_MSG.messageTooLong);
const commentSchema = z.string().trim().max(CHANGE_REQUEST_TEXT_MAX, REVIEW_MSG.commentTooLong);

export const createChangeRequestInput = z.object({
  promptId: idSchema,
  label: z.literal(PROTECTED_LABEL, { error: REVIEW_MSG.onlyProduction }),
  version: z.number().int().min(1),
  /** A split release: `production` keeps its version and serves `version` to this percent of fetches. */
  weight: splitWeightSchema.optional(),
  message: messageSchema.default(""),
});
export type CreateChangeRequestInput = z.input<typeof createChangeRequestInput>;

export const listChangeRequestsInput = z.object({
  teamId: idSchema.optional(),
  promptId: idSchema.optional(),
  status: z.enum(CHANGE_REQUEST_STATUSES).optional(),
});

/** A request to archive a prompt that carries `production`. */
export const createArchiveRequestInput = z.object({ promptId: idSchema, message: messageSchema.default("") });
export type CreateArchiveRequestInput = z.input<typeof createArchiveRequestInput>;

export const approveChangeRequestInput = z.object({ id: idSchema, comment: commentSchema.optional() });
export const rejectChangeRequestInput = z.object({ id: idSchema, comment: commentSchema.min(1, REVIEW_MSG.rejectCommentRequired) });
