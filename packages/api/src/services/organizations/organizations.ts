// Business rules of organizations. Services take `db` and plain ids; no tRPC here.
import { z } from "zod";
import { PRODUCTION_DATA_DELETE_TIMEOUT_MS, isUniqueViolation, Prisma, retryOnDeadlock, type Db, type DbOrTx, type DbTransaction } from "@promptly/db";
import { CREATOR_ROLE_ORGANIZATION, MSG, ORGANIZATION_ROLES, ORGANIZATION_MSG, can, normalizeEmail, type OrganizationRole } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { checkLockedChange, lockMembers, type LockedMember } from "./last-admin.ts";
import type { Caller } from "../access/access.ts";
import type { ActingMember } from "../access/actor.ts";
import { canSql, organizationVisibility } from "../access/visibility.ts";
import { getOrganizationMember, organizationMemberItem, type OrganizationMemberItem } from "./members.ts";
import { createOrganizationInvite, organizationInviteItem } from "./organization-invites.ts";
import { type InviteDeps, type InviteLimits } from "./invite-basics.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";

export const organizationListItem = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string().nullable(),
  memberCount: z.number(),
  createdAt: z.date(),
  /** The caller's membership role; null when a super user sees an organization they are not in. */
  myRole: z.enum(ORGANIZATION_ROLES).nullable(),
  /** Organization admin status for the caller (a super user always has it). */
  isAdmin: z.boolean(),
});
export type OrganizationListItem = z.infer<typeof organizationListItem>;

/**
 * A super user gets every organization; others those they belong to. Ordered by name.
 * One statement: member counts come from organizations.member_count (kept by a trigger), the caller's
 * role is joined by the unique index. With 1,000 organizations and 50,000 memberships, counting per
 * request dominated the time (bench: organizations).
 */
export async function listOrganizations(db: DbOrTx, caller: Caller): Promise<OrganizationListItem[]> {
  const { joins, visible } = organizationVisibility(caller);
  const rows = await db.$queryRaw<unknown[]>`
    SELECT o.id::text AS id, o.name, o.slug, o.created_at AS "createdAt",
           o.member_count AS "memberCount",
           my_om.role::text AS "myRole",
           ${canSql(caller, "organization.members.manage", { organizationRole: Prisma.sql`my_om.role` })} AS "isAdmin"
    FROM organizations o ${joins}
    WHERE ${visible}
    ORDER BY o.name, o.id`;
  return z.array(organizationListItem).parse(rows);
}

/** The organization as the members page heads it. */
export const organizationSummary = organizationListItem.pick({ id: true, name: true, slug: true, memberCount: true, createdAt: true });
export type OrganizationSummary = z.infer<typeof organizationSummary>;

export async function getOrganization(db: DbOrTx, organizationId: string): Promise<OrganizationSummary> {
  const row = await db.organization.findUnique({
    where: { id: organizationId },
    select: { id: true, name: true, slug: true, createdAt: true, memberCount: true },
  });
  if (!row) return fail("NOT_FOUND", ORGANIZATION_MSG.organizationNotFound);
  return row;
}

/** Runs a write and turns the slug's unique-index violation into a CONFLICT (race-safe: the index decides). */
async function slugUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) return fail("ALREADY_EXISTS", MSG.organizationSlugTaken, "SLUG_TAKEN");
    throw error;
  }
}

/** Creates the organization and makes its creator an admin member, both or neither. */
export async function createOrganization(
  db: Db,
  creatorId: string,
  input: { name: string; slug?: string | undefined },
  context: AuditContext,
): Promise<OrganizationSummary> {
  return slugUnique(() =>
    db.$transaction(async (tx) => {
      const organization = await tx.organization.create({
        data: { name: input.name, slug: input.slug ?? null, createdById: creatorId },
        select: { id: true, name: true, slug: true, createdAt: true },
      });
      await tx.organizationMember.create({
        data: { organizationId: organization.id, userId: creatorId, role: CREATOR_ROLE_ORGANIZATION },
      });
      await auditAs(tx, context, {
        organizationId: organization.id,
        action: "organization.create",
        target: { type: "organization", id: organization.id, name: organization.name },
        after: { name: organization.name, slug: organization.slug },
      });
      return { ...organization, memberCount: 1 };
    }),
  );
}

/** Partial update: an absent field stays; a null slug clears it. */
export async function updateOrganization(
  db: Db,
  input: { id: string; name?: string | undefined; slug?: string | null | undefined },
  context: AuditContext,
): Promise<OrganizationSummary> {
  const data: { name?: string; slug?: string | null } = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.slug !== undefined) data.slug = input.slug;
  return slugUnique(() =>
    db.$transaction(async (tx) => {
      const before = await tx.organization.findUnique({ where: { id: input.id }, select: { name: true, slug: true } });
      if (!before) return fail("NOT_FOUND", ORGANIZATION_MSG.organizationNotFound);
      await tx.organization.update({ where: { id: input.id }, data, select: { id: true } });
      const after = await getOrganization(tx, input.id);
      await auditAs(tx, context, {
        organizationId: input.id,
        action: "organization.rename",
        target: { type: "organization", id: input.id, name: after.name },
        before,
        after: { name: after.name, slug: after.slug },
      });
      return after;
    }),
  );
}

