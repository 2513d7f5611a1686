// What a notification says and where it leads, from its kind, its ids and the data kept
// when it happened: the bell and the mail say the same words.
import type { NotificationKind } from "@promptly/db";

/** Kept on the row (`data`): names as they were when it happened. */
export type NotificationData = {
  /** Who did it; null: an API key, nobody to name. */
  actorName: string | null;
  promptName?: string;
  version?: number;
  /** production_moved: a split started, `version` kept and this candidate served beside it. */
  split?: { version: number; weight: number };
  /** production_moved: a rollback to a version that held production before. */
  rollback?: boolean;
  decision?: "approved" | "rejected" | "merged" | "archived";
  teamName?: string;
  /** team_added, invite_accepted: the team's organization (the link makes it active). */
  organizationId?: string;
  organizationName?: string;
  /** invite_accepted: whether the inviter may open the Teams page (their link). */
  teamsPage?: boolean;
};

export interface NotificationFacts {
  kind: NotificationKind;
  promptId: string | null;
  teamId: string | null;
  commentId: string | null;
  changeRequestId: string | null;
  data: unknown;
}

const asData = (data: unknown): NotificationData =>
  data && typeof data === "object" ? (data as NotificationData) : { actorName: null };

/** One line, e.g. "Ana Lima commented on support/refund-policy". */
export function notificationText(facts: NotificationFacts): string {
  const data = asData(facts.data);
  const actor = data.actorName ?? "Someone";
  const prompt = data.promptName ?? "a prompt";
  switch (facts.kind) {
    case "comment":
      return `${actor} commented on ${prompt}`;
    case "reply":
      return `${actor} replied to your comment on ${prompt}`;
    case "mention":
      return `${actor} mentioned you in a comment on ${prompt}`;
    case "review_requested":
      return `${actor} asks for your review of a change to production of ${prompt}`;
    case "review_decided":
      if (data.decision === "rejected") return `${actor} rejected your change request on ${prompt}`;
      if (data.decision === "merged") return `${actor} approved your change request on ${prompt}: production moved`;
      if (data.decision === "archived") return `${actor} approved your change request on ${prompt}: the prompt is archived`;
      return `${actor} approved your change request on ${prompt}`;
    case "production_moved":
      if (data.split) {
        const serves = `v${data.version} ${100 - data.split.weight}% and v${data.split.version} ${data.split.weight}%`;
        return data.actorName ? `${data.actorName} split production of ${prompt}: ${serves}` : `Production of ${prompt} now serves ${serves}`;
      }
      if (data.rollback) {
        return data.actorName ? `${data.actorName} rolled production of ${prompt} back to v${data.version}` : `Production of ${prompt} was rolled back to v${data.version}`;
      }
      return data.actorName
        ? `${data.actorName} moved production of ${prompt} to v${data.version}`
        : `Production of ${prompt} now serves v${data.version}`;
    case "team_added":
      return `${actor} added you to team ${data.teamName ?? "a team"}`;
    case "invite_accepted":
      return data.teamName
        ? `${actor} accepted your invitation to team ${data.teamName}`
        : `${actor} accepted your invitation to ${data.organizationName ?? "your organization"}`;
  }
}

/** The dashboard with that organization and team made active. */
function dashboardWith(organizationId: string | undefined, teamId: string | null): string {
  if (!organizationId) return "/";
  return `/?organizationId=${organizationId}${teamId ? `&teamId=${teamId}` : ""}`;
}

/** The app path it leads to. */
export function notificationHref(facts: NotificationFacts): string {
  const data = asData(facts.data);
  switch (facts.kind) {
    case "comment":
    case "reply":
    case "mention":
      return `/prompts/${facts.promptId}?tab=comments&comment=${facts.commentId}`;
    case "review_requested":
    case "review_decided":
      return `/reviews/${facts.changeRequestId}`;
    case "production_moved":
      return `/prompts/${facts.promptId}?tab=history`;
    case "team_added":
      return dashboardWith(data.organizationId, facts.teamId);
    case "invite_accepted":
      return data.teamsPage ? "/teams" : dashboardWith(data.organizationId, facts.teamId);
  }
}
