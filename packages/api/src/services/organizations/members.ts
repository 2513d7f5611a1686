// One member shape for organizations and teams: who the person is, their role there, and whether
// they are the last admin (computed here, on the server, for both). One SQL statement per list.
import { Prisma, type DbOrTx } from "@promptly/db";
import { ORGANIZATION_ROLES, TEAM_ROLES } from "@promptly/shared";
import { z } from "zod";
import { avatarUrl } from "../identity/account.ts";

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
    /** The only admin: their role cannot change and they cannot be removed (spec 4). */
    isLastAdmin: z.boolean(),
  });

export const organizationMemberItem = memberItem(z.enum(ORGANIZATION_ROLES));
export type OrganizationMemberItem = z.infer<typeof organizationMemberItem>;
export const teamMemberItem = memberItem(z.enum(TEAM_ROLES));
export type TeamMemberItem = z.infer<typeof teamMemberItem>;

type Place = { table: "organization_members"; organizationId: string } | { table: "team_members"; teamId: string };

const placeWhere = (place: Place) =>
  place.table === "organization_members" ? Prisma.sql`m.organization_id = ${place.organizationId}::uuid` : Prisma.sql`m.team_id = ${place.teamId}::uuid`;

/**
 * The members of an organization or a team, admins first (the role enum's order), then by who joined
 * first; `only` narrows to one membership row (the answer of a role change), still counting admins
 * over the whole place.
 */
async function listMembers(db: DbOrTx, place: Place, only?: string): Promise<unknown[]> {
  const rows = await db.$queryRaw<{ id: string; avatarKey: string | null }[]>`
    SELECT m.id::text AS id, m.user_id::text AS "userId", m.role::text AS role, m.joined_at AS "joinedAt",
           p.full_name AS "fullName", u.email, p.avatar_key AS "avatarKey", COALESCE(p.super_user, FALSE) AS "isSuperUser",
           (m.role = 'admin' AND count(*) FILTER (WHERE m.role = 'admin') OVER () <= 1) AS "isLastAdmin"
    FROM ${Prisma.raw(place.table)} m
    JOIN users u ON u.id = m.user_id
    LEFT JOIN profiles p ON p.user_id = m.user_id
    WHERE ${placeWhere(place)}
    ORDER BY m.role, m.joined_at, m.id`;
  return rows
    .filter((row) => only === undefined || row.id === only)
    .map(({ avatarKey, ...row }) => ({ ...row, avatarUrl: avatarUrl(avatarKey) }));
}

export async function listOrganizationMembers(db: DbOrTx, organizationId: string): Promise<OrganizationMemberItem[]> {
  return z.array(organizationMemberItem).parse(await listMembers(db, { table: "organization_members", organizationId }));
}

export async function listTeamMembers(db: DbOrTx, teamId: string): Promise<TeamMemberItem[]> {
  return z.array(teamMemberItem).parse(await listMembers(db, { table: "team_members", teamId }));
}

/** One organization member as the list shows them (after a role change, in the same transaction). */
export async function getOrganizationMember(db: DbOrTx, organizationId: string, memberId: string): Promise<OrganizationMemberItem> {
  return organizationMemberItem.parse((await listMembers(db, { table: "organization_members", organizationId }, memberId))[0]);
}

/** One team member as the list shows them. */
export async function getTeamMember(db: DbOrTx, teamId: string, memberId: string): Promise<TeamMemberItem> {
  return teamMemberItem.parse((await listMembers(db, { table: "team_members", teamId }, memberId))[0]);
}
