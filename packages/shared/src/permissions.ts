// Permission rules of spec section 6. The server enforces them; the web app only mirrors them.
import { TEAM_ROLES, type AppRole, type OrganizationRole, type TeamRole } from "./constants.ts";
import { MSG } from "./messages.ts";
import type { PromptVisibility } from "./options.ts";

/** Who is asking, as far as app-wide rules care. */
export interface Caller {
  role: AppRole;
  isSuperUser: boolean;
}

/**
 * Who is asking, where: the app role, and the caller's roles in the organization and the team an
 * action concerns (null: not a member, or no such place for this action). The one input of `can`.
 */
export interface Access extends Caller {
  organizationRole: OrganizationRole | null;
  teamRole: TeamRole | null;
}

/** The Access of `caller` in one place. */
export function accessOf(
  caller: Caller,
  where: { organizationRole?: OrganizationRole | null; teamRole?: TeamRole | null } = {},
): Access {
  return { role: caller.role, isSuperUser: caller.isSuperUser, organizationRole: where.organizationRole ?? null, teamRole: where.teamRole ?? null };
}

/** Who may: app roles anywhere they see, or roles in the organization or team concerned. */
interface Grant {
  appRoles?: readonly AppRole[];
  organizationRoles?: readonly OrganizationRole[];
  teamRoles?: readonly TeamRole[];
  /**
   * An API key scope that stands in for the roles on any prompt the key may read (a key is a viewer of
   * its team, or an editor with `write`): the `run` scope runs its team's prompts, the `delete` scope
   * deletes them, whatever its role.
   */
  keyScope?: "run" | "delete" | "ingest";
}

// Team levels: an organization admin (and a super user, who may do everything) is at every level.
const ADMIN_LEVEL = { organizationRoles: ["admin"], teamRoles: ["admin"] } as const satisfies Grant;
const EDITOR_LEVEL = { organizationRoles: ["admin"], teamRoles: ["admin", "editor"] } as const satisfies Grant;
const VIEWER_LEVEL = { organizationRoles: ["admin"], teamRoles: ["admin", "editor", "viewer"] } as const satisfies Grant;
const SUPER_USER_ONLY = {} as const satisfies Grant;

/**
 * The permission table: each action, and who may do it. A super user may do everything.
 * The server's procedure builders name an action and ask `can`; the web app asks the same table for
 * what it shows, so a button and the server's answer cannot drift apart. Roles are compared here only.
 *
 * "Manage teams" (administrator, organization admin, super user, team lead) is settled so:
 * as the spec words it, it is app-wide and decides only who sees the team selector's 'Manage Teams'
 * entry (`teams.menu`). What may be changed in a given team is `team.manage` / `team.members.manage`,
 * decided per team by team level: a team lead manages the teams they are admin of, like anyone else.
 * Row-level rules (a private prompt's author, archive by the author, visibility of organization
 * prompts) are the services' and the visibility rule's; the table gives the role part.
 */
