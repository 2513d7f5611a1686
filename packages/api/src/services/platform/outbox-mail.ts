// What each kind of outbox message says, decided when it is sent: the emailed link is issued now (so
// its lifetime starts when it leaves), and a message whose reason is gone (no such account, an
// invitation cancelled or accepted, a sign-in link asked for too long ago) is skipped, not sent.
import { linkToken } from "./secret-box.ts";
import { EMAIL_VERIFICATION_TTL_HOURS, INVITE_TTL_DAYS, MAGIC_LINK_TTL_MINUTES, ORGANIZATION_ROLE_LABELS, PASSWORD_RESET_TTL_MINUTES, TEAM_ROLE_LABELS, displayName } from "@promptly/shared";
import type { DbOrTx } from "@promptly/db";
import { alreadyRegisteredEmail, magicLinkEmail, passwordResetEmail, verificationEmail } from "../identity/auth-emails.ts";
import { renderEmail } from "./emails.ts";
import { issueToken } from "../identity/tokens.ts";
import { renderNotificationMail, type NotificationMailPayload } from "../notifications/notification-inbox.ts";
import type { MailKind } from "@promptly/db";

/** What each kind of message needs besides its recipient. */
interface MailPayloads {
  email_verification: { browserHash: string | null; redirectTo: string | null };
  already_registered: Record<string, never>;
  magic_link: { redirectTo: string | null };
  password_reset: Record<string, never>;
  team_invite: { inviteId: string };
  organization_invite: { inviteId: string };
  notification: NotificationMailPayload;
}

export type MailRequest = { [K in MailKind]: { kind: K; to: string; payload: MailPayloads[K] } }[MailKind];

const MINUTE = 60_000;

/** Sign-in and reset links are asked for by someone waiting for them: past this, a new one must be asked for. */
const MAX_WAIT_MS: Partial<Record<MailRequest["kind"], number>> = {
  magic_link: 60 * MINUTE,
  password_reset: 2 * 60 * MINUTE,
};

export type RenderedMail = { subject: string; text: string; html: string } | { skip: string };

/** The invitation's page; its token (only the server can make it) lets the link's holder sign up as the invited address in one step. */
const acceptInviteUrl = (config: { appUrl: string; secret: string }, inviteId: string) =>
  `${config.appUrl.replace(/\/+$/, "")}/auth/accept-invite?id=${encodeURIComponent(inviteId)}&token=${linkToken(config.secret, "invite link v1", inviteId)}`;

const inviterName = (inviter: { email: string; profile: { fullName: string | null } | null } | null) =>
  inviter ? displayName(inviter.profile?.fullName, inviter.email) : "A colleague";

const inviterSelect = { select: { email: true, profile: { select: { fullName: true } } } } as const;

export async function renderOutboxMail(
  deps: { db: DbOrTx; config: { appUrl: string; secret: string } },
  mail: MailRequest,
  at: { createdAt: Date; now: Date },
): Promise<RenderedMail> {
  const { db, config } = deps;
  const maxWait = MAX_WAIT_MS[mail.kind];
  if (maxWait !== undefined && at.now.getTime() - at.createdAt.getTime() > maxWait) {
    return { skip: "Asked for too long ago; a new link must be requested" };
  }
  const account = () => db.user.findUnique({ where: { email: mail.to }, select: { id: true, emailVerifiedAt: true } });
  switch (mail.kind) {
    case "already_registered":
      return alreadyRegisteredEmail(config.appUrl);
    case "email_verification": {
      const user = await account();
      if (!user || user.emailVerifiedAt) return { skip: "No unconfirmed account has this address" };
      const token = await issueToken(db, {
        userId: user.id,
        purpose: "email_verification",
        ttlMs: EMAIL_VERIFICATION_TTL_HOURS * 60 * MINUTE,
        now: at.now,
        redirectTo: mail.payload.redirectTo,
        browserHash: mail.payload.browserHash,
      });
      return verificationEmail(config.appUrl, token);
    }
    case "magic_link": {
      const user = await account();
      if (!user) return { skip: "No account has this address" };
      const token = await issueToken(db, {
        userId: user.id,
        purpose: "magic_link",
        ttlMs: MAGIC_LINK_TTL_MINUTES * MINUTE,
        now: at.now,
        redirectTo: mail.payload.redirectTo,
      });
      return magicLinkEmail(config.appUrl, token);
    }
    case "password_reset": {
      const user = await account();
      if (!user) return { skip: "No account has this address" };
      const token = await issueToken(db, { userId: user.id, purpose: "password_reset", ttlMs: PASSWORD_RESET_TTL_MINUTES * MINUTE, now: at.now });
      return passwordResetEmail(config.appUrl, token);
    }
    case "team_invite": {
      const invite = await db.pendingInvite.findUnique({
        where: { id: mail.payload.inviteId },
        select: {
          id: true, email: true, role: true, status: true, expiresAt: true, invitedBy: inviterSelect,
          team: { select: { name: true, organization: { select: { name: true } } } },
        },
      });
      if (!invite || invite.status !== "pending" || invite.expiresAt <= at.now || invite.email !== mail.to) {
        return { skip: "The invitation is no longer pending" };
      }
      return renderEmail({
        subject: `You're invited to join ${invite.team.name} on Promptly`,
        paragraphs: [
          `${inviterName(invite.invitedBy)} invited you to join the team ${invite.team.name} in ${invite.team.organization.name} as ${TEAM_ROLE_LABELS[invite.role]}.`,
          "Sign in or create an account with this email address, then accept the invitation.",
        ],
        action: { label: "Accept invitation", url: acceptInviteUrl(config, invite.id) },
        footnote: `This invitation expires in ${INVITE_TTL_DAYS} days. If you did not expect it, you can ignore this email.`,
      });
    }
    case "organization_invite": {
      const invite = await db.organizationInvite.findUnique({
        where: { id: mail.payload.inviteId },
        select: { id: true, email: true, role: true, status: true, expiresAt: true, invitedBy: inviterSelect, organization: { select: { name: true } } },
      });
      if (!invite || invite.status !== "pending" || invite.expiresAt <= at.now || invite.email !== mail.to) {
        return { skip: "The invitation is no longer pending" };
      }
      return renderEmail({
        subject: `You're invited to join ${invite.organization.name} on Promptly`,
        paragraphs: [
          `${inviterName(invite.invitedBy)} invited you to join the organization ${invite.organization.name} as ${ORGANIZATION_ROLE_LABELS[invite.role]}.`,
          "Sign in or create an account with this email address, then accept the invitation.",
        ],
        action: { label: "Accept invitation", url: acceptInviteUrl(config, invite.id) },
        footnote: `This invitation expires in ${INVITE_TTL_DAYS} days. If you did not expect it, you can ignore this email.`,
      });
    }
    case "notification":
      return renderNotificationMail(db, config, mail);
  }
}
