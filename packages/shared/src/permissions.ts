// Permission rules of spec section 6. The server enforces them; the web app only mirrors them.
import type { AppRole, TeamRole } from "./constants.ts";

/** Who is asking, as far as app-wide rules care. */
export interface Viewer {
  role: AppRole;
  isSuperUser: boolean;
}

/** Access check of spec 6: the role must be in the allowed list; a super user always passes. */
export function hasAppRole(viewer: Viewer | null | undefined, allowed: readonly AppRole[]): boolean {
  if (!viewer) return false;
  return viewer.isSuperUser || allowed.includes(viewer.role);
}

/** Organization admin status for one organization: a super user always has it. */
export function isOrganizationAdmin(viewer: Viewer | null | undefined, organizationRole: string | null | undefined) {
  if (!viewer) return false;
  return viewer.isSuperUser || organizationRole === "admin";
}

/** Create teams: administrator, organization admin, super user. */
export function canCreateTeams(viewer: Viewer | null | undefined, isOrgAdmin: boolean): boolean {
  return hasAppRole(viewer, ["administrator"]) || (!!viewer && isOrgAdmin);
}

/** Manage teams: those who can create teams, plus team leads. */
export function canManageTeams(viewer: Viewer | null | undefined, isOrgAdmin: boolean): boolean {
  return canCreateTeams(viewer, isOrgAdmin) || hasAppRole(viewer, ["team_lead"]);
}

/** The Teams page: administrator, organization admin, super user. */
export const canAccessTeamsPage = canCreateTeams;

/** Organizations pages, create or manage organizations: super user only. */
export function canManageOrganizations(viewer: Viewer | null | undefined): boolean {
  return !!viewer?.isSuperUser;
}

/** What a person may do in one team. `teamRole` is null for a non-member. */
export interface TeamAccess {
  teamRole: TeamRole | null;
  isOrgAdmin: boolean;
  isSuperUser: boolean;
}

const elevated = (a: TeamAccess) => a.isSuperUser || a.isOrgAdmin;

export const TEAM_LEVELS = ["viewer", "editor", "admin"] as const;
export type TeamLevel = (typeof TEAM_LEVELS)[number];

/** Team admin level: team admin, organization admin or super user. */
export const isTeamAdminLevel = (a: TeamAccess) => elevated(a) || a.teamRole === "admin";
/** Team editor level: editor, admin, or organization admin / super user. */
export const isTeamEditorLevel = (a: TeamAccess) => isTeamAdminLevel(a) || a.teamRole === "editor";
/** Team viewer level: any team role, or organization admin / super user. */
export const isTeamViewerLevel = (a: TeamAccess) => isTeamEditorLevel(a) || a.teamRole === "viewer";
/** Create prompts: team admin or editor, or organization admin / super user. */
export const canCreatePrompts = isTeamEditorLevel;

export function hasTeamLevel(access: TeamAccess, level: TeamLevel): boolean {
  if (level === "admin") return isTeamAdminLevel(access);
  if (level === "editor") return isTeamEditorLevel(access);
  return isTeamViewerLevel(access);
}

/** The badge of spec 6 that describes a person in the active team (the user menu's role badge). */
export function accessBadge(access: TeamAccess): string | null {
  if (access.isSuperUser) return "Super User";
  if (access.isOrgAdmin) return "Organization Admin";
  if (access.teamRole === "admin") return "Team Admin";
  if (access.teamRole === "editor") return "Team Editor";
  if (access.teamRole === "viewer") return "Team Viewer";
  return null;
}

/** Main-area routes and who may open them (spec 2, route table and sidebar). */
export const ROUTE_ROLES = {
  "/": ["administrator", "team_lead", "user", "super-user"],
  "/prompts": ["administrator", "team_lead", "super-user"],
  "/bookmarks": ["administrator", "team_lead", "super-user"],
  "/analytics": ["administrator", "team_lead", "user", "super-user"],
} as const satisfies Record<string, readonly AppRole[]>;

/** Role resolution of spec 4: an unknown or missing stored role counts as `user`. */
export function resolveAppRole(isSuperUser: boolean, storedRole: string | null | undefined): AppRole {
  if (isSuperUser) return "super-user";
  if (storedRole === "administrator" || storedRole === "team_lead" || storedRole === "user") return storedRole;
  return "user";
}
