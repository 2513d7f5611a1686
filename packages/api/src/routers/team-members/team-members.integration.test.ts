import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@promptly/db";
import { TEAM_MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { CALLER_KINDS, createSignedInAccount, createTeam, createWorld, failure, outcome, EXPECTED_AT_LEVEL } from "../../../testing/teams-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createWorld(h);
});
afterAll(() => h.close());

const { viewer: viewerLevel, admin: adminLevel } = EXPECTED_AT_LEVEL;

const roleOf = async (memberId: string) =>
  (await h.database.db.teamMember.findUnique({ where: { id: memberId }, select: { role: true } }))?.role ?? null;

describe("teamMembers procedures × caller kinds", () => {
  it.each(CALLER_KINDS)("teamMembers.list as %s", async (kind) => {
    const team = await world.team();
    expect(await outcome(world.callers[kind].teamMembers.list({ teamId: team.id }))).toBe(viewerLevel[kind]);
  });

  it.each(CALLER_KINDS)("teamMembers.updateRole as %s", async (kind) => {
    const team = await world.team();
    const viewerMember = team.memberId(world.accounts.viewer.id);
    const result = await outcome(world.callers[kind].teamMembers.updateRole({ id: viewerMember, role: "editor" }));
    expect(result).toBe(adminLevel[kind]);
    expect(await roleOf(viewerMember)).toBe(result === "OK" ? "editor" : "viewer");
  });

  it.each(CALLER_KINDS)("teamMembers.remove as %s", async (kind) => {
    const team = await world.team();
    const editorMember = team.memberId(world.accounts.editor.id);
    const result = await outcome(world.callers[kind].teamMembers.remove({ id: editorMember }));
    expect(result).toBe(adminLevel[kind]);
    expect(await roleOf(editorMember)).toBe(result === "OK" ? null : "editor");
  });

  it("answers NOT_FOUND for a member id that does not exist", async () => {
    const ghost = "00000000-0000-4000-8000-000000000000";
    expect(await outcome(world.callers.superUser.teamMembers.remove({ id: ghost }))).toBe("NOT_FOUND");
    expect(await outcome(world.callers.superUser.teamMembers.updateRole({ id: ghost, role: "viewer" }))).toBe("NOT_FOUND");
  });
});

describe("teamMembers.list", () => {
  it("orders by role (admin, editor, viewer) and carries who each is (the one member shape), with nulls where there is none", async () => {
    const nameless = await createSignedInAccount(h, { fullName: null });
    const team = await createTeam(h, world.organization.id, [
      { userId: nameless.id, role: "viewer" },
      { userId: world.accounts.editor.id, role: "editor" },
      { userId: world.accounts.admin.id, role: "admin" },
    ]);
    const members = await world.callers.admin.teamMembers.list({ teamId: team.id });
    expect(members.map((m) => m.role)).toEqual(["admin", "editor", "viewer"]);
    expect(members[0]).toEqual({
      id: expect.any(String),
      userId: world.accounts.admin.id,
      role: "admin",
      joinedAt: expect.any(Date),
      fullName: "Ada Admin",
      email: world.accounts.admin.email,
      avatarUrl: null,
      isSuperUser: false,
      isLastAdmin: true,
    });
    expect(members[2]).toMatchObject({ isLastAdmin: false, fullName: null, avatarUrl: null, email: nameless.email });
  });
});

