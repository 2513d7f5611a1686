// The one visibility rule: which organizations and teams a caller may see, written once, in SQL,
// from the permission table (organization.read, team.read). Every list and every access check uses
// it, so lists never filter after the query and a check never disagrees with a list. The prompt
// library's visibility (private / team / organization) extends this rule.
import { Prisma } from "@promptly/db";
import { LATEST_LABEL, PERMISSIONS, resolveAppRole, type Action, type ApiKeyScope, type AppRole, type OrganizationRole, type TeamRole } from "@promptly/shared";

/** The app role of a person with no stored one. */
const DEFAULT_APP_ROLE: AppRole = resolveAppRole(false, null);

export interface Caller {
  userId: string;
  role: AppRole;
  isSuperUser: boolean;
  /**
   * Set when the caller is a team's API key (keyCaller): it holds `teamRole` in its team and is a
   * plain member of that team's organization, nothing anywhere else, and reads no private or archived prompt.
   * `labels`: the only labels it may fetch (null: any label and explicit versions). `mayRun`: it holds
   * the `run` scope (runs prompts on the organization's models); `mayDelete`, the `delete` scope;
   * `mayIngest`, the `ingest` scope (sends production generations and scores).
   */
  apiKey?: { id: string; teamId: string; teamRole: TeamRole; labels: readonly string[] | null; mayRun: boolean; mayDelete: boolean; mayIngest?: boolean };
  /** Set for the operator's command line on the server (commandLineCaller): every right, and no person. */
  commandLine?: true;
}

/** A team's API key as a caller (keyCaller): what the runtime services of the REST, MCP and Langfuse APIs are handed. */
export type KeyCaller = Caller & { apiKey: NonNullable<Caller["apiKey"]> };

/** No person: the user id of an API key's caller, which matches no membership, author or bookmark. */
const NO_USER = "00000000-0000-0000-0000-000000000000";

/** The operator running the command line on the server: a super user who is no person (audited as `cli`). */
export const commandLineCaller = (): Caller => ({ userId: NO_USER, role: "super-user", isSuperUser: true, commandLine: true });

/**
 * An API key, as authenticating a request produces it: what it may do, acting only within `teamId`.
 * The one type of a key: the principal, the runtime services, the REST routes and the cache take it.
 */
export interface AuthenticatedApiKey {
  /** The key's id: the actor its writes are recorded as (audit trail). */
  id: string;
  teamId: string;
  /** The labels it may fetch; null: any label and explicit versions. */
  labels: string[] | null;
  scopes: ApiKeyScope[];
}

/**
 * An API key as a caller: a viewer of its team (an editor with the `write` scope), so `can` grants
 * it what a team viewer or editor may do there and never more: never a protected label, never an
 * admin action. Its organization sees it as a member, so the organization's lists answer it, and the
 * visibility rules below keep those lists to its own team. Made once per request, by the transport's
 * adapter (the tRPC builders, the REST, MCP and Langfuse doors): services are handed the caller.
 */
export function keyCaller(apiKey: AuthenticatedApiKey): KeyCaller {
  const teamRole: TeamRole = apiKey.scopes.includes("write") ? "editor" : "viewer";
  return { userId: NO_USER, role: "user", isSuperUser: false, apiKey: {
      id: apiKey.id, teamId: apiKey.teamId, teamRole, labels: apiKey.labels, mayRun: apiKey.scopes.includes("run"), mayDelete: apiKey.scopes.includes("delete"),
      mayIngest: apiKey.scopes.includes("ingest"),
    },
  };
}

/** The key's role rows: `my_tm` in its team, `my_om` ('member') in that team's organization. */
const keyRoles = (key: NonNullable<Caller["apiKey"]>, on: { team: Prisma.Sql; organization: Prisma.Sql }) =>
  Prisma.sql`LEFT JOIN (SELECT ${key.teamRole}::text AS role) my_tm ON ${on.team} = ${key.teamId}::uuid
      LEFT JOIN (SELECT organization_id, 'member'::text AS role FROM teams WHERE id = ${key.teamId}::uuid) my_om ON my_om.organization_id = ${on.organization}`;

/**
 * `can(access, action)` as a SQL boolean, given the SQL expressions that hold the caller's role in
 * the organization and the team concerned (NULL where they have none). Never NULL itself.
 */
export function canSql(caller: Caller, action: Action, roles: { organizationRole?: Prisma.Sql; teamRole?: Prisma.Sql }): Prisma.Sql {
  const grant: { appRoles?: readonly AppRole[]; organizationRoles?: readonly OrganizationRole[]; teamRoles?: readonly TeamRole[] } = PERMISSIONS[action];
  if (caller.isSuperUser || grant.appRoles?.includes(caller.role)) return Prisma.sql`TRUE`;
  const parts: Prisma.Sql[] = [];
  if (roles.organizationRole && grant.organizationRoles?.length) {
    parts.push(Prisma.sql`COALESCE(${roles.organizationRole}::text IN (${Prisma.join([...grant.organizationRoles])}), FALSE)`);
  }
  if (roles.teamRole && grant.teamRoles?.length) {
    parts.push(Prisma.sql`COALESCE(${roles.teamRole}::text IN (${Prisma.join([...grant.teamRoles])}), FALSE)`);
  }
  return parts.length ? Prisma.sql`(${Prisma.join(parts, " OR ")})` : Prisma.sql`FALSE`;
}

