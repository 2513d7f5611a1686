import { describe, expect, it } from "vitest";
import { accessOf, type AppRole } from "@promptly/shared";
import { showsOrgAdminNote, sidebarItems } from "./sidebar-items.ts";

const person = (role: AppRole, isSuperUser: boolean, isOrgAdmin: boolean) =>
  accessOf({ role, isSuperUser }, { organizationRole: isOrgAdmin ? "admin" : "member" });

describe("sidebar items", () => {
  it.each([
    ["administrator", false, false, ["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Analytics"]],
    ["team_lead", false, false, ["Dashboard", "All Prompts", "My Bookmarks", "Analytics"]],
    ["user", false, false, ["Dashboard", "Analytics"]],
    ["user", false, true, ["Dashboard", "Teams", "Analytics", "Audit Log"]],
    ["team_lead", false, true, ["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Analytics", "Audit Log"]],
    ["super-user", true, false, ["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Organizations", "Analytics", "Audit Log"]],
    // A super user whose stored role is plain user still sees everything.
    ["user", true, false, ["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Organizations", "Analytics", "Audit Log"]],
  ] as const)("%s (super user %s, org admin %s)", (role, isSuperUser, isOrgAdmin, expected) => {
    expect(sidebarItems(person(role, isSuperUser, isOrgAdmin)).map((item) => item.label)).toEqual(expected);
  });

  it("keeps what an organization role could grant while the organization list failed to load", () => {
    const labels = (role: AppRole, organizationUnknown: boolean) =>
      sidebarItems(accessOf({ role, isSuperUser: false }, { organizationRole: null }), { organizationUnknown }).map((item) => item.label);
    expect(labels("user", false)).toEqual(["Dashboard", "Analytics"]);
    expect(labels("user", true)).toEqual(["Dashboard", "Teams", "Analytics", "Audit Log"]);
    // Never an item no organization role grants.
    expect(labels("team_lead", true)).toEqual(["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Analytics", "Audit Log"]);
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
