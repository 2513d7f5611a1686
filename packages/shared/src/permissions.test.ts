import { describe, expect, it } from "vitest";
import type { AppRole, TeamRole } from "./constants.ts";
import {
  canCreatePrompts, canCreateTeams, canManageTeams, hasTeamLevel, isTeamAdminLevel, isTeamEditorLevel, isTeamViewerLevel,
  type TeamAccess, type TeamLevel, type Viewer,
} from "./permissions.ts";

// Spec 6, team roles and their levels. One row per kind of person in a team:
// [who, access, admin-level, editor-level, viewer-level, can create prompts]
const access = (teamRole: TeamRole | null, isOrgAdmin = false, isSuperUser = false): TeamAccess => ({ teamRole, isOrgAdmin, isSuperUser });
const TEAM_TABLE: [string, TeamAccess, boolean, boolean, boolean, boolean][] = [
  ["team admin", access("admin"), true, true, true, true],
  ["team editor", access("editor"), false, true, true, true],
  ["team viewer", access("viewer"), false, false, true, false],
  ["not in the team", access(null), false, false, false, false],
  ["organization admin, not in the team", access(null, true), true, true, true, true],
  ["organization admin who is a team viewer", access("viewer", true), true, true, true, true],
  ["super user, not in the team", access(null, false, true), true, true, true, true],
  ["super user who is a team viewer", access("viewer", false, true), true, true, true, true],
];

describe("team levels (spec 6)", () => {
  it.each(TEAM_TABLE)("%s", (_who, a, admin, editor, viewer, prompts) => {
    expect(isTeamAdminLevel(a)).toBe(admin);
    expect(isTeamEditorLevel(a)).toBe(editor);
    expect(isTeamViewerLevel(a)).toBe(viewer);
    expect(canCreatePrompts(a)).toBe(prompts);
    const levels: [TeamLevel, boolean][] = [["admin", admin], ["editor", editor], ["viewer", viewer]];
    for (const [level, expected] of levels) expect(hasTeamLevel(a, level)).toBe(expected);
  });
});

// Create teams: administrator, organization admin, super user. Manage teams: the above plus team lead.
const viewer = (role: AppRole, isSuperUser = false): Viewer => ({ role, isSuperUser });
const APP_TABLE: [string, Viewer | null, boolean, boolean, boolean][] = [
  // [who, viewer, is org admin, create teams, manage teams]
  ["administrator", viewer("administrator"), false, true, true],
  ["team lead", viewer("team_lead"), false, false, true],
  ["user", viewer("user"), false, false, false],
  ["user who is organization admin", viewer("user"), true, true, true],
  ["team lead who is organization admin", viewer("team_lead"), true, true, true],
  ["super user", viewer("super-user", true), false, true, true],
  ["nobody signed in", null, false, false, false],
  ["nobody signed in, organization admin flag set", null, true, false, false],
];

describe("create and manage teams (spec 6)", () => {
  it.each(APP_TABLE)("%s", (_who, v, isOrgAdmin, create, manage) => {
    expect(canCreateTeams(v, isOrgAdmin)).toBe(create);
    expect(canManageTeams(v, isOrgAdmin)).toBe(manage);
  });
});
