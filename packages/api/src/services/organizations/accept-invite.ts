// Accepting an invitation, team or organization: what its page shows, the invitations waiting for a
// signed-in address, and joining (by a signed-in person, or by signing up from the invitation's link).
import type { Db, DbOrTx, DbTransaction } from "@promptly/db";
import { z } from "zod";
import { DEFAULT_ORGANIZATION_MEMBER_ROLE, MSG, ORGANIZATION_ROLES, TEAM_ROLES, normalizeEmail, type OrganizationRole, type TeamRole } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { notify } from "../notifications/notify.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";
import { linkTokenMatches } from "../platform/secret-box.ts";
import type { ApiServices } from "../types.ts";
import { completeSignIn, enforceRateLimit, hashPassword, insertAccount, type SignInClient, type SignInResult } from "../identity/auth.ts";

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
async function checkInviteAddress(db: DbOrTx, input: { inviteId: string; email: string; now: Date }): Promise<void> {
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
async function acceptInviteIn(
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

/**
 * Sign-up from an invitation, in one step. The invitation's id is the secret its email carried, so
 * holding it proves the address it was sent to: once the server has checked that the invitation is
 * live (pending, unexpired) and addressed to `email`, the account is created confirmed, the
 * invitation accepted and a session started. Account and acceptance are one transaction (the
 * acceptance re-checks the invitation under its conditional update, so a concurrent use fails).
 * An address that has an account already is told to sign in: whoever holds the link knows it anyway.
 */
export async function createAccountFromInvite(
  services: ApiServices,
  client: SignInClient,
  input: { inviteId: string; token: string; email: string; password: string; fullName?: string },
): Promise<Extract<SignInResult, { status: "signed_in" }> & { accepted: AcceptedInvite }> {
  await enforceRateLimit(services, "signUp", client.ip, input.email);
  // The id alone is not proof: admins see it. A wrong token reads as an unknown invitation.
  if (!linkTokenMatches(services.config.secret, "invite link v1", input.inviteId, input.token)) return fail("NOT_FOUND", MSG.inviteNotFound);
  const now = services.now();
  // Checked before the costly hash: junk or foreign invitations buy no argon2 work.
  await checkInviteAddress(services.db, { inviteId: input.inviteId, email: input.email, now });
  const passwordHash = await hashPassword(input.password);
  const created = await services.db.$transaction(async (tx) => {
    const user = await insertAccount(tx, { email: input.email, passwordHash, fullName: input.fullName, emailVerifiedAt: now });
    if (!user) return fail("ALREADY_EXISTS", MSG.inviteAccountExists, "ACCOUNT_EXISTS");
    const context = { actor: { kind: "user" as const, userId: user.id }, ip: client.ip, now };
    const accepted = await acceptInviteIn(tx, { inviteId: input.inviteId, userId: user.id, email: input.email, now }, context);
    return { userId: user.id, accepted };
  });
  // A new account has no second factor: completeSignIn signs it in at once.
  const signedIn = await completeSignIn(services, client, { id: created.userId, twoFactorEnabled: false }, "password", null);
  if (signedIn.status !== "signed_in") throw new Error("A new account cannot be waiting for a second factor");
  return { ...signedIn, accepted: created.accepted };
}
