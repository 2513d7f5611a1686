// Team invitations. Services take `db` (and the mailer where they send) and plain
// ids; no tRPC here. An invite is one row per (team, email): inviting again refreshes and re-sends it.
import type { Db, DbOrTx, DbTransaction } from "@promptly/db";
import { z } from "zod";
import {
  DEFAULT_ORGANIZATION_MEMBER_ROLE, INVITE_TTL_DAYS, MSG, ORGANIZATION_ROLES, TEAM_MSG, TEAM_ROLES, normalizeEmail, type OrganizationRole, type TeamRole,
} from "@promptly/shared";
import { fail } from "../../errors.ts";
import { notify } from "../notifications/notify.ts";
import { enqueueMail } from "../platform/outbox.ts";
import type { RateLimits } from "../platform/rate-limits.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Namespace of the advisory lock that serialises invitations of one address to one team or organization. */
const INVITE_LOCK = 7_253_003;

export interface InviteDeps {
  db: Db;
  now: () => Date;
}

export const pendingInviteItem = z.object({
  id: z.string(),
  teamId: z.string(),
  email: z.string(),
  role: z.enum(TEAM_ROLES),
  createdAt: z.date(),
  expiresAt: z.date(),
  /** Past its 7 days: it can no longer be accepted; inviting again renews it. */
  expired: z.boolean(),
});
export type PendingInviteItem = z.infer<typeof pendingInviteItem>;

const inviteSelect = { id: true, teamId: true, email: true, role: true, createdAt: true, expiresAt: true } as const;
const toInviteItem = (row: Omit<PendingInviteItem, "expired">, now: Date): PendingInviteItem => ({
  ...row,
  expired: row.expiresAt.getTime() <= now.getTime(),
});

export async function findInviteTeamId(db: DbOrTx, inviteId: string): Promise<string | null> {
  const row = await db.pendingInvite.findUnique({ where: { id: inviteId }, select: { teamId: true } });
  return row?.teamId ?? null;
}

/** Pending invites of a team, newest first. */
export async function listPendingInvites(db: DbOrTx, teamId: string, now: Date): Promise<PendingInviteItem[]> {
  const rows = await db.pendingInvite.findMany({
    where: { teamId, status: "pending" },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    select: inviteSelect,
  });
  return rows.map((row) => toInviteItem(row, now));
}

export const createInviteResult = z.discriminatedUnion("status", [
  /** A colleague already in the organization joined the team at once. */
  z.object({ status: z.literal("added"), userId: z.string(), email: z.string(), role: z.enum(TEAM_ROLES), addedToOrganization: z.boolean() }),
  /** resent: the address had a pending invitation already; emailQueued: false when one was mailed minutes ago. */
  z.object({ status: z.literal("invited"), invite: pendingInviteItem, resent: z.boolean(), emailQueued: z.boolean() }),
]);
export type CreateInviteResult = z.infer<typeof createInviteResult>;

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
function resendOf(previous: { status: string; createdAt: Date } | null, now: Date) {
  const resent = previous?.status === "pending";
  return { resent, quiet: resent && now.getTime() - previous!.createdAt.getTime() < INVITE_RESEND_QUIET_MS };
}

/** Counts one invitation by `inviterId` (and one mail to `email` when one is to be sent); 429 past the limits. */
async function enforceInviteLimits(limits: InviteLimits, inviterId: string, email: string | null) {
  if (!limits.rateLimits) return;
  const [byInviter, byAddress] = await Promise.all([
    limits.rateLimiter.hit("invite:inviter", INVITE_RATE_LIMITS.inviter, inviterId),
    email === null ? { allowed: true } : limits.rateLimiter.hit("invite:address", INVITE_RATE_LIMITS.address, email),
  ]);
  if (!byInviter.allowed || !byAddress.allowed) fail("RATE_LIMITED", TEAM_MSG.tooManyInvitations);
}

/**
 * Inviting to a team: a colleague (an account already in the team's
 * organization) joins the team at once; anyone else, with or without an account, gets a pending
 * invitation to accept, and the inviter's answer is the same in both cases, so it tells nothing
 * about who has an account. The invitation mail is queued in the same transaction. Inviting the
 * same address again within a few minutes sends no second mail.
 */
