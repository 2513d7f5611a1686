import { describe, expect, it } from "vitest";
import type { AppRole, OrganizationRole, TeamRole } from "./constants.ts";
import { ACTIONS, accessBadge, accessOf, can, grantedByOrganization, pageAccessOf, strongestTeamRole, type Access, type Action } from "./permissions.ts";

const person = (role: AppRole, organizationRole: OrganizationRole | null = null, teamRole: TeamRole | null = null, isSuperUser = false): Access =>
  accessOf({ role, isSuperUser }, { organizationRole, teamRole });

// Team levels. One row per kind of person in a team: [who, access, admin, editor, viewer level].
const TEAM_TABLE: [string, Access, boolean, boolean, boolean][] = [
  ["team admin", person("user", "member", "admin"), true, true, true],
  ["team editor", person("user", "member", "editor"), false, true, true],
  ["team viewer", person("user", "member", "viewer"), false, false, true],
  ["organization member, not in the team", person("user", "member"), false, false, false],
  ["not in the organization", person("user"), false, false, false],
  ["administrator, not in the team", person("administrator", "member"), false, false, false],
  ["team lead, not in the team", person("team_lead", "member"), false, false, false],
  ["organization admin, not in the team", person("user", "admin"), true, true, true],
  ["organization admin who is a team viewer", person("user", "admin", "viewer"), true, true, true],
  ["super user, not in the team", person("super-user", null, null, true), true, true, true],
  ["super user who is a team viewer", person("super-user", null, "viewer", true), true, true, true],
];

describe("team levels in the permission table", () => {
  it.each(TEAM_TABLE)("%s", (_who, access, admin, editor, viewer) => {
    const expected: Partial<Record<Action, boolean>> = {
      "team.manage": admin,
      "team.members.manage": admin,
      "prompt.label.protected": admin,
      "prompt.archive": admin,
      "prompt.delete": admin,
      "comment.moderate": admin,
      "apiKey.manage": admin,
      "webhook.manage": admin,
      // "Can create prompts": team admin or editor, or organization admin / super user.
      "prompt.write": editor,
      "team.read": viewer,
      "prompt.read": viewer,
      "prompt.rate": viewer,
      "analytics.read": viewer,
      "production.text.read": viewer,
    };
    for (const [action, allowed] of Object.entries(expected)) expect([action, can(access, action as Action)]).toEqual([action, allowed]);
  });
});

// App-wide rows, in the active organization: [who, access, create teams, teams page, 'Manage Teams' entry, organizations].
const APP_TABLE: [string, Access, boolean, boolean, boolean, boolean][] = [
  ["administrator", person("administrator", "member"), true, true, true, false],
  ["team lead", person("team_lead", "member"), false, false, true, false],
  ["user", person("user", "member"), false, false, false, false],
  ["user who is organization admin", person("user", "admin"), true, true, true, false],
  ["team lead who is organization admin", person("team_lead", "admin"), true, true, true, false],
  ["user who is a team admin", person("user", "member", "admin"), false, true, true, false],
  ["user who is a team editor", person("user", "member", "editor"), false, false, false, false],
  ["super user", person("super-user", null, null, true), true, true, true, true],
];

describe("app-wide actions", () => {
  it.each(APP_TABLE)("%s", (_who, access, createTeams, teamsPage, teamsMenu, organizations) => {
    expect(can(access, "team.create")).toBe(createTeams);
    expect(can(access, "page.teams")).toBe(teamsPage);
    expect(can(access, "teams.menu")).toBe(teamsMenu);
    expect(can(access, "audit.read")).toBe(access.isSuperUser || access.organizationRole === "admin");
    for (const action of ["organization.create", "organization.manage", "page.organizations"] as const) expect(can(access, action)).toBe(organizations);
  });

  it("organization members: read by every member, managed by its admins", () => {
    expect(can(person("user", "member"), "organization.read")).toBe(true);
    expect(can(person("user"), "organization.read")).toBe(false);
    expect(can(person("user", "member"), "organization.members.manage")).toBe(false);
    expect(can(person("user", "admin"), "organization.members.manage")).toBe(true);
  });

  it("nobody signed in may do nothing; a super user everything", () => {
    for (const action of ACTIONS) {
      expect(can(null, action)).toBe(false);
      expect(can(person("super-user", null, null, true), action)).toBe(true);
    }
  });
});

