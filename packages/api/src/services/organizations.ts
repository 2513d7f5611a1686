// Business rules of organizations (spec 3, 4, 6). Services take `db` and plain ids; no tRPC here.
import type { DbOrTx } from "@promptly/db";
import type { ViewerAccess } from "./access.ts";

export interface OrganizationListItem {
  id: string;
  name: string;
  slug: string | null;
  memberCount: number;
  createdAt: Date;
  /** The caller's membership role; null when a super user sees an organization they are not in. */
  myRole: "admin" | "member" | null;
  /** Organization admin status for the caller (a super user always has it). */
  isAdmin: boolean;
}

/** A super user gets every organization; others those they belong to. Ordered by name. */
export async function listOrganizations(db: DbOrTx, viewer: ViewerAccess): Promise<OrganizationListItem[]> {
  const rows = await db.organization.findMany({
    where: viewer.isSuperUser ? {} : { members: { some: { userId: viewer.userId } } },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: {
      id: true,
      name: true,
      slug: true,
      createdAt: true,
      _count: { select: { members: true } },
      members: { where: { userId: viewer.userId }, select: { role: true } },
    },
  });
  return rows.map((row) => {
    const myRole = row.members[0]?.role ?? null;
    return {
      id: row.id,
      name: row.name,
      slug: row.slug,
      createdAt: row.createdAt,
      memberCount: row._count.members,
      myRole,
      isAdmin: viewer.isSuperUser || myRole === "admin",
    };
  });
}