/**
 * Whether the person `who.userId` (an SQL expression) holds `action` by their roles, as `can` answers
 * it for them: a super user, their app role, their role in the organization, or their role in the team
 * (with no team given: their strongest role in any team of the organization, as a page of the main area
 * asks it). For a person other than the caller (who last moved a label, who invited). Never NULL.
 */
export function holderSql(action: Action, who: { userId: Prisma.Sql; organizationId: Prisma.Sql; teamId?: Prisma.Sql }): Prisma.Sql {
  const grant: { appRoles?: readonly AppRole[]; organizationRoles?: readonly OrganizationRole[]; teamRoles?: readonly TeamRole[] } = PERMISSIONS[action];
  const parts = [Prisma.sql`EXISTS (SELECT 1 FROM profiles h_p WHERE h_p.user_id = ${who.userId} AND h_p.super_user)`];
  if (grant.appRoles?.length) {
    const stored = Prisma.sql`(SELECT h_ur.role::text FROM user_roles h_ur WHERE h_ur.user_id = ${who.userId})`;
    parts.push(Prisma.sql`COALESCE(${stored}, ${DEFAULT_APP_ROLE}) IN (${Prisma.join([...grant.appRoles])})`);
  }
  if (grant.organizationRoles?.length) {
    parts.push(Prisma.sql`EXISTS (SELECT 1 FROM organization_members h_om
      WHERE h_om.organization_id = ${who.organizationId} AND h_om.user_id = ${who.userId} AND h_om.role::text IN (${Prisma.join([...grant.organizationRoles])}))`);
  }
  if (grant.teamRoles?.length) {
    const inTeam = who.teamId ? Prisma.sql`h_tm.team_id = ${who.teamId}` : Prisma.sql`h_tm.team_id IN (SELECT h_t.id FROM teams h_t WHERE h_t.organization_id = ${who.organizationId})`;
    parts.push(Prisma.sql`EXISTS (SELECT 1 FROM team_members h_tm WHERE ${inTeam} AND h_tm.user_id = ${who.userId} AND h_tm.role::text IN (${Prisma.join([...grant.teamRoles])}))`);
  }
  return Prisma.sql`(${Prisma.join(parts, " OR ")})`;
}

/** Joins to an `organizations` row aliased `o`: `my_om`, the caller's membership in it (or NULLs). */
const organizationJoins = (caller: Caller) =>
  caller.apiKey
    ? Prisma.sql`LEFT JOIN (SELECT organization_id, 'member'::text AS role FROM teams WHERE id = ${caller.apiKey.teamId}::uuid) my_om ON my_om.organization_id = o.id`
    : Prisma.sql`LEFT JOIN organization_members my_om ON my_om.organization_id = o.id AND my_om.user_id = ${caller.userId}::uuid`;

/**
 * Organizations the caller may see: `FROM organizations o ${joins} WHERE ${visible}`. A super user sees
 * every organization; anyone else those they belong to. `my_om.role` is their role there.
 */
export function organizationVisibility(caller: Caller) {
  return {
    joins: organizationJoins(caller),
    visible: canSql(caller, "organization.read", { organizationRole: Prisma.sql`my_om.role` }),
  };
}

/**
 * Teams the caller may see: `FROM teams t ${joins} WHERE ${visible}`. A super user sees every team; an
 * organization admin every team of that organization; anyone else the teams they are members of.
 * `my_tm.role` is their team role, `my_om.role` their role in the team's organization.
 */
export function teamVisibility(caller: Caller) {
  return {
    joins: caller.apiKey
      ? keyRoles(caller.apiKey, { team: Prisma.sql`t.id`, organization: Prisma.sql`t.organization_id` })
      : Prisma.sql`LEFT JOIN team_members my_tm ON my_tm.team_id = t.id AND my_tm.user_id = ${caller.userId}::uuid
      LEFT JOIN organization_members my_om ON my_om.organization_id = t.organization_id AND my_om.user_id = ${caller.userId}::uuid`,
    visible: canSql(caller, "team.read", { organizationRole: Prisma.sql`my_om.role`, teamRole: Prisma.sql`my_tm.role` }),
  };
}

/**
 * Prompts the caller may read: `FROM prompts p ${joins} WHERE ${visible}`, the SQL form of
 * canOnPrompt(..., "read") (packages/shared): a `team` prompt at team viewer level (organization
 * admins included), an `organization` prompt by any member of its organization, a `private` prompt
 * by its author while they may read the team. A super user reads every prompt. `my_tm.role` and
 * `my_om.role` are the caller's roles in the prompt's team and organization.
 */
