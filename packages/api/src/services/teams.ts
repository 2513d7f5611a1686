// Business rules of teams (spec 3, 4, 6). Services take `db` and plain ids; no tRPC here.
import { Prisma, type Db, type DbOrTx } from "@promptly/db";
import { CREATOR_ROLE_TEAM, MSG, TEAM_MSG, can, type Access, type TeamRole } from "@promptly/shared";
import { fail } from "../errors.ts";
import { checkLockedChange, lockMembers, type LockedMember } from "./last-admin.ts";
import type { ViewerAccess } from "./access.ts";
import { teamVisibility } from "./visibility.ts";
import { avatarUrl } from "./account.ts";

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

const teamSelect = (userId: string) =>
  ({
    id: true,
    name: true,
    organizationId: true,
    createdAt: true,
    updatedAt: true,
    createdById: true,
    organization: { select: { name: true } },
    _count: { select: { members: true } },
    members: { where: { userId }, select: { role: true } },
  }) as const;

type TeamRow = {
  id: string;
  name: string;
  organizationId: string;
  createdAt: Date;
  updatedAt: Date;
  createdById: string | null;
  organization: { name: string };
  _count: { members: number };
  members: { role: TeamRole }[];
};

const toTeamItem = (row: TeamRow): TeamListItem => ({
  id: row.id,
  name: row.name,
  organizationId: row.organizationId,
  organizationName: row.organization.name,
  memberCount: row._count.members,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  createdById: row.createdById,
  myRole: row.members[0]?.role ?? null,
});

/**
 * The caller's teams, ordered by name: a super user sees all; an organization admin sees every team
 * of that organization; others the teams they are members of. Optionally one organization only.
 */
export async function listTeams(db: DbOrTx, viewer: ViewerAccess, organizationId?: string): Promise<TeamListItem[]> {
  // One statement (member counts and the caller's role as sub-selects): a large organization's
  // list costs one round trip instead of one per relation.
  const { joins, visible } = teamVisibility(viewer);
  const rows = await db.$queryRaw<TeamListItem[]>`
    SELECT t.id, t.name, t.organization_id AS "organizationId", o.name AS "organizationName",
           (SELECT count(*) FROM team_members c WHERE c.team_id = t.id)::int AS "memberCount",
           t.created_at AS "createdAt", t.updated_at AS "updatedAt", t.created_by AS "createdById",
           my_tm.role::text AS "myRole"
    FROM teams t
    JOIN organizations o ON o.id = t.organization_id
    ${joins}
    WHERE ${organizationId ? Prisma.sql`t.organization_id = ${organizationId}::uuid` : Prisma.sql`TRUE`} AND ${visible}
    ORDER BY t.name, t.id`;
  return rows;
}

/** One team as the caller sees it (access is checked by the procedure builder). */
export async function getTeam(db: DbOrTx, viewer: ViewerAccess, teamId: string): Promise<TeamListItem> {
  const row = await db.team.findUnique({ where: { id: teamId }, select: teamSelect(viewer.userId) });
  if (!row) return fail("NOT_FOUND", MSG.notFound);
  return toTeamItem(row);
}

/** Spec 4, team creation: the team and its creator's `admin` membership are written together. */
export async function createTeam(
  db: Db,
  input: { organizationId: string; name: string; creatorId: string },
): Promise<TeamListItem> {
  return db.$transaction(async (tx) => {
    const team = await tx.team.create({
      data: { name: input.name, organizationId: input.organizationId, createdById: input.creatorId },
      select: { id: true },
    });
    await tx.teamMember.create({ data: { teamId: team.id, userId: input.creatorId, role: CREATOR_ROLE_TEAM } });
    return toTeamItem(await tx.team.findUniqueOrThrow({ where: { id: team.id }, select: teamSelect(input.creatorId) }));
  });
}

export async function renameTeam(db: DbOrTx, viewer: ViewerAccess, teamId: string, name: string): Promise<TeamListItem> {
  const row = await db.team.update({ where: { id: teamId }, data: { name }, select: teamSelect(viewer.userId) });
  return toTeamItem(row);
}

/** Members and invites go with the team (ON DELETE CASCADE). */
export async function deleteTeam(db: DbOrTx, teamId: string): Promise<void> {
  await db.team.delete({ where: { id: teamId } });
}

// ---- team members ----

