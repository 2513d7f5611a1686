// Loads who the caller is in the app, an organization or a team. Used by the procedure builders,
// so a handler receives the membership on ctx and never checks roles by hand.
import type { DbOrTx } from "@promptly/db";
import { accessOf, resolveAppRole, type Access, type OrganizationRole, type TeamRole } from "@promptly/shared";
import { organizationVisibility, teamVisibility, type Viewer } from "./visibility.ts";

/** Who is asking, app-wide: the signed-in user and their resolved app role. */
export type ViewerAccess = Viewer;

/** The app-level identity from what the session lookup already loaded; null when the role row is missing. */
export function viewerFromSessionUser(user: {
  id: string;
  profile: { superUser: boolean } | null;
  appRole: { role: string } | null;
}): ViewerAccess | null {
  if (!user.appRole) return null;
  const isSuperUser = user.profile?.superUser ?? false;
  const stored = user.appRole.role === "super_user" ? "super-user" : user.appRole.role;
  return { userId: user.id, isSuperUser, role: resolveAppRole(isSuperUser, stored) };
}

/** Role resolution of spec 4; creates the missing `user` role row (created=true then). */
export async function loadViewer(db: DbOrTx, userId: string): Promise<ViewerAccess & { roleCreated: boolean }> {
  const row = await db.user.findUnique({
    where: { id: userId },
    select: { profile: { select: { superUser: true } }, appRole: { select: { role: true } } },
  });
  const isSuperUser = row?.profile?.superUser ?? false;
  let storedRole: string | null = row?.appRole?.role ?? null;
  let roleCreated = false;
  if (row && !row.appRole) {
    await db.userRole.upsert({ where: { userId }, create: { userId, role: "user" }, update: {} });
    storedRole = "user";
    roleCreated = true;
  }
  return { userId, isSuperUser, role: resolveAppRole(isSuperUser, storedRole === "super_user" ? "super-user" : storedRole), roleCreated };
}

/** The caller in one organization: their Access (for `can`) and where. */
export interface OrganizationAccess extends Access {
  userId: string;
  organizationId: string;
}

/** Null when the organization does not exist or the caller may not know of it (the visibility rule). */
export async function loadOrganizationAccess(
  db: DbOrTx,
  viewer: ViewerAccess,
  organizationId: string,
): Promise<OrganizationAccess | null> {
  const { joins, visible } = organizationVisibility(viewer);
  const [row] = await db.$queryRaw<{ organizationRole: OrganizationRole | null }[]>`
    SELECT my_om.role::text AS "organizationRole"
    FROM organizations o ${joins}
    WHERE o.id = ${organizationId}::uuid AND ${visible}`;
  if (!row) return null;
  return { ...accessOf(viewer, { organizationRole: row.organizationRole }), userId: viewer.userId, organizationId };
}

/** The caller in one team: their Access (team role, and role in the team's organization) and where. */
export interface TeamAccessInfo extends Access {
  userId: string;
  teamId: string;
  organizationId: string;
}

/** Null when the team does not exist or the caller may not see it (the visibility rule). */
export async function loadTeamAccess(db: DbOrTx, viewer: ViewerAccess, teamId: string): Promise<TeamAccessInfo | null> {
  const { joins, visible } = teamVisibility(viewer);
  const [row] = await db.$queryRaw<{ organizationId: string; teamRole: TeamRole | null; organizationRole: OrganizationRole | null }[]>`
    SELECT t.organization_id::text AS "organizationId", my_tm.role::text AS "teamRole", my_om.role::text AS "organizationRole"
    FROM teams t ${joins}
    WHERE t.id = ${teamId}::uuid AND ${visible}`;
  if (!row) return null;
  const access = accessOf(viewer, { teamRole: row.teamRole, organizationRole: row.organizationRole });
  return { ...access, userId: viewer.userId, teamId, organizationId: row.organizationId };
}