// Pages route table and sidebar: [who, access, then whether each page of PAGES opens].
const PAGES = ["page.dashboard", "page.prompts", "page.bookmarks", "page.teams", "page.organizations", "page.analytics", "page.audit", "page.providers"] as const;
const PAGE_TABLE: [string, Access, string][] = [
  // Dashboard, All Prompts, My Bookmarks, Teams, Organizations, Analytics, Audit Log, Model providers.
  ["administrator", person("administrator", "member"), "D P B T - A - -"],
  ["team lead", person("team_lead", "member"), "D P B - - A - -"],
  ["user", person("user", "member"), "D - - - - A - -"],
  ["user in no organization", person("user"), "D - - - - A - -"],
  ["user who is organization admin", person("user", "admin"), "D - - T - A L M"],
  ["team lead who is organization admin", person("team_lead", "admin"), "D P B T - A L M"],
  // Team roles (the strongest held in the active organization's teams): any opens the library, admin the Teams page.
  ["user who is a team admin", person("user", "member", "admin"), "D P B T - A - -"],
  ["user who is a team editor", person("user", "member", "editor"), "D P B - - A - -"],
  ["user who is a team viewer", person("user", "member", "viewer"), "D P B - - A - -"],
  ["team lead who is a team admin", person("team_lead", "member", "admin"), "D P B T - A - -"],
  ["super user", person("super-user", null, null, true), "D P B T O A L M"],
  ["super user whose stored role is user", person("user", null, null, true), "D P B T O A L M"],
];

describe("pages in the permission table", () => {
  it.each(PAGE_TABLE)("%s", (_who, access, cells) => {
    const expected = cells.split(" ").map((cell) => cell !== "-");
    expect(PAGES.map((page) => [page, can(access, page)])).toEqual(PAGES.map((page, index) => [page, expected[index]]));
  });

  it("every page of the table is in this test", () => {
    expect(ACTIONS.filter((action) => action.startsWith("page."))).toEqual([...PAGES]);
  });
});

describe("a page's access in the active organization", () => {
  const user = { role: "user", isSuperUser: false } as const;
  const organization = { myRole: "member" } as const;

  it("takes the strongest role held in the organization's teams", () => {
    expect(strongestTeamRole(["viewer", null, "admin", "editor"])).toBe("admin");
    expect(strongestTeamRole(["viewer", "editor"])).toBe("editor");
    expect(strongestTeamRole([null])).toBeNull();
    expect(pageAccessOf(user, organization, [{ myRole: "viewer" }, { myRole: "admin" }])).toEqual(person("user", "member", "admin"));
    expect(pageAccessOf(user, organization, [{ myRole: null }])).toEqual(person("user", "member"));
  });

  it("gives no team role without an active organization, and nothing to nobody", () => {
    expect(pageAccessOf(user, null, [{ myRole: "admin" }])).toEqual(person("user"));
    expect(pageAccessOf(null, organization, [{ myRole: "admin" }])).toBeNull();
  });

  it("counts the organization role alone only where the team role would not do", () => {
    expect(grantedByOrganization(person("user", "admin"), "page.teams")).toBe(true);
    expect(grantedByOrganization(person("user", "admin", "admin"), "page.teams")).toBe(false);
    expect(grantedByOrganization(person("administrator", "admin"), "page.teams")).toBe(false);
  });
});

describe("badges", () => {
  it.each([
    [person("super-user", "admin", "admin", true), "Super User"],
    [person("user", "admin", "viewer"), "Organization Admin"],
    [person("user", "member", "admin"), "Team Admin"],
    [person("user", "member", "editor"), "Team Editor"],
    [person("user", "member", "viewer"), "Team Viewer"],
    [person("user", "member"), null],
  ])("%j: %s", (access, badge) => {
    expect(accessBadge(access)).toBe(badge);
  });
});
