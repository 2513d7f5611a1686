// Team invitations (spec 3, 4, 5, 7, 8). Services take `db` (and the mailer where they send) and plain
// ids; no tRPC here. An invite is one row per (team, email): inviting again refreshes and re-sends it.
import type { Db, DbOrTx } from "@promptly/db";
import {
  DEFAULT_ORGANIZATION_MEMBER_ROLE, INVITE_TTL_DAYS, MSG, TEAM_MSG, TEAM_ROLE_LABELS, displayName, normalizeEmail,
  type TeamRole,
} from "@promptly/shared";
import { fail } from "../errors.ts";
import { renderEmail } from "./emails.ts";
import type { Mailer } from "./mailer.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface InviteDeps {
  db: Db;
  mailer: Mailer;
  appUrl: string;
  now: () => Date;
}

export const acceptInviteUrl = (appUrl: string, inviteId: string) =>
  `${appUrl.replace(/\/+$/, "")}/auth/accept-invite?id=${encodeURIComponent(inviteId)}`;

export interface PendingInviteItem {
  id: string;
  teamId: string;
  email: string;
  role: TeamRole;
  createdAt: Date;
  expiresAt: Date;
  /** Past its 7 days: it can no longer be accepted; inviting again renews it. */
  expired: boolean;
}

const inviteSelect = { id: true, teamId: true, email: true, role: true, createdAt: true, expiresAt: true } as const;
const toInviteItem = (row: Omit<PendingInviteItem, "expired">, now: Date): PendingInviteItem => ({
  ...row,
  expired: row.expiresAt.getTime() <= now.getTime(),
});

export async function findInviteTeamId(db: DbOrTx, inviteId: string): Promise<string | null> {
  const row = await db.pendingInvite.findUnique({ where: { id: inviteId }, select: { teamId: true } });
  return row?.teamId ?? null;
}

/** Pending invites of a team, newest first (spec 7). */
export async function listPendingInvites(db: DbOrTx, teamId: string, now: Date): Promise<PendingInviteItem[]> {
  const rows = await db.pendingInvite.findMany({
    where: { teamId, status: "pending" },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    select: inviteSelect,
  });
  return rows.map((row) => toInviteItem(row, now));
}

export type CreateInviteResult =
  | { status: "added"; userId: string; email: string; role: TeamRole; addedToOrganization: boolean }
  | { status: "invited"; invite: PendingInviteItem; emailSent: boolean; resent: boolean };

/**
 * Spec 4, invite: an existing account joins the team at once (and the team's organization as
 * `member` when not in it yet); any other address gets a pending invite and an email with its link.
 * A failed email leaves the invite in place; the result says it was not sent.
 */
export async function createInvite(
  deps: InviteDeps,
  input: { teamId: string; email: string; role: TeamRole; inviterId: string },
): Promise<CreateInviteResult> {
  const { db } = deps;
  const email = normalizeEmail(input.email);
  const team = await db.team.findUnique({
    where: { id: input.teamId },
    select: { id: true, name: true, organizationId: true, organization: { select: { name: true } } },
  });
  if (!team) return fail("NOT_FOUND", MSG.notFound);

  const account = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (account) {
    return db.$transaction(async (tx) => {
      const organization = await tx.organizationMember.createMany({
        data: [{ organizationId: team.organizationId, userId: account.id, role: DEFAULT_ORGANIZATION_MEMBER_ROLE }],
        skipDuplicates: true,
      });
      const membership = await tx.teamMember.createMany({
        data: [{ teamId: team.id, userId: account.id, role: input.role }],
        skipDuplicates: true,
      });
      if (membership.count === 0) fail("CONFLICT", TEAM_MSG.alreadyTeamMember, "ALREADY_MEMBER");
      // An earlier invite to the same address is settled by the direct add.
      await tx.pendingInvite.deleteMany({ where: { teamId: team.id, email, status: "pending" } });
      return { status: "added" as const, userId: account.id, email, role: input.role, addedToOrganization: organization.count === 1 };
    });
  }

  const now = deps.now();
  const expiresAt = new Date(now.getTime() + INVITE_TTL_DAYS * DAY_MS);
  const refreshed = { role: input.role, status: "pending" as const, invitedById: input.inviterId, expiresAt, createdAt: now, acceptedAt: null };
  const { invite, resent } = await db.$transaction(async (tx) => {
    const previous = await tx.pendingInvite.findUnique({
      where: { teamId_email: { teamId: team.id, email } },
      select: { status: true },
    });
    const invite = await tx.pendingInvite.upsert({
      where: { teamId_email: { teamId: team.id, email } },
      create: { teamId: team.id, email, ...refreshed },
      update: refreshed,
      select: inviteSelect,
    });
    return { invite, resent: previous?.status === "pending" };
  });

  const inviter = await db.user.findUnique({
    where: { id: input.inviterId },
    select: { email: true, profile: { select: { fullName: true } } },
  });
  const inviterName = inviter ? displayName(inviter.profile?.fullName, inviter.email) : "A colleague";
  const message = renderEmail({
    subject: `You're invited to join ${team.name} on Promptly`,
    paragraphs: [
      `${inviterName} invited you to join the team ${team.name} in ${team.organization.name} as ${TEAM_ROLE_LABELS[input.role]}.`,
      "Sign in or create an account with this email address, then accept the invitation.",
    ],
    action: { label: "Accept invitation", url: acceptInviteUrl(deps.appUrl, invite.id) },
    footnote: `This invitation expires in ${INVITE_TTL_DAYS} days. If you did not expect it, you can ignore this email.`,
  });
  let emailSent = true;
  try {
    await deps.mailer.send({ to: email, ...message });
  } catch {
    emailSent = false;
  }
  return { status: "invited", invite: toInviteItem(invite, now), emailSent, resent };
}

