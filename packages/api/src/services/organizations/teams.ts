// Business rules of teams. Services take `db` and plain ids; no tRPC here.
import { z } from "zod";
import { PRODUCTION_DATA_DELETE_TIMEOUT_MS, Prisma, hotQuery, retryOnDeadlock, type Db, type DbOrTx } from "@promptly/db";
import { CREATOR_ROLE_TEAM, MSG, TEAM_MSG, TEAM_ROLES, can, type TeamRole } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { checkLockedChange, lockMembers, type LockedMember } from "./last-admin.ts";
import type { Caller } from "../access/access.ts";
import type { ActingMember } from "../access/actor.ts";
import { teamVisibility } from "../access/visibility.ts";
import { listColumns, type JsonList } from "../json-list.ts";
import { getTeamMember, type TeamMemberItem } from "./members.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";

export const teamListItem = z.object({
  id: z.string(),
  name: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  memberCount: z.number(),
  createdAt: z.date(),
  updatedAt: z.date(),
  createdById: z.string().nullable(),
  /** Approvals a change request needs before `production` moves; 0: no review. */
  requiredApprovals: z.number(),
  /** The pass rate (0-100) a version's latest evaluation must reach before `production` moves to it; null: off. */
  requiredPassRate: z.number().nullable(),
  /** Whether production generations sent in keep their input and output text (capped); off by default. */
  keepGenerationText: z.boolean(),
  /** The caller's role in the team; null when they see it as organization admin or super user. */
  myRole: z.enum(TEAM_ROLES).nullable(),
});
export type TeamListItem = z.infer<typeof teamListItem>;

const teamSelect = (userId: string) =>
  ({
    id: true,
    name: true,
    organizationId: true,
    createdAt: true,
    updatedAt: true,
    createdById: true,
    requiredApprovals: true,
    requiredPassRate: true,
    keepGenerationText: true,
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
  requiredApprovals: number;
  requiredPassRate: number | null;
  keepGenerationText: boolean;
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
  requiredApprovals: row.requiredApprovals,
  requiredPassRate: row.requiredPassRate,
  keepGenerationText: row.keepGenerationText,
  myRole: row.members[0]?.role ?? null,
});

/** teamListItem's columns over a team `t`, its organization `o` and the caller's membership `my_tm` (teamVisibility's joins). */
const teamColumns = listColumns(teamListItem, {
  id: Prisma.sql`t.id`,
  name: Prisma.sql`t.name`,
  organizationId: Prisma.sql`t.organization_id`,
  organizationName: Prisma.sql`o.name`,
  memberCount: Prisma.sql`(SELECT count(*) FROM team_members c WHERE c.team_id = t.id)::int`,
  createdAt: Prisma.sql`t.created_at`,
  updatedAt: Prisma.sql`t.updated_at`,
  createdById: Prisma.sql`t.created_by`,
  requiredApprovals: Prisma.sql`t.required_approvals`,
  requiredPassRate: Prisma.sql`t.required_pass_rate`,
  keepGenerationText: Prisma.sql`t.keep_generation_text`,
  myRole: Prisma.sql`my_tm.role::text`,
});

/** The Date fields of teams.list's items, as listTeamsJson's answer is annotated. */
export const teamListDates = teamColumns.dateKeys;

/**
 * The statement of the teams the caller may see, by name (`select` over them; `item` a lateral
 * subquery per team where the select reads one): a super user sees all; an organization admin
 * every team of that organization; others the teams they are members of. Optionally one organization only.
 */
function visibleTeams(caller: Caller, organizationId: string | undefined, select: Prisma.Sql, item: Prisma.Sql = Prisma.empty) {
  const { joins, visible } = teamVisibility(caller);
  return Prisma.sql`
    ${select}
    FROM teams t
    JOIN organizations o ON o.id = t.organization_id
    ${joins}
    ${item}
    WHERE ${organizationId ? Prisma.sql`t.organization_id = ${organizationId}::uuid` : Prisma.sql`TRUE`} AND ${visible}
    ORDER BY t.name, t.id`;
}

/**
 * The caller's teams (visibleTeams). One statement (member counts and the caller's role as
 * sub-selects): a large organization's list costs one round trip instead of one per relation.
 */
export async function listTeams(db: DbOrTx, caller: Caller, organizationId?: string): Promise<TeamListItem[]> {
  // Its columns are teamListItem's, in its order and types, so the rows are the answer as they come: the
  // procedure's output schema checks them (a second parse here cost about a tenth of a 500-team list).
  return hotQuery<TeamListItem>(db, visibleTeams(caller, organizationId, Prisma.sql`SELECT ${teamColumns.rows}`));
}

/**
 * listTeams's answer as PostgreSQL writes it: each team as JSON text (teamListItem's keys and values
 * as the procedure sends them, dates as toISOString writes them), a row each, in the list's order. The
 * same statement and columns as listTeams; the teams never become objects in JavaScript
 * (reading 500 rows, checking them against the schema and writing them again was most of the list's CPU).
 */
