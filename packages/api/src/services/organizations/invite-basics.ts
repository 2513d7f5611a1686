// What every invitation shares, team or organization: its lifetime, the lock that serialises inviting
// one address to one place, the limits on how many one person sends and one address receives, the
// quiet period in which inviting again sends no second mail, and the parts of its mail.
import type { Db } from "@promptly/db";
import { INVITE_TTL_DAYS, TEAM_MSG, displayName } from "@promptly/shared";
import { fail } from "../../errors.ts";
import type { RateLimits } from "../platform/rate-limits.ts";
import { linkToken } from "../platform/secret-box.ts";
import { renderEmail } from "../platform/emails.ts";
import type { RenderedMail } from "../platform/outbox-mail.ts";

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Namespace of the advisory lock that serialises invitations of one address to one team or organization. */
export const INVITE_LOCK = 7_253_003;

export interface InviteDeps {
  db: Db;
  now: () => Date;
}

/** Invitations one person may send in an hour, and invitation mails one address may receive in an hour. */
const INVITE_RATE_LIMITS = {
  inviter: { limit: 50, windowMs: 60 * 60_000 },
  address: { limit: 5, windowMs: 60 * 60_000 },
} as const;
/** Inviting the same address to the same place again within this time sends no new mail. */
const INVITE_RESEND_QUIET_MS = 5 * 60_000;

export interface InviteLimits {
  rateLimiter: RateLimits;
  rateLimits: boolean;
}

/**
 * Whether an invitation to the same address and place is pending already (resent), and was mailed
 * within the quiet period (quiet: no new mail).
 */
export function resendOf(previous: { status: string; createdAt: Date } | null, now: Date) {
  const resent = previous?.status === "pending";
  return { resent, quiet: resent && now.getTime() - previous!.createdAt.getTime() < INVITE_RESEND_QUIET_MS };
}

/** Counts one invitation by `inviterId` (and one mail to `email` when one is to be sent); 429 past the limits. */
export async function enforceInviteLimits(limits: InviteLimits, inviterId: string, email: string | null) {
  if (!limits.rateLimits) return;
  const [byInviter, byAddress] = await Promise.all([
    limits.rateLimiter.hit("invite:inviter", INVITE_RATE_LIMITS.inviter, inviterId),
    email === null ? { allowed: true } : limits.rateLimiter.hit("invite:address", INVITE_RATE_LIMITS.address, email),
  ]);
  if (!byInviter.allowed || !byAddress.allowed) fail("RATE_LIMITED", TEAM_MSG.tooManyInvitations);
}

// ---- the invitation mail's parts ----

declare module "../platform/outbox-mail.ts" {
  interface MailPayloads {
    team_invite: { inviteId: string };
    organization_invite: { inviteId: string };
  }
}

/** The invitation's page; its token (only the server can make it) lets the link's holder sign up as the invited address in one step. */
const acceptInviteUrl = (config: { appUrl: string; secret: string }, inviteId: string) =>
  `${config.appUrl.replace(/\/+$/, "")}/auth/accept-invite?id=${encodeURIComponent(inviteId)}&token=${linkToken(config.secret, "invite link v1", inviteId)}`;

const inviterName = (inviter: { email: string; profile: { fullName: string | null } | null } | null) =>
  inviter ? displayName(inviter.profile?.fullName, inviter.email) : "A colleague";

export const inviterSelect = { select: { email: true, profile: { select: { fullName: true } } } } as const;

interface InvitationMail {
  id: string;
  email: string;
  status: string;
  expiresAt: Date;
  invitedBy: { email: string; profile: { fullName: string | null } | null } | null;
}

/**
 * The invitation mail, team or organization: skipped when the invitation can no longer be accepted by
 * its address (cancelled, accepted, expired, or its address changed); else who invites to what, as what.
 */
export function invitationMail(
  invite: InvitationMail | null,
  mail: { to: string },
  context: { config: { appUrl: string; secret: string }; at: { now: Date } },
  what: { place: string; joins: string; role: string } | null,
): RenderedMail {
  if (!invite || !what || invite.status !== "pending" || invite.expiresAt <= context.at.now || invite.email !== mail.to) {
    return { skip: "The invitation is no longer pending" };
  }
  return renderEmail({
    subject: `You're invited to join ${what.place} on Promptly`,
    paragraphs: [
      `${inviterName(invite.invitedBy)} invited you to join ${what.joins} as ${what.role}.`,
      "Sign in or create an account with this email address, then accept the invitation.",
    ],
    action: { label: "Accept invitation", url: acceptInviteUrl(context.config, invite.id) },
    footnote: `This invitation expires in ${INVITE_TTL_DAYS} days. If you did not expect it, you can ignore this email.`,
  });
}

