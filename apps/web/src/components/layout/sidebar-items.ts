// The sidebar table: which items a person sees. A super user sees every item.
import { can, grantedByOrganization, type Access, type PageAction } from "@promptly/shared";

export type SidebarPath = "/" | "/prompts" | "/bookmarks" | "/teams" | "/organizations" | "/analytics" | "/audit" | "/providers";

export interface SidebarItem {
  label: string;
  to: SidebarPath;
}

/** In sidebar order, each with the page's action in the permission table. */
const ITEMS: readonly (SidebarItem & { page: PageAction })[] = [
  { label: "Dashboard", to: "/", page: "page.dashboard" },
  { label: "All Prompts", to: "/prompts", page: "page.prompts" },
  { label: "My Bookmarks", to: "/bookmarks", page: "page.bookmarks" },
  { label: "Teams", to: "/teams", page: "page.teams" },
  { label: "Organizations", to: "/organizations", page: "page.organizations" },
  { label: "Analytics", to: "/analytics", page: "page.analytics" },
  { label: "Audit Log", to: "/audit", page: "page.audit" },
  { label: "Model Providers", to: "/providers", page: "page.providers" },
];

/**
 * `access`: the signed-in person in the active organization and its teams, as pages ask it (null when
 * signed out). With `organizationUnknown` (the organization or team list failed to load) an item an
 * organization or team role could grant stays: its page says what failed, where hiding it would claim
 * a permission problem.
 */
export function sidebarItems(access: Access | null, { organizationUnknown = false } = {}): SidebarItem[] {
  if (!access) return [];
  const asAdmin: Access = { ...access, organizationRole: "admin", teamRole: "admin" };
  return ITEMS.filter((item) => can(access, item.page) || (organizationUnknown && can(asAdmin, item.page))).map(({ label, to }) => ({ label, to }));
}

/** The footer's '(Org Admin)' note: someone who sees the Teams page only as organization admin. */
export function showsOrgAdminNote(access: Access | null): boolean {
  return grantedByOrganization(access, "page.teams");
}