export interface TeamMemberItem {
  id: string;
  teamId: string;
  userId: string;
  role: TeamRole;
  joinedAt: Date;
  profile: { fullName: string | null; avatarUrl: string | null; email: string | null };
  /** The team's only admin: their role cannot change and they cannot be removed. */
  isLastAdmin: boolean;
}

const memberSelect = {
  id: true,
  teamId: true,
  userId: true,
  role: true,
  joinedAt: true,
  user: { select: { email: true, profile: { select: { fullName: true, avatarKey: true } } } },
} as const;

type MemberRow = {
  id: string;
  teamId: string;
  userId: string;
  role: TeamRole;
  joinedAt: Date;
  user: { email: string; profile: { fullName: string | null; avatarKey: string | null } | null };
};

const toMemberItem = (row: MemberRow, adminCount: number): TeamMemberItem => ({
  id: row.id,
  teamId: row.teamId,
  userId: row.userId,
  role: row.role,
  joinedAt: row.joinedAt,
  profile: {
    fullName: row.user.profile?.fullName ?? null,
    avatarUrl: avatarUrl(row.user.profile?.avatarKey),
    email: row.user.email ?? null,
  },
  isLastAdmin: row.role === "admin" && adminCount <= 1,
});

/**
 * Members ordered by role (admin, editor, viewer: the enum's order), then by who joined first. One
 * statement with the account and profile joined in.
 */
export async function listTeamMembers(db: DbOrTx, teamId: string): Promise<TeamMemberItem[]> {
  const rows = await db.$queryRaw<(Omit<MemberRow, "user"> & { email: string; fullName: string | null; avatarKey: string | null })[]>`
    SELECT m.id, m.team_id AS "teamId", m.user_id AS "userId", m.role::text AS role, m.joined_at AS "joinedAt",
           u.email, p.full_name AS "fullName", p.avatar_key AS "avatarKey"
    FROM team_members m
    JOIN users u ON u.id = m.user_id
    LEFT JOIN profiles p ON p.user_id = m.user_id
    WHERE m.team_id = ${teamId}::uuid
    ORDER BY m.role, m.joined_at, m.id`;
  const adminCount = rows.filter((row) => row.role === "admin").length;
  return rows.map(({ email, fullName, avatarKey, ...row }) =>
    toMemberItem({ ...row, user: { email, profile: fullName === null && avatarKey === null ? null : { fullName, avatarKey } } }, adminCount),
  );
}

export async function findTeamMemberTeamId(db: DbOrTx, memberId: string): Promise<string | null> {
  const row = await db.teamMember.findUnique({ where: { id: memberId }, select: { teamId: true } });
  return row?.teamId ?? null;
}

/** Who asks for a change to a team's members: their access, re-checked on the locked rows. */
export type TeamActor = Access & { userId: string };

/** The last-admin rule on the team's locked rows; the caller's team admin level is checked there again. */
function checkTeamChange(members: LockedMember<TeamRole>[], actor: TeamActor, memberId: string, nextRole: TeamRole | null) {
  return checkLockedChange(members, {
    memberId,
    nextRole,
    actorId: actor.userId,
    actorIsAdmin: (actorRole) => can({ ...actor, teamRole: actorRole }, "team.members.manage"),
    notFound: MSG.notFound,
    lastAdmin: nextRole ? TEAM_MSG.lastAdminCannotBeDemoted : TEAM_MSG.lastAdminCannotBeRemoved,
  });
}

export async function updateTeamMemberRole(
  db: Db,
  input: { teamId: string; memberId: string; role: TeamRole; actor: TeamActor },
): Promise<TeamMemberItem> {
  return db.$transaction(async (tx) => {
    const members = await lockMembers<TeamRole>(tx, { table: "team_members", teamId: input.teamId });
    checkTeamChange(members, input.actor, input.memberId, input.role);
    const row = await tx.teamMember.update({ where: { id: input.memberId }, data: { role: input.role }, select: memberSelect });
    const adminCount = members.filter((member) => (member.id === input.memberId ? input.role : member.role) === "admin").length;
    return toMemberItem(row, adminCount);
  });
}

export async function removeTeamMember(
  db: Db,
  input: { teamId: string; memberId: string; actor: TeamActor },
): Promise<void> {
  await db.$transaction(async (tx) => {
    checkTeamChange(await lockMembers(tx, { table: "team_members", teamId: input.teamId }), input.actor, input.memberId, null);
    await tx.teamMember.delete({ where: { id: input.memberId } });
  });
}