export async function createInvite(
  deps: InviteDeps & InviteLimits,
  input: { teamId: string; email: string; role: TeamRole; inviterId: string },
  context: AuditContext,
): Promise<CreateInviteResult> {
  const { db } = deps;
  const email = normalizeEmail(input.email);
  const now = deps.now();
  const team = await db.team.findUnique({ where: { id: input.teamId }, select: { id: true, organizationId: true } });
  if (!team) return fail("NOT_FOUND", MSG.notFound);

  return db.$transaction(async (tx): Promise<CreateInviteResult> => {
    // Invitations of one address to one place are made one at a time (no lost upsert race).
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${INVITE_LOCK}::int, hashtext(${`${team.id}:${email}`}))`;
    // The colleague's membership is share-locked: a concurrent removal from the organization waits.
    const [colleague] = await tx.$queryRaw<{ userId: string }[]>`
      SELECT m.user_id::text AS "userId" FROM organization_members m JOIN users u ON u.id = m.user_id
      WHERE m.organization_id = ${team.organizationId}::uuid AND u.email = ${email}
      FOR SHARE OF m`;
    if (colleague) {
      await enforceInviteLimits(deps, input.inviterId, null);
      const membership = await tx.teamMember.createMany({
        data: [{ teamId: team.id, userId: colleague.userId, role: input.role }],
        skipDuplicates: true,
      });
      if (membership.count === 0) fail("ALREADY_EXISTS", TEAM_MSG.alreadyTeamMember, "ALREADY_MEMBER");
      // An earlier invite to the same address is settled by the direct add.
      await tx.pendingInvite.deleteMany({ where: { teamId: team.id, email, status: "pending" } });
      await notify(tx, { kind: "team_added", teamId: team.id, userId: colleague.userId, actorId: input.inviterId }, now);
      await auditAs(tx, context, {
        organizationId: team.organizationId,
        teamId: team.id,
        action: "member.add",
        target: { type: "user", id: colleague.userId, name: email },
        after: { role: input.role },
      });
      return { status: "added", userId: colleague.userId, email, role: input.role, addedToOrganization: false };
    }

    const key = { teamId_email: { teamId: team.id, email } };
    const previous = await tx.pendingInvite.findUnique({ where: key, select: { status: true, createdAt: true } });
    const { resent, quiet } = resendOf(previous, now);
    await enforceInviteLimits(deps, input.inviterId, quiet ? null : email);
    const inviteEntry = (inviteId: string) =>
      auditAs(tx, context, { organizationId: team.organizationId, teamId: team.id, action: "invite.create", target: { type: "invite", id: inviteId, name: email }, after: { role: input.role } });
    if (quiet) {
      // The mail just sent stands; only the role follows the latest choice.
      const row = await tx.pendingInvite.update({ where: key, data: { role: input.role }, select: inviteSelect });
      await inviteEntry(row.id);
      return { status: "invited", invite: toInviteItem(row, now), resent, emailQueued: false };
    }
    const refreshed = {
      role: input.role, status: "pending" as const, invitedById: input.inviterId, createdAt: now, acceptedAt: null,
      expiresAt: new Date(now.getTime() + INVITE_TTL_DAYS * DAY_MS),
    };
    const row = await tx.pendingInvite.upsert({ where: key, create: { teamId: team.id, email, ...refreshed }, update: refreshed, select: inviteSelect });
    await enqueueMail(tx, { kind: "team_invite", to: email, payload: { inviteId: row.id } }, now);
    await inviteEntry(row.id);
    return { status: "invited", invite: toInviteItem(row, now), resent, emailQueued: true };
  });
}

/** Cancelling deletes the invite; an accepted one is no longer pending and cannot be cancelled. */
export async function cancelInvite(db: Db, input: { teamId: string; inviteId: string }, context: AuditContext): Promise<void> {
  await db.$transaction(async (tx) => {
    const invite = await tx.pendingInvite.findFirst({
      where: { id: input.inviteId, teamId: input.teamId, status: "pending" },
      select: { email: true, role: true, team: { select: { organizationId: true } } },
    });
    const { count } = await tx.pendingInvite.deleteMany({ where: { id: input.inviteId, teamId: input.teamId, status: "pending" } });
    if (count === 0 || !invite) return fail("NOT_FOUND", MSG.inviteNotFound);
    await auditAs(tx, context, {
      organizationId: invite.team.organizationId,
      teamId: input.teamId,
      action: "invite.revoke",
      target: { type: "invite", id: input.inviteId, name: invite.email },
      before: { role: invite.role },
    });
  });
}

const INVITE_KINDS = ["team", "organization"] as const;
const inviteRole = z.enum([...TEAM_ROLES, ...ORGANIZATION_ROLES]);

export const inviteSummary = z.object({
  id: z.string(),
  /** A team invitation also makes its holder a member of the team's organization. */
  kind: z.enum(INVITE_KINDS),
  teamName: z.string().nullable(),
  organizationName: z.string(),
  role: inviteRole,
  /**
   * The invited address. The id is the secret the invitation's email carried (the inviting admins
   * know the address anyway), so its holder sees the address: sign-up from the link fills it in.
   */
  email: z.string(),
  /** null for an anonymous visitor. */
  emailMatches: z.boolean().nullable(),
  expiresAt: z.date(),
});
export type InviteSummary = z.infer<typeof inviteSummary>;

interface AnyInvite {
  id: string;
  kind: "team" | "organization";
  email: string;
  role: TeamRole | OrganizationRole;
  status: "pending" | "accepted";
  expiresAt: Date;
  organizationId: string;
  organizationName: string;
  team: { id: string; name: string } | null;
  invitedById: string | null;
}

/** A team or an organization invitation by id (both are unguessable UUIDs from one generator). */
async function findAnyInvite(db: DbOrTx, inviteId: string): Promise<AnyInvite | null> {
  const team = await db.pendingInvite.findUnique({
    where: { id: inviteId },
    select: {
      id: true, email: true, role: true, status: true, expiresAt: true, invitedById: true,
      team: { select: { id: true, name: true, organizationId: true, organization: { select: { name: true } } } },
    },
  });
  if (team) {
    return {
      ...team,
      kind: "team",
      organizationId: team.team.organizationId,
      organizationName: team.team.organization.name,
      team: { id: team.team.id, name: team.team.name },
    };
  }
  const organization = await db.organizationInvite.findUnique({
    where: { id: inviteId },
    select: {
      id: true, email: true, role: true, status: true, expiresAt: true, invitedById: true, organizationId: true, organization: { select: { name: true } },
    },
  });
  if (!organization) return null;
  return { ...organization, kind: "organization", organizationName: organization.organization.name, team: null };
}

const isLive = (invite: AnyInvite | null, now: Date): invite is AnyInvite =>
  invite !== null && invite.status === "pending" && invite.expiresAt.getTime() > now.getTime();

/**
 * What the accept page shows to whoever holds the link: the team, organization, role and address. Accepted, cancelled and expired invites are simply not found.
 */
export async function getInviteSummary(
  db: DbOrTx,
  input: { inviteId: string; viewerEmail: string | null; now: Date },
): Promise<InviteSummary> {
  const invite = await findAnyInvite(db, input.inviteId);
  if (!isLive(invite, input.now)) return fail("NOT_FOUND", MSG.inviteNotFound);
  const emailMatches = input.viewerEmail === null ? null : normalizeEmail(input.viewerEmail) === normalizeEmail(invite.email);
  return {
    id: invite.id,
    kind: invite.kind,
    teamName: invite.team?.name ?? null,
    organizationName: invite.organizationName,
    role: invite.role,
    email: invite.email,
    emailMatches,
    expiresAt: invite.expiresAt,
  };
}

/**
 * Refuses an invitation that cannot be accepted by `email`: unknown, used, cancelled or expired
 * (NOT_FOUND), or sent to another address (FORBIDDEN). The same checks as acceptInviteIn's.
 */
export async function checkInviteAddress(db: DbOrTx, input: { inviteId: string; email: string; now: Date }): Promise<void> {
  const invite = await findAnyInvite(db, input.inviteId);
  if (!isLive(invite, input.now)) return fail("NOT_FOUND", MSG.inviteNotFound);
  if (normalizeEmail(invite.email) !== normalizeEmail(input.email)) return fail("FORBIDDEN", MSG.inviteWrongEmail);
}

/** An invitation addressed to the signed-in person, for the page of someone not in an organization yet. */
export const myInvite = inviteSummary.pick({ id: true, kind: true, teamName: true, organizationName: true, role: true, expiresAt: true });
export type MyInvite = z.infer<typeof myInvite>;

/** The live (pending, unexpired) team and organization invitations sent to `email`, newest first. */
export async function listMyInvites(db: DbOrTx, input: { email: string; now: Date }): Promise<MyInvite[]> {
  const where = { email: normalizeEmail(input.email), status: "pending" as const, expiresAt: { gt: input.now } };
  const [teamInvites, organizationInvites] = await Promise.all([
    db.pendingInvite.findMany({
      where,
      select: { id: true, role: true, expiresAt: true, createdAt: true, team: { select: { name: true, organization: { select: { name: true } } } } },
    }),
    db.organizationInvite.findMany({
      where,
      select: { id: true, role: true, expiresAt: true, createdAt: true, organization: { select: { name: true } } },
    }),
  ]);
  return [
    ...teamInvites.map((invite) => ({
      id: invite.id, kind: "team" as const, teamName: invite.team.name, organizationName: invite.team.organization.name,
      role: invite.role, expiresAt: invite.expiresAt, createdAt: invite.createdAt,
    })),
    ...organizationInvites.map((invite) => ({
      id: invite.id, kind: "organization" as const, teamName: null, organizationName: invite.organization.name,
      role: invite.role, expiresAt: invite.expiresAt, createdAt: invite.createdAt,
    })),
  ]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .map(({ createdAt: _createdAt, ...invite }) => invite);
}

export const acceptedInvite = z.object({
  kind: z.enum(INVITE_KINDS),
  teamId: z.string().nullable(),
  teamName: z.string().nullable(),
  organizationId: z.string(),
  organizationName: z.string(),
  role: inviteRole,
  addedToOrganization: z.boolean(),
  addedToTeam: z.boolean(),
});
export type AcceptedInvite = z.infer<typeof acceptedInvite>;

/**
 * Accepting an invitation: the signed-in person whose email matches (case-insensitively) joins the
 * organization (a team invitation: as `member`, when not in it yet) and the team, and the invite is
 * marked accepted, all in one transaction. The conditional status update makes a second (or
 * concurrent) accept fail.
 */
export async function acceptInvite(
  db: Db,
  input: { inviteId: string; userId: string; email: string; now: Date },
  context: AuditContext,
): Promise<AcceptedInvite> {
  return db.$transaction((tx) => acceptInviteIn(tx, input, context));
}

/** acceptInvite inside the caller's transaction (sign-up from an invitation creates the account in the same one). */
export async function acceptInviteIn(
  tx: DbTransaction,
  input: { inviteId: string; userId: string; email: string; now: Date },
  context: AuditContext,
): Promise<AcceptedInvite> {
  const invite = await findAnyInvite(tx, input.inviteId);
  if (!isLive(invite, input.now)) return fail("NOT_FOUND", MSG.inviteNotFound);
  if (normalizeEmail(invite.email) !== normalizeEmail(input.email)) return fail("FORBIDDEN", MSG.inviteWrongEmail);
  const stillPending = { id: invite.id, status: "pending" as const, expiresAt: { gt: input.now } };
  const accepted = { status: "accepted" as const, acceptedAt: input.now };
  const marked = invite.team
    ? await tx.pendingInvite.updateMany({ where: stillPending, data: accepted })
    : await tx.organizationInvite.updateMany({ where: stillPending, data: accepted });
  if (marked.count === 0) return fail("NOT_FOUND", MSG.inviteNotFound);
  const organizationRole = invite.team ? DEFAULT_ORGANIZATION_MEMBER_ROLE : (invite.role as OrganizationRole);
  const organization = await tx.organizationMember.createMany({
    data: [{ organizationId: invite.organizationId, userId: input.userId, role: organizationRole }],
    skipDuplicates: true,
  });
  const team = invite.team
    ? await tx.teamMember.createMany({ data: [{ teamId: invite.team.id, userId: input.userId, role: invite.role as TeamRole }], skipDuplicates: true })
    : { count: 0 };
  await auditAs(tx, context, {
    organizationId: invite.organizationId,
    teamId: invite.team?.id ?? null,
    action: "invite.accept",
    target: { type: "invite", id: invite.id, name: invite.email },
    after: { role: invite.role, kind: invite.kind, addedToOrganization: organization.count === 1, addedToTeam: team.count === 1 },
  });
  if (invite.invitedById) {
    await notify(
      tx,
      { kind: "invite_accepted", teamId: invite.team?.id ?? null, organizationId: invite.organizationId, inviterId: invite.invitedById, actorId: input.userId },
      input.now,
    );
  }
  return {
    kind: invite.kind,
    teamId: invite.team?.id ?? null,
    teamName: invite.team?.name ?? null,
    organizationId: invite.organizationId,
    organizationName: invite.organizationName,
    role: invite.role,
    addedToOrganization: organization.count === 1,
    addedToTeam: team.count === 1,
  };
}

export const organizationInviteItem = z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string(),
  role: z.enum(ORGANIZATION_ROLES),
  createdAt: z.date(),
  expiresAt: z.date(),
});
export type OrganizationInviteItem = z.infer<typeof organizationInviteItem>;

/**
 * An invitation to an organization for someone not in it (with or without an account): they join
 * only by accepting it. Same limits and quiet period as team invitations; the mail is queued in
 * the same transaction.
 */
export async function createOrganizationInvite(
  deps: InviteDeps & InviteLimits,
  input: { organizationId: string; email: string; role: OrganizationRole; inviterId: string },
  context: AuditContext,
): Promise<{ invite: OrganizationInviteItem; resent: boolean; emailQueued: boolean }> {
  const email = normalizeEmail(input.email);
  const now = deps.now();
  const key = { organizationId_email: { organizationId: input.organizationId, email } };
  const select = { id: true, organizationId: true, email: true, role: true, createdAt: true, expiresAt: true } as const;
  let resent = false;
  let quiet = false;
  const invite = await deps.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${INVITE_LOCK}::int, hashtext(${`${input.organizationId}:${email}`}))`;
    const previous = await tx.organizationInvite.findUnique({ where: key, select: { status: true, createdAt: true } });
    ({ resent, quiet } = resendOf(previous, now));
    await enforceInviteLimits(deps, input.inviterId, quiet ? null : email);
    const inviteEntry = (inviteId: string) =>
      auditAs(tx, context, { organizationId: input.organizationId, action: "invite.create", target: { type: "invite", id: inviteId, name: email }, after: { role: input.role } });
    if (quiet) {
      const row = await tx.organizationInvite.update({ where: key, data: { role: input.role }, select });
      await inviteEntry(row.id);
      return row;
    }
    const refreshed = {
      role: input.role, status: "pending" as const, invitedById: input.inviterId, acceptedAt: null, createdAt: now,
      expiresAt: new Date(now.getTime() + INVITE_TTL_DAYS * DAY_MS),
    };
    const row = await tx.organizationInvite.upsert({
      where: key,
      create: { organizationId: input.organizationId, email, ...refreshed },
      update: refreshed,
      select,
    });
    await enqueueMail(tx, { kind: "organization_invite", to: email, payload: { inviteId: row.id } }, now);
    await inviteEntry(row.id);
    return row;
  });
  return { invite, resent, emailQueued: !quiet };
}

