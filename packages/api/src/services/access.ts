// Loads who the caller is in the app, an organization or a team. Used by the procedure builders,
// so a handler receives the membership on ctx and never checks roles by hand.
import type { DbOrTx } from "@promptly/db";
import { accessOf, can, resolveAppRole, type Access, type AppRole } from "@promptly/shared";

export interface ViewerAccess {
  userId: string;
  role: AppRole;
  isSuperUser: boolean;
}

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

/** Null when the organization does not exist or the caller may not know of it. */
export async function loadOrganizationAccess(
  db: DbOrTx,
  viewer: ViewerAccess,
  organizationId: string,
): Promise<OrganizationAccess | null> {
  const organization = await db.organization.findUnique({
    where: { id: organizationId },
    select: { id: true, members: { where: { userId: viewer.userId }, select: { role: true } } },
  });
  if (!organization) return null;
  const organizationRole = organization.members[0]?.role ?? null;
  if (!organizationRole && !viewer.isSuperUser) return null;
  return { ...accessOf(viewer, { organizationRole }), userId: viewer.userId, organizationId };
}

/** The caller in one team: their Access (team role, and role in the team's organization) and where. */
export interface TeamAccessInfo extends Access {
  userId: string;
  teamId: string;
  organizationId: string;
}

/** Null when the team does not exist or the caller may not read it (team.read). */
export async function loadTeamAccess(db: DbOrTx, viewer: ViewerAccess, teamId: string): Promise<TeamAccessInfo | null> {
  const team = await db.team.findUnique({
    where: { id: teamId },
    select: {
      id: true,
      organizationId: true,
      members: { where: { userId: viewer.userId }, select: { role: true } },
      organization: { select: { members: { where: { userId: viewer.userId }, select: { role: true } } } },
    },
  });
  if (!team) return null;
  const access = accessOf(viewer, { teamRole: team.members[0]?.role ?? null, organizationRole: team.organization.members[0]?.role ?? null });
  if (!can(access, "team.read")) return null;
  return { ...access, userId: viewer.userId, teamId, organizationId: team.organizationId };
}
