// Team invitations: inviting to a team (a colleague of the organization joins at once, anyone else
// gets an invitation to accept), the pending list and cancelling. An invite is one row per (team,
// email): inviting again refreshes and re-sends it.
import type { Db, DbOrTx } from "@promptly/db";
import { z } from "zod";
import { INVITE_TTL_DAYS, MSG, TEAM_MSG, TEAM_ROLES, TEAM_ROLE_LABELS, normalizeEmail, type TeamRole } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { notify } from "../notifications/notify.ts";
import { enqueueMail } from "../platform/outbox.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";
import { registerMailRenderer } from "../platform/outbox-mail.ts";
import { DAY_MS, INVITE_LOCK, enforceInviteLimits, inviterSelect, invitationMail, resendOf, type InviteDeps, type InviteLimits } from "./invite-basics.ts";

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

registerMailRenderer("team_invite", async (mail, context) => {
  const invite = await context.db.pendingInvite.findUnique({
    where: { id: mail.payload.inviteId },
    select: {
      id: true, email: true, role: true, status: true, expiresAt: true, invitedBy: inviterSelect,
      team: { select: { name: true, organization: { select: { name: true } } } },
    },
  });
  return invitationMail(invite, mail, context, invite && {
    place: invite.team.name,
    joins: `the team ${invite.team.name} in ${invite.team.organization.name}`,
    role: TEAM_ROLE_LABELS[invite.role],
  });
});
