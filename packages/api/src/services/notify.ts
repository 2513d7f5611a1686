// What happened that someone may want to hear of (issue 16): the one entry point every feature calls,
// inside the transaction of the change itself, so a notification exists exactly when the change does.
// Who hears of it (the prompt's author and bookmarkers, the mentioned, the reviewers, ...), minus the
// actor and anyone who can no longer read the thing, and whether it also goes out by mail, is decided
// here from each person's preferences; callers only say what happened.
import type { DbOrTx } from "@promptly/db";

/**
 * One event. `actorId` is who did it (null: an API key, nobody to name). Links in the app:
 * comments `/prompts/<promptId>?tab=comments&comment=<commentId>`, change requests
 * `/reviews/<changeRequestId>`, a label move `/prompts/<promptId>?tab=history`.
 */
export type NotificationEvent =
  /** A new top-level comment (or a reply) on a prompt: its author and bookmarkers hear of it. */
  | { kind: "comment"; promptId: string; commentId: string; actorId: string }
  /** A reply: the author of the comment replied to. */
  | { kind: "reply"; promptId: string; commentId: string; parentAuthorId: string; actorId: string }
  /** People named with @ in a comment (new mentions only, also after an edit). */
  | { kind: "mention"; promptId: string; commentId: string; mentionedUserIds: string[]; actorId: string }
  /** A change request waiting for review: the team's reviewers (team admin level) hear of it. */
  | { kind: "review_requested"; changeRequestId: string; promptId: string; teamId: string; actorId: string }
  /** A decision on a change request: its author hears of it. */
  | {
      kind: "review_decided";
      changeRequestId: string;
      promptId: string;
      requesterId: string;
      decision: "approved" | "rejected" | "merged";
      actorId: string;
    }
  /** `production` now points at `version`: the prompt's author and bookmarkers hear of it. */
  | { kind: "production_moved"; promptId: string; version: number; actorId: string | null }
  /** Someone was added to a team. */
  | { kind: "team_added"; teamId: string; userId: string; actorId: string }
  /** An invitation was accepted: whoever sent it hears of it. */
  | { kind: "invite_accepted"; teamId: string | null; organizationId: string; inviterId: string; actorId: string };

/**
 * Records `event` for everyone who should hear of it. Pass the transaction of the change: a change
 * that rolls back leaves no notification and no mail.
 */
export async function notify(_db: DbOrTx, _event: NotificationEvent, _now: Date): Promise<void> {
  // Filled in by the notifications work of issue 16; features call it from the start.
}