describe("teamMembers.list's database work", () => {
  /** A signed-in client of `userId` whose database calls are recorded by operation. */
  async function recordingClient(userId: string) {
    const log: string[] = [];
    const db = h.services.db.$extends({
      query: {
        async $allOperations({ operation, args, query }) {
          log.push(operation);
          return query(args);
        },
      },
    }) as unknown as Db;
    const client = await h.signedInClient(userId, { services: { ...h.services, db } });
    return { log, api: client.api };
  }

  it("reads the caller's access in the team and its members in one statement, after the session lookup", async () => {
    const team = await world.team();
    const { log, api } = await recordingClient(world.accounts.viewer.id);
    await api.teamMembers.list({ teamId: team.id }); // a first call may create the caller's role row
    log.length = 0;
    expect(await api.teamMembers.list({ teamId: team.id })).toHaveLength(3);
    // The session lookup (raw SQL, named where the pool allows) and one statement for access and rows.
    expect(log).toEqual(["$queryRawUnsafe", "$queryRaw"]);
  });

  it("answers an empty list for a team without members to whoever may read it", async () => {
    const team = await createTeam(h, world.organization.id, []);
    expect(await world.callers.orgAdmin.teamMembers.list({ teamId: team.id })).toEqual([]);
    expect(await world.callers.superUser.teamMembers.list({ teamId: team.id })).toEqual([]);
    expect(await outcome(world.callers.orgMember.teamMembers.list({ teamId: team.id }))).toBe("NOT_FOUND");
  });
});

describe("the last admin", () => {
  it("can be neither demoted nor removed; nothing changes", async () => {
    const team = await world.team();
    const adminMember = team.memberId(world.accounts.admin.id);
    expect(await failure(world.callers.orgAdmin.teamMembers.updateRole({ id: adminMember, role: "editor" }))).toEqual({
      code: "CONFLICT",
      message: TEAM_MSG.lastAdminCannotBeDemoted,
    });
    expect(await failure(world.callers.admin.teamMembers.remove({ id: adminMember }))).toEqual({
      code: "CONFLICT",
      message: TEAM_MSG.lastAdminCannotBeRemoved,
    });
    expect(await roleOf(adminMember)).toBe("admin");
  });

  it("can be demoted once another admin exists; admin to admin is allowed", async () => {
    const team = await world.team();
    const adminMember = team.memberId(world.accounts.admin.id);
    expect(await outcome(world.callers.admin.teamMembers.updateRole({ id: adminMember, role: "admin" }))).toBe("OK");
    await world.callers.admin.teamMembers.updateRole({ id: team.memberId(world.accounts.editor.id), role: "admin" });
    const demoted = await world.callers.admin.teamMembers.updateRole({ id: adminMember, role: "viewer" });
    expect(demoted).toMatchObject({ role: "viewer", isLastAdmin: false });
    // The demoted person is no longer at admin level.
    expect(await outcome(world.callers.admin.teamMembers.remove({ id: team.memberId(world.accounts.viewer.id) }))).toBe("FORBIDDEN");
  });
});

describe("concurrent changes never leave a team without an admin", () => {
  async function twoAdmins() {
    const a = await createSignedInAccount(h);
    const b = await createSignedInAccount(h);
    await h.database.db.organizationMember.createMany({
      data: [a, b].map((x) => ({ organizationId: world.organization.id, userId: x.id, role: "member" as const })),
    });
    const team = await createTeam(h, world.organization.id, [
      { userId: a.id, role: "admin" },
      { userId: b.id, role: "admin" },
    ]);
    return { a, b, team };
  }
  const adminCount = (teamId: string) => h.database.db.teamMember.count({ where: { teamId, role: "admin" } });

  it.each(Array.from({ length: 8 }, (_, i) => i))("two admins demoting each other at once leave one admin (round %i)", async () => {
    const { a, b, team } = await twoAdmins();
    const results = await Promise.allSettled([
      a.api.teamMembers.updateRole({ id: team.memberId(b.id), role: "viewer" }),
      b.api.teamMembers.updateRole({ id: team.memberId(a.id), role: "viewer" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await adminCount(team.id)).toBe(1);
  });

  it.each(Array.from({ length: 4 }, (_, i) => i))("two admins removing each other at once leave one admin (round %i)", async () => {
    const { a, b, team } = await twoAdmins();
    const results = await Promise.allSettled([
      a.api.teamMembers.remove({ id: team.memberId(b.id) }),
      b.api.teamMembers.remove({ id: team.memberId(a.id) }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await adminCount(team.id)).toBe(1);
  });
});