export const PERMISSIONS = {
  // Organizations (organizations pages, create or manage organizations: super user only).
  "organization.read": { organizationRoles: ["admin", "member"] },
  "organization.create": SUPER_USER_ONLY,
  "organization.manage": SUPER_USER_ONLY,
  "organization.members.manage": { organizationRoles: ["admin"] },
  // The organization's settings (how long production generations are kept).
  "organization.settings.manage": { organizationRoles: ["admin"] },
  // A person's app role (the organization members page): super users only.
  "user.appRole.manage": SUPER_USER_ONLY,
  // Model provider connections and their prices (their keys are the organization's to keep).
  "organization.providers.manage": { organizationRoles: ["admin"] },
  // Teams.
  "team.create": { appRoles: ["administrator"], organizationRoles: ["admin"] },
  "teams.menu": { appRoles: ["administrator", "team_lead"], organizationRoles: ["admin"], teamRoles: ["admin"] },
  "team.read": VIEWER_LEVEL,
  "team.manage": ADMIN_LEVEL,
  "team.members.manage": ADMIN_LEVEL,
  // Prompts (the prompt library issue). "Can create prompts" is prompt.write.
  "prompt.read": VIEWER_LEVEL,
  "prompt.write": EDITOR_LEVEL,
  "prompt.label.protected": ADMIN_LEVEL,
  "prompt.rename": ADMIN_LEVEL,
  "prompt.archive": ADMIN_LEVEL,
  // A key with the `delete` scope deletes its team's prompts and versions (the Langfuse API's DELETE).
  "prompt.delete": { ...ADMIN_LEVEL, keyScope: "delete" },
  "prompt.rate": VIEWER_LEVEL,
  // Running a version on a model of the organization's provider connections (it costs money).
  "prompt.run": { ...EDITOR_LEVEL, keyScope: "run" },
  // Sending production generations and scores into the key's team: keys with the `ingest` scope only.
  "production.ingest": { teamRoles: [], keyScope: "ingest" },
  "comment.moderate": ADMIN_LEVEL,
  "apiKey.manage": ADMIN_LEVEL,
  // A team's webhooks: where its events are sent, and the secret they are signed with.
  "webhook.manage": ADMIN_LEVEL,
  "analytics.read": VIEWER_LEVEL,
  // A production generation's input and output (the words of the team's own users): its team's members and
  // organization admins, not every reader of an organization prompt (they see the generation without it).
  "production.text.read": VIEWER_LEVEL,
  // The organization's audit log: its admins and super users.
  "audit.read": { organizationRoles: ["admin"] },
  // Pages of the main area (route table and sidebar): who may open each, and sees it in the sidebar.
  // A page's team role is the strongest one held in the active organization's teams (pageAccessOf):
  // any team role opens the library (which shows what the visibility rule lets one read), a team
  // admin the Teams page (whose controls stay per team, at team admin level).
  "page.dashboard": { appRoles: ["administrator", "team_lead", "user"] },
  "page.prompts": { appRoles: ["administrator", "team_lead"], teamRoles: ["admin", "editor", "viewer"] },
  "page.bookmarks": { appRoles: ["administrator", "team_lead"], teamRoles: ["admin", "editor", "viewer"] },
  "page.teams": { appRoles: ["administrator"], organizationRoles: ["admin"], teamRoles: ["admin"] },
  "page.organizations": SUPER_USER_ONLY,
  "page.analytics": { appRoles: ["administrator", "team_lead", "user"] },
  "page.audit": { organizationRoles: ["admin"] },
  // Model providers: the same people as organization.providers.manage, which every procedure of the page asks.
  "page.providers": { organizationRoles: ["admin"] },
} as const satisfies Record<string, Grant>;

export type Action = keyof typeof PERMISSIONS;
export const ACTIONS = Object.keys(PERMISSIONS) as Action[];
/** A page of the main area, as the table names it. */
export type PageAction = Extract<Action, `page.${string}`>;

/** Whether `access` may do `action`: the one question every check asks. */
export function can(access: Access | null | undefined, action: Action): boolean {
  if (!access) return false;
  if (access.isSuperUser) return true;
  const grant: Grant = PERMISSIONS[action];
  return (
    (grant.appRoles?.includes(access.role) ?? false) ||
    (access.organizationRole !== null && (grant.organizationRoles?.includes(access.organizationRole) ?? false)) ||
    (access.teamRole !== null && (grant.teamRoles?.includes(access.teamRole) ?? false))
  );
}

/**
 * Whether `access` may do `action` only thanks to its organization role (the footer's '(Org Admin)'
 * note, the Create New Team dialog's organization-admin hint): without it, neither the app role nor
 * the team role would do.
 */
export function grantedByOrganization(access: Access | null | undefined, action: Action): boolean {
  return !!access && can(access, action) && !can({ ...access, organizationRole: null }, action);
}

/** The strongest of the team roles someone holds (admin, then editor, then viewer), or null for none. */
export function strongestTeamRole(roles: Iterable<TeamRole | null | undefined>): TeamRole | null {
  let strongest: TeamRole | null = null;
  for (const role of roles) if (role && (strongest === null || TEAM_ROLES.indexOf(role) < TEAM_ROLES.indexOf(strongest))) strongest = role;
  return strongest;
}

/**
 * The Access a page of the main area asks (`page.*`, `teams.menu`): the caller's role in the active
 * organization and the strongest role they hold in its teams.
 */
export function pageAccessOf(
  caller: Caller | null | undefined,
  organization: { myRole: OrganizationRole | null } | null | undefined,
  teams: Iterable<{ myRole: TeamRole | null }>,
): Access | null {
  if (!caller) return null;
  return accessOf(caller, { organizationRole: organization?.myRole ?? null, teamRole: organization ? strongestTeamRole([...teams].map((team) => team.myRole)) : null });
}

/** The refusal a signed-in caller reads when `can` says no (FORBIDDEN); default MSG.permissionDenied. */
export const DENIED_MESSAGES: Partial<Record<Action, string>> = {
  "organization.create": MSG.onlySuperUsersCreateOrganizations,
  "team.create": MSG.mustBeAdminToCreateTeams,
  "user.appRole.manage": MSG.onlySuperUsersChangeAppRoles,
};

/**
 * What the page a person may not open says after 'Access Denied' and the spec's sentence: who may open
 * it, and whom to ask.
 */
