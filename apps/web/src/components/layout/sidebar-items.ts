// The sidebar table of spec 2: which items a person sees. A super user sees every item.
import { canAccessTeamsPage, canManageOrganizations, hasAppRole, ROUTE_ROLES, type Viewer } from "@promptly/shared";

export type SidebarPath = "/" | "/prompts" | "/bookmarks" | "/teams" | "/organizations" | "/analytics";

export interface SidebarItem {
  label: string;
  to: SidebarPath;
}

const ITEMS: readonly (SidebarItem & { visible(viewer: Viewer, isOrgAdmin: boolean): boolean })[] = [
  { label: "Dashboard", to: "/", visible: (viewer) => hasAppRole(viewer, ROUTE_ROLES["/"]) },
  { label: "All Prompts", to: "/prompts", visible: (viewer) => hasAppRole(viewer, ROUTE_ROLES["/prompts"]) },
  { label: "My Bookmarks", to: "/bookmarks", visible: (viewer) => hasAppRole(viewer, ROUTE_ROLES["/bookmarks"]) },
  { label: "Teams", to: "/teams", visible: (viewer, isOrgAdmin) => canAccessTeamsPage(viewer, isOrgAdmin) },
  { label: "Organizations", to: "/organizations", visible: (viewer) => canManageOrganizations(viewer) },
  { label: "Analytics", to: "/analytics", visible: (viewer) => hasAppRole(viewer, ROUTE_ROLES["/analytics"]) },
];

export function sidebarItems(viewer: Viewer | null, isOrgAdmin: boolean): SidebarItem[] {
  if (!viewer) return [];
  return ITEMS.filter((item) => viewer.isSuperUser || item.visible(viewer, isOrgAdmin)).map(({ label, to }) => ({ label, to }));
}

/** The footer's '(Org Admin)' note: an organization admin who is not an administrator or super user. */
export function showsOrgAdminNote(viewer: Viewer | null, isOrgAdmin: boolean): boolean {
  return !!viewer && isOrgAdmin && !viewer.isSuperUser && viewer.role !== "administrator";
}