/** Cancelling deletes the invite (spec 4); an accepted one is no longer pending and cannot be cancelled. */
export async function cancelInvite(db: DbOrTx, input: { teamId: string; inviteId: string }): Promise<void> {
  const { count } = await db.pendingInvite.deleteMany({ where: { id: input.inviteId, teamId: input.teamId, status: "pending" } });
  if (count === 0) fail("NOT_FOUND", MSG.inviteNotFound);
}

/** `ada@example.com` -> `a•••@example.com`: enough for the holder of a link to recognise the address. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  return `${email[0]}•••${email.slice(at)}`;
}

export interface InviteSummary {
  id: string;
  teamName: string;
  organizationName: string;
  role: TeamRole;
  /** The full address only for the signed-in person it was sent to; otherwise masked. */
  email: string;
  /** null for an anonymous visitor. */
  emailMatches: boolean | null;
  expiresAt: Date;
}

/**
 * What the accept page shows. Whoever holds the link may see the team, organization and role; the
 * address itself only to its owner. Accepted, cancelled and expired invites are simply not found.
 */
export async function getInviteSummary(
  db: DbOrTx,
  input: { inviteId: string; viewerEmail: string | null; now: Date },
): Promise<InviteSummary> {
  const row = await db.pendingInvite.findUnique({
    where: { id: input.inviteId },
    select: {
      id: true,
      email: true,
      role: true,
      status: true,
      expiresAt: true,
      team: { select: { name: true, organization: { select: { name: true } } } },
    },
  });
  if (!row || row.status !== "pending" || row.expiresAt.getTime() <= input.now.getTime()) {
    return fail("NOT_FOUND", MSG.inviteNotFound);
  }
  const emailMatches = input.viewerEmail === null ? null : normalizeEmail(input.viewerEmail) === normalizeEmail(row.email);
  return {
    id: row.id,
    teamName: row.team.name,
    organizationName: row.team.organization.name,
    role: row.role,
    email: emailMatches ? row.email : maskEmail(row.email),
    emailMatches,
    expiresAt: row.expiresAt,
  };
}

export interface AcceptedInvite {
  teamId: string;
  teamName: string;
  organizationId: string;
  role: TeamRole;
  addedToOrganization: boolean;
  addedToTeam: boolean;
}

/**
 * Spec 4/7, accept: the signed-in person whose email matches (case-insensitively) joins the
 * organization (as `member`, when not in it yet) and the team, and the invite is marked accepted,
 * all in one transaction. The conditional status update makes a second (or concurrent) accept fail.
 */
export async function acceptInvite(
  db: Db,
  input: { inviteId: string; userId: string; email: string; now: Date },
): Promise<AcceptedInvite> {
  return db.$transaction(async (tx) => {
    const invite = await tx.pendingInvite.findUnique({
      where: { id: input.inviteId },
      select: { id: true, email: true, role: true, status: true, expiresAt: true, team: { select: { id: true, name: true, organizationId: true } } },
    });
    if (!invite || invite.status !== "pending" || invite.expiresAt.getTime() <= input.now.getTime()) {
      return fail("NOT_FOUND", MSG.inviteNotFound);
    }
    if (normalizeEmail(invite.email) !== normalizeEmail(input.email)) return fail("FORBIDDEN", MSG.inviteWrongEmail);
    const marked = await tx.pendingInvite.updateMany({
      where: { id: invite.id, status: "pending", expiresAt: { gt: input.now } },
      data: { status: "accepted", acceptedAt: input.now },
    });
    if (marked.count === 0) return fail("NOT_FOUND", MSG.inviteNotFound);
    const organization = await tx.organizationMember.createMany({
      data: [{ organizationId: invite.team.organizationId, userId: input.userId, role: DEFAULT_ORGANIZATION_MEMBER_ROLE }],
      skipDuplicates: true,
    });
    const team = await tx.teamMember.createMany({
      data: [{ teamId: invite.team.id, userId: input.userId, role: invite.role }],
      skipDuplicates: true,
    });
    return {
      teamId: invite.team.id,
      teamName: invite.team.name,
      organizationId: invite.team.organizationId,
      role: invite.role,
      addedToOrganization: organization.count === 1,
      addedToTeam: team.count === 1,
    };
  });
}