/**
 * Deletes the organization; its members and teams go with it (foreign keys cascade), their production data
 * too. Runs again when deadlocked by a merge of that data, as a team's delete (deleteTeam). Its prompts are
 * locked before its row and its teams' (cascaded), as a direct move of `production` takes them (see deleteTeam).
 */
export async function deleteOrganization(db: Db, organizationId: string, context: AuditContext): Promise<void> {
  await retryOnDeadlock(() => db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM prompts WHERE organization_id = ${organizationId}::uuid ORDER BY id FOR UPDATE`;
    await auditAs(tx, context, { organizationId, action: "organization.delete", target: { type: "organization", id: organizationId } });
    const { count } = await tx.organization.deleteMany({ where: { id: organizationId } });
    if (count === 0) fail("NOT_FOUND", ORGANIZATION_MSG.organizationNotFound);
  }, { timeout: PRODUCTION_DATA_DELETE_TIMEOUT_MS }));
}

// ---- members ----

/** The organization a member row belongs to, or null: id-based procedures check access through it. */
export async function findMemberOrganizationId(db: DbOrTx, memberId: string): Promise<string | null> {
  const row = await db.organizationMember.findUnique({ where: { id: memberId }, select: { organizationId: true } });
  return row?.organizationId ?? null;
}

export const addOrganizationMemberResult = z.discriminatedUnion("status", [
  z.object({ status: z.literal("member"), member: organizationMemberItem }),
  z.object({ status: z.literal("invited"), invite: organizationInviteItem, resent: z.boolean(), emailQueued: z.boolean() }),
]);
export type AddOrganizationMemberResult = z.infer<typeof addOrganizationMemberResult>;

/**
 * Someone already in the organization stays as they are (upsert ignoring duplicates);
 * anyone else, with or without an account, is invited and joins only by accepting, so the answer
 * never tells whether an address has an account.
 */
export async function addOrganizationMember(
  deps: InviteDeps & InviteLimits,
  input: { organizationId: string; email: string; role: OrganizationRole; inviterId: string },
  context: AuditContext,
): Promise<AddOrganizationMemberResult> {
  const row = await deps.db.organizationMember.findFirst({
    where: { organizationId: input.organizationId, user: { email: normalizeEmail(input.email) } },
    select: { id: true },
  });
  if (row) return { status: "member", member: await getOrganizationMember(deps.db, input.organizationId, row.id) };
  return { status: "invited", ...(await createOrganizationInvite(deps, input, context)) };
}

const lockOrganizationMembers = (tx: DbTransaction, organizationId: string) =>
  lockMembers<OrganizationRole>(tx, { table: "organization_members", organizationId });

function checkOrganizationChange(
  members: LockedMember<OrganizationRole>[],
  actor: ActingMember,
  memberId: string,
  nextRole: OrganizationRole | null,
) {
  return checkLockedChange(members, {
    memberId,
    nextRole,
    actorId: actor.userId,
    actorIsAdmin: (actorRole) => can({ ...actor, organizationRole: actorRole }, "organization.members.manage"),
    notFound: ORGANIZATION_MSG.memberNotFound,
    lastAdmin: ORGANIZATION_MSG.lastAdminRequired,
  });
}

export async function updateOrganizationMemberRole(
  db: Db,
  actor: ActingMember,
  input: { organizationId: string; memberId: string; role: OrganizationRole },
  context: AuditContext,
): Promise<OrganizationMemberItem> {
  return db.$transaction(async (tx) => {
    const target = checkOrganizationChange(await lockOrganizationMembers(tx, input.organizationId), actor, input.memberId, input.role);
    await tx.organizationMember.update({ where: { id: input.memberId }, data: { role: input.role }, select: { id: true } });
    const member = await getOrganizationMember(tx, input.organizationId, input.memberId);
    await auditAs(tx, context, {
      organizationId: input.organizationId,
      action: "member.role",
      target: { type: "user", id: member.userId, name: member.email },
      before: { role: target.role },
      after: { role: input.role },
    });
    return member;
  });
}

/**
 * Removes the member and, with them, their places in the organization's teams and any invitation to
 * them still pending there: leaving an organization ends access to everything in it (team access does
 * not otherwise need the organization membership). Their teams stay manageable by organization admins
 * and super users.
 */
export async function removeOrganizationMember(
  db: Db,
  actor: ActingMember,
  input: { organizationId: string; memberId: string },
  context: AuditContext,
): Promise<void> {
  await db.$transaction(async (tx) => {
    const target = checkOrganizationChange(await lockOrganizationMembers(tx, input.organizationId), actor, input.memberId, null);
    const { email } = await tx.user.findUniqueOrThrow({ where: { id: target.userId }, select: { email: true } });
    await auditAs(tx, context, {
      organizationId: input.organizationId,
      action: "member.remove",
      target: { type: "user", id: target.userId, name: email },
      before: { role: target.role },
    });
    const inOrganization = { team: { organizationId: input.organizationId } };
    await tx.teamMember.deleteMany({ where: { userId: target.userId, ...inOrganization } });
    // An invitation still pending would bring them back in when accepted.
    await tx.pendingInvite.deleteMany({ where: { email, status: "pending", ...inOrganization } });
    await tx.organizationInvite.deleteMany({ where: { email, status: "pending", organizationId: input.organizationId } });
    await tx.organizationMember.delete({ where: { id: input.memberId } });
  });
}