export async function listTeamsJson(db: DbOrTx, caller: Caller, organizationId?: string): Promise<JsonList> {
  const rows = await hotQuery<{ item: string }>(
    db,
    visibleTeams(caller, organizationId, Prisma.sql`SELECT row_to_json(item)::text AS item`, Prisma.sql`CROSS JOIN LATERAL (SELECT ${teamColumns.json}) item`),
  );
  return { count: rows.length, pieces: rows.map((row) => row.item) };
}

/** One team as the caller sees it (access is checked by the procedure builder). */
export async function getTeam(db: DbOrTx, caller: Caller, teamId: string): Promise<TeamListItem> {
  const row = await db.team.findUnique({ where: { id: teamId }, select: teamSelect(caller.userId) });
  if (!row) return fail("NOT_FOUND", MSG.notFound);
  return toTeamItem(row);
}

/** Team creation: the team and its creator's `admin` membership are written together. */
export async function createTeam(
  db: Db,
  input: { organizationId: string; name: string; creatorId: string },
  context: AuditContext,
): Promise<TeamListItem> {
  return db.$transaction(async (tx) => {
    const team = await tx.team.create({
      data: { name: input.name, organizationId: input.organizationId, createdById: input.creatorId },
      select: { id: true },
    });
    await tx.teamMember.create({ data: { teamId: team.id, userId: input.creatorId, role: CREATOR_ROLE_TEAM } });
    await auditAs(tx, context, {
      organizationId: input.organizationId,
      teamId: team.id,
      action: "team.create",
      target: { type: "team", id: team.id, name: input.name },
      after: { name: input.name },
    });
    return toTeamItem(await tx.team.findUniqueOrThrow({ where: { id: team.id }, select: teamSelect(input.creatorId) }));
  });
}

export async function renameTeam(db: Db, caller: Caller, teamId: string, name: string, context: AuditContext): Promise<TeamListItem> {
  return db.$transaction(async (tx) => {
    const before = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { name: true } });
    const row = await tx.team.update({ where: { id: teamId }, data: { name }, select: teamSelect(caller.userId) });
    await auditAs(tx, context, { organizationId: row.organizationId, teamId, action: "team.rename", target: { type: "team", id: teamId, name }, before, after: { name } });
    return toTeamItem(row);
  });
}

/** The `keys` of `row`. */
const pick = <T extends object, K extends keyof T>(row: T, keys: K[]) => Object.fromEntries(keys.map((key) => [key, row[key]])) as Pick<T, K>;

/** The team's settings: how many approvals a change of `production` needs, and the pass rate it must show; those left out stay as they are. */
export async function updateTeamSettings(db: Db, teamId: string, settings: { requiredApprovals?: number; requiredPassRate?: number | null }, context: AuditContext) {
  const select = { requiredApprovals: true, requiredPassRate: true } as const;
  return db.$transaction(async (tx) => {
    const before = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { ...select, organizationId: true } });
    const row = await tx.team.update({ where: { id: teamId }, data: settings, select });
    const changed = (Object.keys(select) as (keyof typeof select)[]).filter((key) => settings[key] !== undefined);
    if (changed.length === 0) return row;
    await auditAs(tx, context, {
      organizationId: before.organizationId,
      teamId,
      action: "team.settings",
      target: { type: "team", id: teamId },
      // The settings this change sets, as they were and are.
      before: pick(before, changed),
      after: pick(row, changed),
    });
    return row;
  });
}

/**
 * Whether the team's production generations keep their input and output text from now on (audited as a
 * settings change). Turning it off deletes the text kept so far: it is never shown again, even once turned
 * on again, and housekeeping clears it in batches (clearGenerationText).
 */
export async function setKeepGenerationText(db: Db, teamId: string, keep: boolean, context: AuditContext) {
  return db.$transaction(async (tx) => {
    const before = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { keepGenerationText: true, organizationId: true } });
    const row = await tx.team.update({ where: { id: teamId }, data: { keepGenerationText: keep }, select: { keepGenerationText: true } });
    // The database's clock, as generations' received_at is.
    if (before.keepGenerationText && !keep) await tx.$executeRaw`UPDATE teams SET generation_text_cleared_before = now() WHERE id = ${teamId}::uuid`;
    if (before.keepGenerationText !== keep) {
      await auditAs(tx, context, {
        organizationId: before.organizationId, teamId, action: "team.settings", target: { type: "team", id: teamId },
        before: { keepGenerationText: before.keepGenerationText }, after: row,
      });
    }
    return row;
  });
}

/**
 * Members, invites, prompts and production data go with the team (ON DELETE CASCADE). It runs again when
 * deadlocked: it takes the team's row, then deletes its generations; a merge of production data deletes a
 * stored generation and writes it back, whose foreign key takes the team's row. PostgreSQL ends one.
 * The team's prompts are locked before its row, as a direct move of `production` takes them: the move holds
 * its prompt's row, then reads the team's review rule holding the team's row (requiredApprovalsHeld), and
 * does not run again; the team's row taken first would deadlock the two.
 */
