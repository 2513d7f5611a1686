// One member shape for organizations and teams: who the person is, their role there, and whether
// they are the last admin (computed here, on the server, for both). One SQL statement per list.
import { Prisma, hotQuery, type DbOrTx } from "@promptly/db";
import { APP_ROLES, ORGANIZATION_ROLES, TEAM_ROLES, type Action } from "@promptly/shared";
import { z } from "zod";
import { avatarUrlSql } from "../identity/account.ts";
import { teamAccessFrom, teamAccessSql, type Caller, type TeamAccessRow, type TeamRead } from "../access/access.ts";
import { listColumns, type JsonList } from "../json-list.ts";

const memberItem = <Role extends z.ZodType<string>>(role: Role) =>
  z.object({
    /** The membership row's id (what updateRole and remove take). */
    id: z.string(),
    userId: z.string(),
    role,
    joinedAt: z.date(),
    fullName: z.string().nullable(),
    email: z.string(),
    avatarUrl: z.string().nullable(),
    isSuperUser: z.boolean(),
    /** The only admin: their role cannot change and they cannot be removed. */
    isLastAdmin: z.boolean(),
  });

/** An organization's member also shows their app role (what a super user may change there). */
export const organizationMemberItem = memberItem(z.enum(ORGANIZATION_ROLES)).extend({ appRole: z.enum(APP_ROLES) });
export type OrganizationMemberItem = z.infer<typeof organizationMemberItem>;
export const teamMemberItem = memberItem(z.enum(TEAM_ROLES));
export type TeamMemberItem = z.infer<typeof teamMemberItem>;

type Place = { table: "organization_members"; organizationId: string } | { table: "team_members"; teamId: string };

const placeWhere = (place: Place) =>
  place.table === "organization_members" ? Prisma.sql`m.organization_id = ${place.organizationId}::uuid` : Prisma.sql`m.team_id = ${place.teamId}::uuid`;

/** Whether the membership row `m` is the only admin among the rows read (a window over them). */
const isLastAdmin = Prisma.sql`(m.role = 'admin' AND count(*) FILTER (WHERE m.role = 'admin') OVER () <= 1)`;
/** A member's columns over `m` (the membership row) and the joins memberJoins makes; an organization's member adds appRoleColumn. */
const memberColumns = listColumns(teamMemberItem, {
  id: Prisma.sql`m.id::text`,
  userId: Prisma.sql`m.user_id::text`,
  role: Prisma.sql`m.role::text`,
  joinedAt: Prisma.sql`m.joined_at`,
  fullName: Prisma.sql`p.full_name`,
  email: Prisma.sql`u.email`,
  avatarUrl: avatarUrlSql(Prisma.sql`p.avatar_key`),
  isSuperUser: Prisma.sql`COALESCE(p.super_user, FALSE)`,
  isLastAdmin,
});

/** The Date fields of teamMembers.list's items, as listTeamMembersJson's answer is annotated. */
export const teamMemberDates = memberColumns.dateKeys;

const memberJoins = Prisma.sql`JOIN users u ON u.id = m.user_id
    LEFT JOIN profiles p ON p.user_id = m.user_id`;
/** An organization's member also shows their app role (joined from user_roles). */
const appRoleColumn = Prisma.sql`CASE WHEN COALESCE(p.super_user, FALSE) THEN 'super-user' ELSE COALESCE(ur.role::text, 'user') END AS "appRole"`;
const appRoleJoin = Prisma.sql`LEFT JOIN user_roles ur ON ur.user_id = m.user_id`;
/** Admins first (the role enum's order), then by who joined first. */
const memberOrder = Prisma.sql`ORDER BY m.role, m.joined_at, m.id`;

/**
 * The members of an organization or a team, admins first (the role enum's order), then by who joined
 * first; `only` narrows to one membership row (the answer of a role change), still counting admins
 * over the whole place.
 */
