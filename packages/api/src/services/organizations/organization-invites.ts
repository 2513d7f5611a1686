// Organization invitations: inviting someone not in the organization, the pending list and cancelling.
import type { Db, DbOrTx } from "@promptly/db";
import { z } from "zod";
import { INVITE_TTL_DAYS, MSG, ORGANIZATION_ROLES, ORGANIZATION_ROLE_LABELS, normalizeEmail, type OrganizationRole } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { enqueueMail } from "../platform/outbox.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";
import { registerMailRenderer } from "../platform/outbox-mail.ts";
import { DAY_MS, INVITE_LOCK, enforceInviteLimits, inviterSelect, invitationMail, resendOf, type InviteDeps, type InviteLimits } from "./invite-basics.ts";

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

registerMailRenderer("organization_invite", async (mail, context) => {
  const invite = await context.db.organizationInvite.findUnique({
    where: { id: mail.payload.inviteId },
    select: { id: true, email: true, role: true, status: true, expiresAt: true, invitedBy: inviterSelect, organization: { select: { name: true } } },
  });
  return invitationMail(invite, mail, context, invite && {
    place: invite.organization.name,
    joins: `the organization ${invite.organization.name}`,
    role: ORGANIZATION_ROLE_LABELS[invite.role],
  });
});