export function promptVisibility(caller: Caller) {
  if (caller.apiKey) {
    // A key reads its own team's live prompts, never a private one (a private prompt is a person's)
    // nor an archived one: /trpc answers a key as /api/v1 does.
    const joins = keyRoles(caller.apiKey, { team: Prisma.sql`p.team_id`, organization: Prisma.sql`p.organization_id` });
    return { joins, visible: Prisma.sql`(p.team_id = ${caller.apiKey.teamId}::uuid AND p.visibility <> 'private' AND p.archived_at IS NULL)` };
  }
  const joins = Prisma.sql`LEFT JOIN team_members my_tm ON my_tm.team_id = p.team_id AND my_tm.user_id = ${caller.userId}::uuid
      LEFT JOIN organization_members my_om ON my_om.organization_id = p.organization_id AND my_om.user_id = ${caller.userId}::uuid`;
  if (caller.isSuperUser) return { joins, visible: Prisma.sql`TRUE` };
  const reader = { userId: Prisma.sql`${caller.userId}::uuid`, organizationRole: Prisma.sql`my_om.role`, teamRole: Prisma.sql`my_tm.role` };
  return { joins, visible: readsPrompt(caller, reader) };
}

/**
 * Whether the label row `labelAlias` serves the version row `versionAlias`: its own version, or the candidate
 * of its split, which its fetches serve too (the label among that version's labels). The one rule for a key
 * bound to the label and for the Langfuse list's `label` filter and `labels`.
 */
export function labelServesVersion(labelAlias: string, versionAlias: string): Prisma.Sql {
  const [l, v] = [Prisma.raw(labelAlias), Prisma.raw(versionAlias)];
  return Prisma.sql`(${l}.version = ${v}.version OR ${l}.candidate_version = ${v}.version)`;
}

/**
 * Which versions of a visible prompt a caller may list: a key bound to labels only those its labels
 * point to (as it fetches them), a split label's candidate included (that label's fetches are served
 * it), and the prompt's newest when bound to `latest`; any other caller every version (TRUE).
 * `promptAlias` and `versionAlias` name the query's prompts and prompt_versions rows.
 */
export function keyVersionsVisible(caller: Caller, promptAlias: string, versionAlias: string): Prisma.Sql {
  const bound = caller.apiKey?.labels;
  if (!bound) return Prisma.sql`TRUE`;
  const p = Prisma.raw(promptAlias);
  const v = Prisma.raw(versionAlias);
  const stored = bound.filter((label) => label !== LATEST_LABEL);
  const named = stored.length
    ? Prisma.sql`EXISTS (SELECT 1 FROM prompt_labels bl WHERE bl.prompt_id = ${p}.id AND ${labelServesVersion("bl", versionAlias)} AND bl.name IN (${Prisma.join(stored)}))`
    : Prisma.sql`FALSE`;
  return bound.includes(LATEST_LABEL) ? Prisma.sql`(${v}.version = ${p}.latest_version OR ${named})` : named;
}

/**
 * The read rule of a prompt `p` for a reader given as SQL expressions (their user id, their roles in
 * p's organization and team, NULL where none), with `caller`'s app role and super-user standing.
 */
function readsPrompt(caller: Caller, reader: { userId: Prisma.Sql; organizationRole: Prisma.Sql; teamRole: Prisma.Sql }) {
  const teamRead = canSql(caller, "prompt.read", { organizationRole: reader.organizationRole, teamRole: reader.teamRole });
  return Prisma.sql`(CASE p.visibility
      WHEN 'private' THEN p.author_id IS NOT DISTINCT FROM ${reader.userId} AND ${teamRead}
      WHEN 'team' THEN ${teamRead}
      ELSE ${teamRead} OR ${reader.organizationRole} IS NOT NULL END)`;
}

/**
 * Whether the caller may know of a prompt read without promptVisibility's filter (by its id, its
 * access checked after): a key knows only its own team's prompts, none archived, as promptVisibility
 * filters them; for a person, whether they may read it is canOnPrompt's to say.
 */
export function mayKnowPrompt(caller: Caller, prompt: { teamId: string; archived: boolean }): boolean {
  return !caller.apiKey || (prompt.teamId === caller.apiKey.teamId && !prompt.archived);
}

/**
 * Whether each member of a prompt's organization may read `p` (who a mention may name): the same rule
 * as promptVisibility, for the person of `om` (organization_members, joined to p's organization) and
 * `tm` (their team_members row in p's team, or NULLs) instead of the caller; app roles aside.
 */
export function memberReadsPrompt(member: { userId: Prisma.Sql; organizationRole: Prisma.Sql; teamRole: Prisma.Sql }) {
  return readsPrompt({ userId: NO_USER, role: "user", isSuperUser: false }, member);
}
