import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { CALLER_KINDS, createSignedInAccount, createWorld, failure, outcome, type CallerKind, type Expected, EXPECTED_AT_LEVEL } from "../../../testing/teams-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createWorld(h);
});
afterAll(() => h.close());

const { viewer: viewerLevel, admin: adminLevel } = EXPECTED_AT_LEVEL;

describe("teams procedures × caller kinds", () => {
  it.each(CALLER_KINDS)("teams.get as %s", async (kind) => {
    const team = await world.team();
    expect(await outcome(world.callers[kind].teams.get({ id: team.id }))).toBe(viewerLevel[kind]);
  });

  it.each(CALLER_KINDS)("teams.rename as %s", async (kind) => {
    const team = await world.team();
    const result = await outcome(world.callers[kind].teams.rename({ id: team.id, name: "  Renamed  " }));
    expect(result).toBe(adminLevel[kind]);
    const stored = await h.database.db.team.findUniqueOrThrow({ where: { id: team.id }, select: { name: true } });
    expect(stored.name).toBe(result === "OK" ? "Renamed" : "Core");
  });

  it.each(CALLER_KINDS)("teams.delete as %s", async (kind) => {
    const team = await world.team();
    const result = await outcome(world.callers[kind].teams.delete({ id: team.id }));
    expect(result).toBe(adminLevel[kind]);
    const stored = await h.database.db.team.findUnique({ where: { id: team.id } });
    expect(stored === null).toBe(result === "OK");
    if (result !== "OK") expect(await h.database.db.teamMember.count({ where: { teamId: team.id } })).toBe(3);
  });

  // Creating needs the app role administrator, or organization admin of that organization, or super user.
  const createExpected: Expected = {
    anonymous: "UNAUTHORIZED",
    outsider: "NOT_FOUND", // an administrator, but the organization is not theirs to see
    orgMember: "FORBIDDEN",
    viewer: "FORBIDDEN",
    editor: "FORBIDDEN",
    admin: "FORBIDDEN", // team admin with the app role user
    orgAdmin: "OK",
    superUser: "OK",
  };
  it.each(CALLER_KINDS)("teams.create as %s", async (kind) => {
    const name = `Created by ${kind}`;
    const result = await outcome(world.callers[kind].teams.create({ name, organizationId: world.organization.id }));
    expect(result).toBe(createExpected[kind]);
    expect(await h.database.db.team.count({ where: { name } })).toBe(result === "OK" ? 1 : 0);
  });

  it("teams.list shows members their teams, organization admins and super users every team", async () => {
    const team = await world.team("Listed");
    const names = async (kind: Exclude<CallerKind, "anonymous">) =>
      (await world.callers[kind].teams.list({ organizationId: world.organization.id })).map((t) => t.id);
    expect(await names("viewer")).toContain(team.id);
    expect(await names("orgAdmin")).toContain(team.id);
    expect(await names("superUser")).toContain(team.id);
    expect(await names("orgMember")).not.toContain(team.id);
    expect(await names("outsider")).not.toContain(team.id);
    await expect(world.callers.anonymous.teams.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("teams.create", () => {
  it("uses the spec's texts for anonymous and unprivileged callers", async () => {
    await expect(world.callers.anonymous.teams.create({ name: "X", organizationId: world.organization.id })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
      message: MSG.mustBeLoggedInToCreateTeam,
    });
    await expect(world.callers.orgMember.teams.create({ name: "X", organizationId: world.organization.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: MSG.mustBeAdminToCreateTeams,
    });
  });

  it("lets an administrator who belongs to the organization create a team; the creator is its admin", async () => {
    const administrator = await createSignedInAccount(h, { role: "administrator" });
    await h.database.db.organizationMember.create({ data: { organizationId: world.organization.id, userId: administrator.id, role: "member" } });
    const team = await administrator.api.teams.create({ name: "  Research  ", organizationId: world.organization.id });
    expect(team).toMatchObject({
      name: "Research",
      organizationId: world.organization.id,
      organizationName: world.organization.name,
      memberCount: 1,
      myRole: "admin",
      createdById: administrator.id,
    });
    const members = await administrator.api.teamMembers.list({ teamId: team.id });
    expect(members).toMatchObject([{ userId: administrator.id, role: "admin", isLastAdmin: true }]);
    expect(await administrator.api.teams.get({ id: team.id })).toEqual(team);
  });

  it.each([
    ["", MSG.teamNameRequired],
    ["   ", MSG.teamNameRequired],
    ["x".repeat(101), MSG.teamNameMax],
  ])("rejects the name %j with %j and creates nothing", async (name, message) => {
    const before = await h.database.db.team.count();
    expect(await failure(world.callers.orgAdmin.teams.create({ name, organizationId: world.organization.id }))).toEqual({
      code: "BAD_REQUEST",
      message,
    });
    expect(await h.database.db.team.count()).toBe(before);
  });

  it("answers NOT_FOUND for an organization that does not exist", async () => {
    await expect(
      world.callers.superUser.teams.create({ name: "Ghost", organizationId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("teams.rename", () => {
  it("rejects an empty name and keeps the old one", async () => {
    const team = await world.team("Keep");
    expect(await failure(world.callers.admin.teams.rename({ id: team.id, name: "   " }))).toEqual({
      code: "BAD_REQUEST",
      message: MSG.teamNameRequired,
    });
    expect((await world.callers.admin.teams.get({ id: team.id })).name).toBe("Keep");
  });
});

describe("teams.list", () => {
  it("orders by name and counts members", async () => {
    const solo = await createSignedInAccount(h);
    const org = await h.database.db.organization.create({
      data: { name: "Counted", members: { create: [{ userId: solo.id, role: "admin" }] } },
    });
    const b = await solo.api.teams.create({ name: "beta", organizationId: org.id });
    await solo.api.teams.create({ name: "Alpha", organizationId: org.id });
    // A colleague of the organization is added to the team at once.
    await h.database.db.organizationMember.create({ data: { organizationId: org.id, userId: world.accounts.viewer.id, role: "member" } });
    await world.callers.superUser.invites.create({ teamId: b.id, email: world.accounts.viewer.email, role: "viewer" });
    const teams = await solo.api.teams.list({ organizationId: org.id });
    expect(teams.map((t) => [t.name, t.memberCount, t.myRole])).toEqual([
      ["Alpha", 1, "admin"],
      ["beta", 2, "admin"],
    ]);
    expect(teams[1]).toEqual(await solo.api.teams.get({ id: b.id }));
    // Without an organization filter: the teams of every organization the caller sees.
    expect((await solo.api.teams.list()).map((t) => t.name)).toEqual(["Alpha", "beta"]);
  });
});

describe("an input with a wrong field name", () => {
  it("is answered BAD_REQUEST naming the field that is missing, not 'Not found'", async () => {
    const team = await world.team();
    // The team's id sent as `teamId`, where the procedure reads `id`.
    const wrongName = { teamId: team.id, requiredApprovals: 1 } as unknown as { id: string; requiredApprovals: number };
    expect(await failure(world.callers.admin.teams.updateSettings(wrongName))).toEqual({ code: "BAD_REQUEST", message: 'Field "id" is required' });
    expect(await failure(world.callers.admin.teams.get({ id: 42 } as unknown as { id: string }))).toEqual({ code: "BAD_REQUEST", message: 'Field "id" must be an id (a string)' });
    // A malformed id still answers as an unknown one: nothing tells whether it exists.
    expect(await failure(world.callers.admin.teams.get({ id: "not-a-uuid" }))).toEqual({ code: "BAD_REQUEST", message: MSG.notFound });
    const settings = await h.database.db.team.findUniqueOrThrow({ where: { id: team.id }, select: { requiredApprovals: true } });
    expect(settings.requiredApprovals).toBe(0);
  });
});
