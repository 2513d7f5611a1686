// The pages a team role opens (All Prompts and My Bookmarks for any team role, Teams for a team
// admin) are only as good as the procedures behind them: for people whose app role is plain `user`,
// those answer, and a team admin still manages no other team.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createWorld, outcome, uniqueEmail } from "../../../testing/teams-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createWorld(h);
});
afterAll(() => h.close());

const db = () => h.database.db;

describe("All Prompts and My Bookmarks for a team role", () => {
  it.each(["viewer", "editor", "admin"] as const)("a team %s whose app role is user reads the library's lists", async (kind) => {
    const team = await world.team();
    const { role } = await db().userRole.findUniqueOrThrow({ where: { userId: world.accounts[kind].id } });
    expect(role).toBe("user");
    const api = world.callers[kind];
    const organizationId = world.organization.id;
    expect(await outcome(api.prompts.list({ organizationId }))).toBe("OK");
    expect(await outcome(api.prompts.list({ organizationId, teamId: team.id }))).toBe("OK");
    expect(await outcome(api.prompts.list({ organizationId, bookmarked: true }))).toBe("OK");
    expect(await outcome(api.prompts.facets({ organizationId }))).toBe("OK");
  });
});

describe("the Teams page for a team admin whose app role is user", () => {
  it("lists their team, and answers every procedure the page calls for it", async () => {
    const team = await world.team("Admin's own");
    const api = world.callers.admin;
    const teams = await api.teams.list({ organizationId: world.organization.id });
    expect(teams.find((listed) => listed.id === team.id)?.myRole).toBe("admin");
    expect(await outcome(api.teamMembers.list({ teamId: team.id }))).toBe("OK");
    expect(await outcome(api.invites.listPending({ teamId: team.id }))).toBe("OK");
    expect(await outcome(api.changeRequests.list({ teamId: team.id }))).toBe("OK");
    expect(await outcome(api.apiKeys.list({ teamId: team.id }))).toBe("OK");
    const created = await api.apiKeys.create({ teamId: team.id, name: "Page key" });
    expect(await db().apiKey.count({ where: { id: created.id, teamId: team.id } })).toBe(1);
    expect(await outcome(api.invites.create({ teamId: team.id, email: uniqueEmail(), role: "viewer" }))).toBe("OK");
    expect(await outcome(api.teams.rename({ id: team.id, name: "Admin's own, renamed" }))).toBe("OK");
  });

  it("manages no other team of the organization: NOT_FOUND where they are not a member, FORBIDDEN where they only view", async () => {
    const other = await world.team("Someone else's");
    // Two teams where they are no admin: one without them, one where they only view.
    await db().teamMember.deleteMany({ where: { teamId: other.id, userId: world.accounts.admin.id } });
    const viewed = await world.team("Viewed");
    await db().teamMember.updateMany({ where: { teamId: viewed.id, userId: world.accounts.admin.id }, data: { role: "viewer" } });
    const api = world.callers.admin;
    for (const [team, expected] of [
      [other, "NOT_FOUND"],
      [viewed, "FORBIDDEN"],
    ] as const) {
      expect([team.name, await outcome(api.apiKeys.create({ teamId: team.id, name: "Not mine" }))]).toEqual([team.name, expected]);
      expect([team.name, await outcome(api.apiKeys.list({ teamId: team.id }))]).toEqual([team.name, expected]);
      expect([team.name, await outcome(api.invites.create({ teamId: team.id, email: uniqueEmail(), role: "viewer" }))]).toEqual([team.name, expected]);
      expect([team.name, await outcome(api.invites.listPending({ teamId: team.id }))]).toEqual([team.name, expected]);
      expect([team.name, await outcome(api.teams.rename({ id: team.id, name: "Taken over" }))]).toEqual([team.name, expected]);
      expect([team.name, await outcome(api.teams.delete({ id: team.id }))]).toEqual([team.name, expected]);
    }
    expect(await db().apiKey.count({ where: { teamId: { in: [other.id, viewed.id] } } })).toBe(0);
    expect(await db().team.count({ where: { id: { in: [other.id, viewed.id] }, name: "Taken over" } })).toBe(0);
    // The team they do not belong to is not in their list; the one they view is, as a viewer.
    const teams = await api.teams.list({ organizationId: world.organization.id });
    expect(teams.some((listed) => listed.id === other.id)).toBe(false);
    expect(teams.find((listed) => listed.id === viewed.id)?.myRole).toBe("viewer");
  });
});