export const PAGE_REQUIREMENTS: Record<PageAction, string> = {
  "page.dashboard": "The dashboard opens for everyone with an app role. Ask a super user to give you one.",
  "page.analytics": "Analytics opens for everyone with an app role. Ask a super user to give you one.",
  "page.prompts":
    "All Prompts opens for administrators, team leads and anyone with a role in one of this organization's teams. Ask an admin of a team to invite you, or a super user to change your app role.",
  "page.bookmarks":
    "My Bookmarks opens for administrators, team leads and anyone with a role in one of this organization's teams. Ask an admin of a team to invite you, or a super user to change your app role.",
  "page.teams":
    "Team management opens for administrators, organization admins and team admins. Ask an organization admin to make you a team's admin, or a super user to change your app role.",
  "page.organizations": "Organizations are managed by super users only. Ask a super user for the change you need.",
  "page.audit": "The audit log opens for the organization's admins and super users. Ask an admin of this organization.",
  "page.providers": "Model providers opens for the organization's admins and super users. Ask an admin of this organization.",
};

/** What an anonymous caller reads (UNAUTHORIZED) where the spec has its own words; default MSG.userNotAuthenticated. */
export const SIGN_IN_MESSAGES: Partial<Record<Action, string>> = {
  "team.create": MSG.mustBeLoggedInToCreateTeam,
  "organization.create": MSG.userNotAuthenticated,
};

/** What the prompt rules need to know of one prompt. */
export interface PromptFacts {
  visibility: PromptVisibility;
  authorId: string | null;
}

/** The caller in a prompt's team: their Access there, and who they are (for the author's rules). */
export interface PromptAccess extends Access {
  userId: string;
}

export const PROMPT_ABILITIES = ["read", "write", "label.protected", "rename", "archive", "delete", "rate", "run"] as const;
export type PromptAbility = (typeof PROMPT_ABILITIES)[number];

/**
 * The prompt library's row rules over the table's role rules. Read: a `team` prompt at team
 * viewer level, an `organization` prompt by any member of the organization, a `private` prompt by its
 * author only. A private prompt is its author's alone: they act on it at their team's editor level,
 * admin actions included, and nobody else but a super user sees it. Archive: team admin level or the
 * author. Rate: any reader but the author. A super user may do everything but rate their own prompt.
 */
export function canOnPrompt(access: PromptAccess, prompt: PromptFacts, ability: PromptAbility): boolean {
  const isAuthor = prompt.authorId !== null && prompt.authorId === access.userId;
  const readable =
    access.isSuperUser ||
    (prompt.visibility === "private"
      ? isAuthor && can(access, "prompt.read")
      : can(access, "prompt.read") || (prompt.visibility === "organization" && access.organizationRole !== null));
  if (!readable) return false;
  if (ability === "read") return true;
  if (ability === "rate") return !isAuthor;
  if (access.isSuperUser) return true;
  // A private prompt is its author's alone, but `production` is what keys serve once it is shared:
  // moving it takes the same right there as anywhere.
  if (prompt.visibility === "private") return isAuthor && can(access, ability === "label.protected" ? "prompt.label.protected" : ability === "run" ? "prompt.run" : "prompt.write");
  switch (ability) {
    case "write":
      return can(access, "prompt.write");
    case "label.protected":
      return can(access, "prompt.label.protected");
    case "rename":
      return can(access, "prompt.rename");
    case "archive":
      return isAuthor || can(access, "prompt.archive");
    case "delete":
      return can(access, "prompt.delete");
    case "run":
      return can(access, "prompt.run");
  }
}

/** Every ability at once (what a prompt page may offer). */
export function promptAbilities(access: PromptAccess, prompt: PromptFacts): Record<PromptAbility, boolean> {
  return Object.fromEntries(PROMPT_ABILITIES.map((ability) => [ability, canOnPrompt(access, prompt, ability)])) as Record<PromptAbility, boolean>;
}

/** The badge that describes a person in the active team (the user menu's role badge). */
export function accessBadge(access: Access): string | null {
  if (access.isSuperUser) return "Super User";
  if (access.organizationRole === "admin") return "Organization Admin";
  if (access.teamRole === "admin") return "Team Admin";
  if (access.teamRole === "editor") return "Team Editor";
  if (access.teamRole === "viewer") return "Team Viewer";
  return null;
}

/** Role resolution: an unknown or missing stored role counts as `user`. */
export function resolveAppRole(isSuperUser: boolean, storedRole: string | null | undefined): AppRole {
  if (isSuperUser) return "super-user";
  if (storedRole === "administrator" || storedRole === "team_lead" || storedRole === "user") return storedRole;
  return "user";
}
