// Loads who the caller is in the app, an organization or a team. Used by the procedure builders,
// so a handler receives the membership on ctx and never checks roles by hand.
import { Prisma, type DbOrTx } from "@promptly/db";
import { accessOf, resolveAppRole, type Access, type Action, type OrganizationRole, type TeamRole } from "@promptly/shared";
import { canSql, organizationVisibility, teamVisibility, type Caller as CallerShape } from "./visibility.ts";

/** Who is asking, app-wide: the signed-in user and their resolved app role. */
export type Caller = CallerShape;

/**
 * The one way to resolve the caller, from the user the session lookup loaded with its
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

/** The columns of teamAccessSql's row. */
export interface TeamAccessRow {
  organizationId: string;
  teamRole: TeamRole | null;
  organizationRole: OrganizationRole | null;
  /** Whether the caller may do the action asked about in this team (canSql of the permission table). */
  allowed: boolean;
}

/**
 * The caller's roles in one team as a subquery that another statement joins, so a read and its
 * access check take one round trip: one row when the team exists and the caller may see it (the
 * visibility rule), none otherwise; `allowed` is `can(access, action)` in SQL.
 */
export function teamAccessSql(caller: Caller, teamId: string, action: Action): Prisma.Sql {
  const { joins, visible } = teamVisibility(caller);
  const allowed = canSql(caller, action, { organizationRole: Prisma.sql`my_om.role`, teamRole: Prisma.sql`my_tm.role` });
  return Prisma.sql`SELECT t.organization_id::text AS "organizationId", my_tm.role::text AS "teamRole",
           my_om.role::text AS "organizationRole", ${allowed} AS allowed
    FROM teams t ${joins}
    WHERE t.id = ${teamId}::uuid AND ${visible}`;
}

/** The TeamAccessInfo of teamAccessSql's row; null without one (missing, or not visible to the caller). */
export function teamAccessFrom(caller: Caller, teamId: string, row: TeamAccessRow | undefined): TeamAccessInfo | null {
  if (!row) return null;
  const access = accessOf(caller, { teamRole: row.teamRole, organizationRole: row.organizationRole });
  return { ...access, userId: caller.userId, teamId, organizationId: row.organizationId };
}

/** A read of one team whose statement also loaded the caller's access there (teamAccessSql). */
export interface TeamRead<Result> {
  access: TeamAccessInfo | null;
  result: Result;
}

/** Null when the team does not exist or the caller may not see it (the visibility rule). */
export async function loadTeamAccess(db: DbOrTx, caller: Caller, teamId: string): Promise<TeamAccessInfo | null> {
  const [row] = await db.$queryRaw<TeamAccessRow[]>(teamAccessSql(caller, teamId, "team.read"));
  return teamAccessFrom(caller, teamId, row);
}
