// What every invitation shares, team or organization: its lifetime, the lock that serialises inviting
// one address to one place, the limits on how many one person sends and one address receives, and the
// quiet period in which inviting again sends no second mail.
import type { Db } from "@promptly/db";
import { TEAM_MSG } from "@promptly/shared";
import { fail } from "../../errors.ts";
import type { RateLimits } from "../platform/rate-limits.ts";

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
