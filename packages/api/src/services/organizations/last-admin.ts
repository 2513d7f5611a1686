// The rule shared by organizations and teams: a change to a member is checked on the
// member rows locked for the transaction, so concurrent changes cannot both pass it.
import { Prisma, type DbTransaction } from "@promptly/db";
import { MSG } from "@promptly/shared";
import { fail } from "../../errors.ts";

export interface LockedMember<Role extends string> {
  id: string;
  userId: string;
  role: Role;
}

/** Locks every member row of one organization or team for the rest of the transaction; returns them as they are now. */
export async function lockMembers<Role extends string>(
  tx: DbTransaction,
  of: { table: "organization_members"; organizationId: string } | { table: "team_members"; teamId: string },
): Promise<LockedMember<Role>[]> {
  const where = of.table === "organization_members" ? Prisma.sql`organization_id = ${of.organizationId}::uuid` : Prisma.sql`team_id = ${of.teamId}::uuid`;
  return tx.$queryRaw<LockedMember<Role>[]>`
    SELECT id, user_id::text AS "userId", role::text AS role FROM ${Prisma.raw(of.table)}
    WHERE ${where}
    ORDER BY id
    FOR UPDATE`;
}

/**
 * Checks a role change (`nextRole`) or a removal (null) of `memberId` on the locked rows: the caller
 * must still be an admin (a concurrent request may have demoted them a moment ago), the member must
 * exist, and at least one admin must remain. Returns the member.
 */
export function checkLockedChange<Role extends string>(
  members: LockedMember<Role>[],
  change: {
    memberId: string;
    nextRole: Role | null;
    actorIsAdmin: (actorRole: Role | null) => boolean;
    actorId: string;
    notFound: string;
    lastAdmin: string;
  },
): LockedMember<Role> {
  const actorRole = members.find((member) => member.userId === change.actorId)?.role ?? null;
  if (!change.actorIsAdmin(actorRole)) fail("FORBIDDEN", MSG.permissionDenied);
  const target = members.find((member) => member.id === change.memberId);
  if (!target) return fail("NOT_FOUND", change.notFound);
  const adminsAfter = members.filter((member) => (member.id === change.memberId ? change.nextRole : member.role) === "admin").length;
  if (target.role === "admin" && adminsAfter === 0) fail("STATE_CONFLICT", change.lastAdmin, "LAST_ADMIN");
  return target;
}