async function listMembers(db: DbOrTx, place: Place, only?: string): Promise<unknown[]> {
  const organization = place.table === "organization_members";
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT ${memberColumns.rows}${organization ? Prisma.sql`, ${appRoleColumn}` : Prisma.empty}
    FROM ${Prisma.raw(place.table)} m
    ${memberJoins} ${organization ? appRoleJoin : Prisma.empty}
    WHERE ${placeWhere(place)}
    ${memberOrder}`;
  return rows.filter((row) => only === undefined || row.id === only);
}

export async function listOrganizationMembers(db: DbOrTx, organizationId: string): Promise<OrganizationMemberItem[]> {
  return z.array(organizationMemberItem).parse(await listMembers(db, { table: "organization_members", organizationId }));
}

/**
 * The members of a team (as listMembers gives them) and the caller's access there in one statement:
 * the members are read only where the caller may `action` in the team (canSql), and `access` (as
 * loadTeamAccess gives it) tells the procedure builder to answer NOT_FOUND or FORBIDDEN otherwise.
 */
export async function listTeamMembersFor(db: DbOrTx, caller: Caller, teamId: string, action: Action): Promise<TeamRead<TeamMemberItem[]>> {
  // The access row left-joined to the members: one row of NULL members when there are none to read.
  const rows = await hotQuery<TeamAccessRow & { allowed: boolean } & (TeamMemberItem | { id: null })>(db, Prisma.sql`
    SELECT a.*, ${memberColumns.rows}
    FROM (${teamAccessSql(caller, teamId, action)}) a
    LEFT JOIN (team_members m ${memberJoins}) ON m.team_id = ${teamId}::uuid AND a.allowed
    ${memberOrder}`);
  // The members as teamMemberItem has them (written out: no copies of the rows); the procedure's output schema checks them.
  const members: TeamMemberItem[] = [];
  for (const row of rows) {
    if (row.id === null) continue;
    const { id, userId, role, joinedAt, fullName, email, avatarUrl, isSuperUser, isLastAdmin } = row;
    members.push({ id, userId, role, joinedAt, fullName, email, avatarUrl, isSuperUser, isLastAdmin });
  }
  return { access: teamAccessFrom(caller, teamId, rows[0]), result: members };
}

/**
 * listTeamMembersFor's answer as PostgreSQL writes it: the caller's access in the team (teamAccessSql,
 * the same statement's check) and, only where `action` is allowed, the members as JSON text
 * (teamMemberItem's keys and values as the procedure sends them) in the list's order. The columns are
 * written in `s` (isLastAdmin's window counts its rows) and `item` picks them without the sort keys.
 */
export async function listTeamMembersJson(db: DbOrTx, caller: Caller, teamId: string, action: Action): Promise<TeamRead<JsonList>> {
  const [row] = await hotQuery<TeamAccessRow & { count: number; items: string }>(db, Prisma.sql`
    SELECT a.*, l.count, l.items
    FROM (${teamAccessSql(caller, teamId, action)}) a
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS count, COALESCE(string_agg(row_to_json(item)::text, ',' ORDER BY s.sort_role, s.sort_joined_at, s.sort_id), '') AS items
      FROM (
        SELECT ${memberColumns.json}, m.role AS sort_role, m.joined_at AS sort_joined_at, m.id AS sort_id
        FROM team_members m ${memberJoins}
        WHERE m.team_id = ${teamId}::uuid AND a.allowed
      ) s
      CROSS JOIN LATERAL (SELECT ${memberColumns.names}) item
    ) l`);
  // Few members a team: one piece.
  return { access: teamAccessFrom(caller, teamId, row), result: { count: row?.count ?? 0, pieces: row?.count ? [row.items] : [] } };
}

/** One organization member as the list shows them (after a role change, in the same transaction). */
export async function getOrganizationMember(db: DbOrTx, organizationId: string, memberId: string): Promise<OrganizationMemberItem> {
  return organizationMemberItem.parse((await listMembers(db, { table: "organization_members", organizationId }, memberId))[0]);
}

/** One team member as the list shows them. */
export async function getTeamMember(db: DbOrTx, teamId: string, memberId: string): Promise<TeamMemberItem> {
  return teamMemberItem.parse((await listMembers(db, { table: "team_members", teamId }, memberId))[0]);
}