export async function findOrganizationInviteOrganizationId(db: DbOrTx, inviteId: string): Promise<string | null> {
  const row = await db.organizationInvite.findUnique({ where: { id: inviteId }, select: { organizationId: true } });
  return row?.organizationId ?? null;
}

/** The organization's pending invitations, newest first (expired ones too: inviting again renews them). */
export async function listOrganizationInvites(db: DbOrTx, organizationId: string): Promise<OrganizationInviteItem[]> {
  return db.organizationInvite.findMany({
    where: { organizationId, status: "pending" },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    select: { id: true, organizationId: true, email: true, role: true, createdAt: true, expiresAt: true },
  });
}

/** Cancelling deletes a pending organization invitation; it can no longer be accepted. */
export async function cancelOrganizationInvite(db: Db, input: { organizationId: string; inviteId: string }, context: AuditContext): Promise<void> {
  await db.$transaction(async (tx) => {
    const where = { id: input.inviteId, organizationId: input.organizationId, status: "pending" as const };
    const invite = await tx.organizationInvite.findFirst({ where, select: { email: true, role: true } });
    const { count } = await tx.organizationInvite.deleteMany({ where });
    if (count === 0 || !invite) return fail("NOT_FOUND", MSG.inviteNotFound);
    await auditAs(tx, context, {
      organizationId: input.organizationId,
      action: "invite.revoke",
      target: { type: "invite", id: input.inviteId, name: invite.email },
      before: { role: invite.role },
    });
  });
}