export async function deleteTeam(db: Db, teamId: string, context: AuditContext): Promise<void> {
  await retryOnDeadlock(() => db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM prompts WHERE team_id = ${teamId}::uuid ORDER BY id FOR UPDATE`;
    const team = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { organizationId: true, name: true } });
    await auditAs(tx, context, { organizationId: team.organizationId, teamId, action: "team.delete", target: { type: "team", id: teamId, name: team.name }, before: { name: team.name } });
    await tx.team.delete({ where: { id: teamId } });
  }, { timeout: PRODUCTION_DATA_DELETE_TIMEOUT_MS }));
}

/** The member's person and the team's organization, for an audit entry about a team membership. */
async function auditTeamMember(
  tx: DbOrTx,
  context: AuditContext,
  teamId: string,
  userId: string,
  entry: { action: "member.role" | "member.remove"; before: unknown; after?: unknown },
) {
  const [team, user] = await Promise.all([
    tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { organizationId: true } }),
    tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } }),
  ]);
  await auditAs(tx, context, { organizationId: team.organizationId, teamId, target: { type: "user", id: userId, name: user.email }, ...entry });
}

// ---- team members ----

export async function findTeamMemberTeamId(db: DbOrTx, memberId: string): Promise<string | null> {
  const row = await db.teamMember.findUnique({ where: { id: memberId }, select: { teamId: true } });
  return row?.teamId ?? null;
}

/** The last-admin rule on the team's locked rows; the caller's team admin level is checked there again. */
function checkTeamChange(members: LockedMember<TeamRole>[], actor: ActingMember, memberId: string, nextRole: TeamRole | null) {
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
  input: { teamId: string; memberId: string; role: TeamRole; actor: ActingMember },
  context: AuditContext,
): Promise<TeamMemberItem> {
  return db.$transaction(async (tx) => {
    const members = await lockMembers<TeamRole>(tx, { table: "team_members", teamId: input.teamId });
    const target = checkTeamChange(members, input.actor, input.memberId, input.role);
    await tx.teamMember.update({ where: { id: input.memberId }, data: { role: input.role }, select: { id: true } });
    await auditTeamMember(tx, context, input.teamId, target.userId, { action: "member.role", before: { role: target.role }, after: { role: input.role } });
    return getTeamMember(tx, input.teamId, input.memberId);
  });
}

export async function removeTeamMember(
  db: Db,
  input: { teamId: string; memberId: string; actor: ActingMember },
  context: AuditContext,
): Promise<void> {
  await db.$transaction(async (tx) => {
    const target = checkTeamChange(await lockMembers<TeamRole>(tx, { table: "team_members", teamId: input.teamId }), input.actor, input.memberId, null);
    await auditTeamMember(tx, context, input.teamId, target.userId, { action: "member.remove", before: { role: target.role } });
    await tx.teamMember.delete({ where: { id: input.memberId } });
  });
}

interface CommandLineTeam {
  id: string;
  name: string;
  organizationName: string;
  organizationSlug: string | null;
}

/**
 * The team a command names (`--team`): by its id, its name (any case), or its name's slug ("Platform
 * Team": platform-team; teams have no stored slug), within `organization` (its id, slug or name) when
 * given. Several matches are refused with the list, so the command never picks one by chance.
 */
export async function findTeamForCommandLine(db: DbOrTx, reference: string, organization?: string): Promise<string> {
  const wanted = reference.trim().toLowerCase();
  const inOrganization = organization?.trim().toLowerCase() || null;
  const teams = await db.$queryRaw<CommandLineTeam[]>`
    SELECT t.id::text AS id, t.name, o.name AS "organizationName", o.slug AS "organizationSlug"
    FROM teams t JOIN organizations o ON o.id = t.organization_id
    WHERE (t.id::text = ${wanted} OR lower(t.name) = ${wanted}
           OR trim(both '-' from regexp_replace(lower(t.name), '[^a-z0-9]+', '-', 'g')) = ${wanted})
      AND (${inOrganization}::text IS NULL OR o.id::text = ${inOrganization} OR o.slug = ${inOrganization} OR lower(o.name) = ${inOrganization})
    ORDER BY o.name, t.name, t.id
    LIMIT 21`;
  const where = organization ? ` in the organization "${organization}"` : "";
  if (!teams.length) return fail("NOT_FOUND", `No team with the id, slug or name "${reference}"${where}.`, "TEAM_NOT_FOUND");
  if (teams.length > 1) {
    const list = teams
      .slice(0, 20)
      .map((team) => `  ${team.id}  ${team.name}  (organization ${team.organizationName}${team.organizationSlug ? `, ${team.organizationSlug}` : ""})`);
    return fail(
      "INVALID",
      [`"${reference}" names ${teams.length > 20 ? "more than 20" : teams.length} teams${where}; give the team's id, or --org <organization id, slug or name>:`, ...list].join("\n"),
      "TEAM_AMBIGUOUS",
    );
  }
  return teams[0]!.id;
}
