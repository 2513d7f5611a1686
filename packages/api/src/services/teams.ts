// Business rules of teams (spec 3, 4, 6). Services take `db` and plain ids; no tRPC here.
import type { DbOrTx } from "@promptly/db";
import type { TeamRole } from "@promptly/shared";
import type { ViewerAccess } from "./access.ts";

export interface TeamListItem {
  id: string;
  name: string;
  organizationId: string;
  organizationName: string;
  memberCount: number;
  createdAt: Date;
  updatedAt: Date;
  createdById: string | null;
  /** The caller's role in the team; null when they see it as organization admin or super user. */
  myRole: TeamRole | null;
}

/**
 * The caller's teams, ordered by name: a super user sees all; an organization admin sees every team
 * of that organization; others the teams they are members of. Optionally one organization only.
 */
export async function listTeams(db: DbOrTx, viewer: ViewerAccess, organizationId?: string): Promise<TeamListItem[]> {
  const visible = viewer.isSuperUser
    ? {}
    : {
        OR: [
          { members: { some: { userId: viewer.userId } } },
          { organization: { members: { some: { userId: viewer.userId, role: "admin" as const } } } },
        ],
      };
  const rows = await db.team.findMany({
    where: { ...visible, ...(organizationId ? { organizationId } : {}) },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: {
      id: true,
      name: true,
      organizationId: true,
      createdAt: true,
      updatedAt: true,
      createdById: true,
      organization: { select: { name: true } },
      _count: { select: { members: true } },
      members: { where: { userId: viewer.userId }, select: { role: true } },
    },
  });
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    organizationId: row.organizationId,
    organizationName: row.organization.name,
    memberCount: row._count.members,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    createdById: row.createdById,
    myRole: row.members[0]?.role ?? null,
  }));
}
