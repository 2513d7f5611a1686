// The sidebar table of spec 2: which items a person sees. A super user sees every item.
import { can, grantedByOrganization, hasAppRole, ROUTE_ROLES, type Access } from "@promptly/shared";

export type SidebarPath = "/" | "/prompts" | "/bookmarks" | "/teams" | "/organizations" | "/analytics" | "/audit";

export interface SidebarItem {
  label: string;
  to: SidebarPath;
}

const ITEMS: readonly (SidebarItem & { visible(access: Access): boolean })[] = [
  { label: "Dashboard", to: "/", visible: (access) => hasAppRole(access, ROUTE_ROLES["/"]) },
  { label: "All Prompts", to: "/prompts", visible: (access) => hasAppRole(access, ROUTE_ROLES["/prompts"]) },
  { label: "My Bookmarks", to: "/bookmarks", visible: (access) => hasAppRole(access, ROUTE_ROLES["/bookmarks"]) },
  { label: "Teams", to: "/teams", visible: (access) => can(access, "teams.page") },
  { label: "Organizations", to: "/organizations", visible: (access) => can(access, "organizations.page") },
  { label: "Analytics", to: "/analytics", visible: (access) => hasAppRole(access, ROUTE_ROLES["/analytics"]) },
  // The active organization's audit log (issue 17): its admins and super users.
  { label: "Audit Log", to: "/audit", visible: (access) => can(access, "audit.read") },
];

/**
 * `access`: the signed-in person in the active organization (null when signed out). With
 * `organizationUnknown` (the organization list failed to load) an item an organization role could grant
 * stays: its page says what failed, where hiding it would claim a permission problem.
 */
export function sidebarItems(access: Access | null, { organizationUnknown = false } = {}): SidebarItem[] {
  if (!access) return [];
  const asOrganizationAdmin: Access = { ...access, organizationRole: "admin" };
  return ITEMS.filter((item) => item.visible(access) || (organizationUnknown && item.visible(asOrganizationAdmin))).map(({ label, to }) => ({ label, to }));
}

/** The footer's '(Org Admin)' note: someone who sees the Teams page only as organization admin. */
export function showsOrgAdminNote(access: Access | null): boolean {
  return grantedByOrganization(access, "teams.page");
}
