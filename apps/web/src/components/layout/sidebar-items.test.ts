import { describe, expect, it } from "vitest";
import { accessOf, type AppRole, type TeamRole } from "@promptly/shared";
import { showsOrgAdminNote, sidebarItems } from "./sidebar-items.ts";

const person = (role: AppRole, isSuperUser: boolean, isOrgAdmin: boolean) =>
  accessOf({ role, isSuperUser }, { organizationRole: isOrgAdmin ? "admin" : "member" });

describe("sidebar items", () => {
  it.each([
    ["administrator", false, false, ["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Analytics"]],
    ["team_lead", false, false, ["Dashboard", "All Prompts", "My Bookmarks", "Analytics"]],
    ["user", false, false, ["Dashboard", "Analytics"]],
    ["user", false, true, ["Dashboard", "Teams", "Analytics", "Audit Log", "Model Providers"]],
    ["team_lead", false, true, ["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Analytics", "Audit Log", "Model Providers"]],
    ["super-user", true, false, ["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Organizations", "Analytics", "Audit Log", "Model Providers"]],
    // A super user whose stored role is plain user still sees everything.
    ["user", true, false, ["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Organizations", "Analytics", "Audit Log", "Model Providers"]],
  ] as const)("%s (super user %s, org admin %s)", (role, isSuperUser, isOrgAdmin, expected) => {
    expect(sidebarItems(person(role, isSuperUser, isOrgAdmin)).map((item) => item.label)).toEqual(expected);
  });

  it.each([
    ["admin", ["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Analytics"]],
    ["editor", ["Dashboard", "All Prompts", "My Bookmarks", "Analytics"]],
    ["viewer", ["Dashboard", "All Prompts", "My Bookmarks", "Analytics"]],
  ] as const)("a user who is a team %s in the active organization", (teamRole: TeamRole, expected) => {
    const access = accessOf({ role: "user", isSuperUser: false }, { organizationRole: "member", teamRole });
    expect(sidebarItems(access).map((item) => item.label)).toEqual(expected);
    // A team admin sees Teams as a team admin, not as an organization admin.
    expect(showsOrgAdminNote(access)).toBe(false);
  });

  it("keeps what an organization or team role could grant while the organization or team list failed to load", () => {
    const labels = (role: AppRole, organizationUnknown: boolean) =>
      sidebarItems(accessOf({ role, isSuperUser: false }, { organizationRole: null }), { organizationUnknown }).map((item) => item.label);
    expect(labels("user", false)).toEqual(["Dashboard", "Analytics"]);
    expect(labels("user", true)).toEqual(["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Analytics", "Audit Log", "Model Providers"]);
    // Never an item no organization or team role grants.
    expect(labels("team_lead", true)).toEqual(["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Analytics", "Audit Log", "Model Providers"]);
  });

  it("shows nothing without a viewer", () => {
    expect(sidebarItems(null)).toEqual([]);
  });

  it.each([
    ["user", false, true, true],
    ["team_lead", false, true, true],
    ["administrator", false, true, false],
    ["super-user", true, true, false],
    ["user", false, false, false],
  ] as const)("'(Org Admin)' note for %s (super user %s, org admin %s): %s", (role, isSuperUser, isOrgAdmin, expected) => {
    expect(showsOrgAdminNote(person(role, isSuperUser, isOrgAdmin))).toBe(expected);
  });
});
