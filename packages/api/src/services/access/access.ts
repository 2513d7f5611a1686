// Loads who the caller is in the app, an organization or a team. Used by the procedure builders,
// so a handler receives the membership on ctx and never checks roles by hand.
import { Prisma, type DbOrTx } from "@promptly/db";
import { accessOf, resolveAppRole, type Access, type OrganizationRole, type TeamRole } from "@promptly/shared";
import { organizationVisibility, teamVisibility, type Caller as CallerShape } from "./visibility.ts";

/** Who is asking, app-wide: the signed-in user and their resolved app role. */
export type Caller = CallerShape;

/**
 * The one way to resolve the caller (spec 4), from the user the session lookup loaded with its
 * profile and role: the profile's flag makes a super user; a missing role row is created as `user`
 * (roleCreated: true on that call, for auth.me's 'Access level set').
 */
export async function resolveCaller(
  db: DbOrTx,
  user: { id: string; profile: { superUser: boolean } | null; appRole: { role: string } | null },
): Promise<Caller & { roleCreated: boolean }> {
  const isSuperUser = user.profile?.superUser ?? false;
  if (user.appRole) return { userId: user.id, isSuperUser, role: resolveAppRole(isSuperUser, user.appRole.role), roleCreated: false };
  await db.userRole.upsert({ where: { userId: user.id }, create: { userId: user.id, role: "user" }, update: {} });
  return { userId: user.id, isSuperUser, role: resolveAppRole(isSuperUser, "user"), roleCreated: true };
}

/** The caller in one organization: their Access (for `can`) and where. */
export interface OrganizationAccess extends Access {
  userId: string;
  organizationId: string;
}

/** A procedure builder's decision on the caller's access in an organization (null: none): the access when they may act, else it throws. */
export type OrganizationDecision = (access: OrganizationAccess | null) => OrganizationAccess;

/** Null when the organization does not exist or the caller may not know of it (the visibility rule). */
export async function loadOrganizationAccess(
  db: DbOrTx,
  caller: Caller,
  organizationId: string,
): Promise<OrganizationAccess | null> {
  const [row] = await db.$queryRaw<{ organizationRole: OrganizationRole | null }[]>`${organizationAccessRow(caller, organizationId)}`;
  return organizationAccessOf(caller, organizationId, row);
}

/** The statement of the caller's role in the organization: one row `"organizationRole"` when they may know of it, none otherwise. */
export function organizationAccessRow(caller: Caller, organizationId: string) {
  const { joins, visible } = organizationVisibility(caller);
  return Prisma.sql`
    SELECT my_om.role::text AS "organizationRole"
    FROM organizations o ${joins}
    WHERE o.id = ${organizationId}::uuid AND ${visible}`;
}

/** The caller's access from a row of loadOrganizationAccess's statement (none: null), for a statement that carries it. */
export function organizationAccessOf(caller: Caller, organizationId: string, row: { organizationRole: OrganizationRole | null } | undefined): OrganizationAccess | null {
  if (!row) return null;
  return { ...accessOf(caller, { organizationRole: row.organizationRole }), userId: caller.userId, organizationId };
}

/** The caller in one team: their Access (team role, and role in the team's organization) and where. */
export interface TeamAccessInfo extends Access {
  userId: string;
  teamId: string;
  organizationId: string;
}

/** Null when the team does not exist or the caller may not see it (the visibility rule). */
export async function loadTeamAccess(db: DbOrTx, caller: Caller, teamId: string): Promise<TeamAccessInfo | null> {
  const { joins, visible } = teamVisibility(caller);
  const [row] = await db.$queryRaw<{ organizationId: string; teamRole: TeamRole | null; organizationRole: OrganizationRole | null }[]>`
    SELECT t.organization_id::text AS "organizationId", my_tm.role::text AS "teamRole", my_om.role::text AS "organizationRole"
    FROM teams t ${joins}
    WHERE t.id = ${teamId}::uuid AND ${visible}`;
  if (!row) return null;
  const access = accessOf(caller, { teamRole: row.teamRole, organizationRole: row.organizationRole });
  return { ...access, userId: caller.userId, teamId, organizationId: row.organizationId };
}
