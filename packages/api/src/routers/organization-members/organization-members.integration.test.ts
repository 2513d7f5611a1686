// Organization members: the listing's fields, adding by email (upsert ignoring
// duplicates), role changes and removal, and the rule that an organization keeps at least one admin,
// also when the requests arrive at the same time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG, ORGANIZATION_MSG } from "@promptly/shared";
import { createHarness, type Harness, type TestClient } from "../../../testing/harness.ts";
import { createAccount, createOrganization, outcome, signedIn, type TestAccount } from "../../../testing/organizations-support.ts";

let h: Harness;
let root: TestAccount;
let rootApi: TestClient["api"];
beforeAll(async () => {
  h = await createHarness();
  root = await createAccount(h, { superUser: true });
  rootApi = (await signedIn(h, root)).api;
});
afterAll(() => h.close());

const rolesOf = async (organizationId: string) =>
  (await h.database.db.organizationMember.findMany({ where: { organizationId }, select: { userId: true, role: true } }))
    .map((m) => m.role)
    .sort();

describe("listing members", () => {
  it("carries full name, email, avatar URL, super-user flag, role and join date; admins first", async () => {
    const admin = await createAccount(h, { fullName: "Ada Admin", avatarKey: "avatars/ada-1.png" });
    const unnamed = await createAccount(h, { fullName: null });
    const superMember = await createAccount(h, { fullName: "Sue Per", superUser: true });
    const organization = await createOrganization(h, [
      { userId: unnamed.id, role: "member" },
      { userId: admin.id, role: "admin" },
      { userId: superMember.id, role: "member" },
    ]);
    const members = await rootApi.organizationMembers.list({ organizationId: organization.id });
    expect(members[0]).toEqual({
      id: expect.any(String),
      userId: admin.id,
      role: "admin",
      joinedAt: expect.any(Date),
      fullName: "Ada Admin",
      email: admin.email,
      avatarUrl: "/avatars/ada-1.png",
      isSuperUser: false,
      isLastAdmin: true,
      appRole: "user",
    });
    expect(members.slice(1).map((m) => [m.userId, m.role, m.fullName, m.isSuperUser, m.avatarUrl, m.isLastAdmin, m.appRole]).sort()).toEqual(
      [
        [unnamed.id, "member", null, false, null, false, "user"],
        [superMember.id, "member", "Sue Per", true, null, false, "super-user"],
      ].sort(),
    );
    // Nothing beyond the declared fields leaves the server.
    expect(Object.keys(members[0]!).sort()).toEqual(
      ["appRole", "avatarUrl", "email", "fullName", "id", "isLastAdmin", "isSuperUser", "joinedAt", "role", "userId"],
    );
  });
});

describe("adding members by email", () => {
  it("invites an account outside the organization with the chosen role; it joins by accepting, email matched case-insensitively", async () => {
    const person = await createAccount(h);
    const { id } = await rootApi.organizations.create({ name: "Adding" });
    const result = await rootApi.organizationMembers.add({ organizationId: id, email: `  ${person.email.toUpperCase()} `, role: "admin" });
    expect(result).toMatchObject({ status: "invited", resent: false, invite: { organizationId: id, email: person.email, role: "admin" } });
    expect(await rolesOf(id)).toEqual(["admin"]);
    if (result.status !== "invited") throw new Error("unreachable");
    await h.mail.waitFor(person.email, /invited to join Adding/);
    const personApi = (await signedIn(h, person)).api;
    await personApi.invites.accept({ id: result.invite.id });
    expect(await rolesOf(id)).toEqual(["admin", "admin"]);
  });

  it("answers an address without an account exactly as one with an account", async () => {
    const person = await createAccount(h);
    const { id } = await rootApi.organizations.create({ name: "Same answer" });
    const known = await rootApi.organizationMembers.add({ organizationId: id, email: person.email, role: "member" });
    const unknown = await rootApi.organizationMembers.add({ organizationId: id, email: "nobody-here@example.test", role: "member" });
    const shape = (result: typeof known) =>
      result.status === "invited" ? { ...result, invite: { ...result.invite, id: "-", email: "-", createdAt: "-", expiresAt: "-" } } : result;
    expect(shape(known)).toEqual(shape(unknown));
    expect(known.status).toBe("invited");
  });

  it("ignores someone already in the organization: the membership and its role stay", async () => {
    const person = await createAccount(h);
    const organization = await createOrganization(h, [{ userId: person.id, role: "member" }]);
    const again = await rootApi.organizationMembers.add({ organizationId: organization.id, email: person.email, role: "admin" });
    expect(again).toMatchObject({ status: "member", member: { userId: person.id, role: "member" } });
    expect(await h.database.db.organizationMember.count({ where: { organizationId: organization.id, userId: person.id } })).toBe(1);
    expect(await h.database.db.organizationInvite.count({ where: { organizationId: organization.id } })).toBe(0);
  });

  it("a pending invitation is listed for the organization's admins and can be cancelled; removal of a member cancels theirs", async () => {
    const admin = await createAccount(h);
    const person = await createAccount(h);
    const organization = await createOrganization(h, [{ userId: admin.id, role: "admin" }, { userId: person.id, role: "member" }]);
    const adminApi = (await signedIn(h, admin)).api;
    const first = await adminApi.organizationMembers.add({ organizationId: organization.id, email: "first@example.test", role: "admin" });
    if (first.status !== "invited") throw new Error("unreachable");
    expect((await adminApi.organizationInvites.listPending({ organizationId: organization.id })).map((i) => [i.email, i.role])).toEqual([
      ["first@example.test", "admin"],
    ]);
    await adminApi.organizationInvites.cancel({ id: first.invite.id });
    expect(await adminApi.organizationInvites.listPending({ organizationId: organization.id })).toEqual([]);
    expect(await outcome(adminApi.organizationInvites.cancel({ id: first.invite.id }))).toEqual({ code: "NOT_FOUND", message: MSG.notFound });
    // An invitation to someone who is then removed would bring them back: it goes with the removal.
    await h.database.db.organizationInvite.create({
      data: { organizationId: organization.id, email: person.email, role: "admin", expiresAt: new Date(h.clock.now().getTime() + 86_400_000) },
    });
    const memberId = organization.members.find((m) => m.userId === person.id)!.id;
    await adminApi.organizationMembers.remove({ id: memberId });
    expect(await h.database.db.organizationInvite.count({ where: { organizationId: organization.id, email: person.email } })).toBe(0);
  });

  it("the role defaults to member", async () => {
    const person = await createAccount(h);
    const { id } = await rootApi.organizations.create({ name: "Default role" });
    const result = await rootApi.organizationMembers.add({ organizationId: id, email: person.email });
    expect(result).toMatchObject({ status: "invited", invite: { role: "member" } });
  });

  it.each([
    ["an invalid email", "not-an-email", "BAD_REQUEST", MSG.invalidEmail],
    ["an empty email", "", "BAD_REQUEST", MSG.required],
  ])("refuses %s and changes nothing", async (_case, email, code, message) => {
    const { id } = await rootApi.organizations.create({ name: "Refusals" });
    expect(await outcome(rootApi.organizationMembers.add({ organizationId: id, email, role: "member" }))).toEqual({ code, message });
    expect(await rolesOf(id)).toEqual(["admin"]);
    expect(await h.database.db.organizationInvite.count({ where: { organizationId: id } })).toBe(0);
  });

  it("refuses a role that does not exist", async () => {
    const person = await createAccount(h);
    const { id } = await rootApi.organizations.create({ name: "Bad role" });
    const result = await outcome(rootApi.organizationMembers.add({ organizationId: id, email: person.email, role: "owner" as "admin" }));
    expect(result.code).toBe("BAD_REQUEST");
    expect(await rolesOf(id)).toEqual(["admin"]);
  });
});

describe("an organization keeps at least one admin", () => {
  async function organizationWithAdmins(count: number) {
    const admins = await Promise.all(Array.from({ length: count }, () => createAccount(h)));
    const member = await createAccount(h);
    const organization = await createOrganization(h, [
      ...admins.map((account) => ({ userId: account.id, role: "admin" as const })),
      { userId: member.id, role: "member" },
    ]);
    const memberIdOf = (account: TestAccount) => organization.members.find((m) => m.userId === account.id)!.id;
    return { organizationId: organization.id, admins, member, memberIdOf };
  }

  it("the last admin can be neither demoted nor removed, not even by a super user or by themselves", async () => {
    const { organizationId, admins, memberIdOf } = await organizationWithAdmins(1);
    const self = (await signedIn(h, admins[0]!)).api;
    const id = memberIdOf(admins[0]!);
    for (const api of [rootApi, self]) {
      expect(await outcome(api.organizationMembers.updateRole({ id, role: "member" }))).toEqual({ code: "CONFLICT", message: ORGANIZATION_MSG.lastAdminRequired });
      expect(await outcome(api.organizationMembers.remove({ id }))).toEqual({ code: "CONFLICT", message: ORGANIZATION_MSG.lastAdminRequired });
    }
    expect(await rolesOf(organizationId)).toEqual(["admin", "member"]);
    // Setting the role it already has is not a demotion.
    expect((await rootApi.organizationMembers.updateRole({ id, role: "admin" })).role).toBe("admin");
  });

  it("with two admins, one may step down; then the other is the last", async () => {
    const { organizationId, admins, member, memberIdOf } = await organizationWithAdmins(2);
    const first = (await signedIn(h, admins[0]!)).api;
    expect((await first.organizationMembers.updateRole({ id: memberIdOf(admins[0]!), role: "member" })).role).toBe("member");
    expect((await outcome(first.organizationMembers.updateRole({ id: memberIdOf(admins[1]!), role: "member" }))).code).toBe("FORBIDDEN");
    expect((await outcome(rootApi.organizationMembers.remove({ id: memberIdOf(admins[1]!) }))).code).toBe("CONFLICT");
    // Promoting someone else frees the former last admin.
    await rootApi.organizationMembers.updateRole({ id: memberIdOf(member), role: "admin" });
    await rootApi.organizationMembers.remove({ id: memberIdOf(admins[1]!) });
    expect(await rolesOf(organizationId)).toEqual(["admin", "member"]);
  });

  it.each([
    ["two demotions", "demote", "demote"],
    ["two removals", "remove", "remove"],
    ["a demotion and a removal", "demote", "remove"],
  ] as const)("holds under %s of the only two admins at the same time", async (_case, firstAction, secondAction) => {
    for (let round = 0; round < 5; round++) {
      const { organizationId, admins, memberIdOf } = await organizationWithAdmins(2);
      const [a, b] = [(await signedIn(h, admins[0]!)).api, (await signedIn(h, admins[1]!)).api];
      const act = (api: TestClient["api"], action: "demote" | "remove", id: string) =>
        outcome(action === "demote" ? api.organizationMembers.updateRole({ id, role: "member" }) : api.organizationMembers.remove({ id }));
      // Each admin acts on the other, so both requests pass the permission check.
      const results = await Promise.all([act(a, firstAction, memberIdOf(admins[1]!)), act(b, secondAction, memberIdOf(admins[0]!))]);
      const codes = results.map((r) => r.code);
      expect((await rolesOf(organizationId)).filter((role) => role === "admin")).toHaveLength(1);
      expect(codes.filter((code) => code === "OK")).toHaveLength(1);
      // The other is refused: as the last admin, or, when it arrives after the first has finished,
      // because its caller is no longer an admin (FORBIDDEN) or no longer a member (NOT_FOUND).
      expect(["BAD_REQUEST", "FORBIDDEN", "NOT_FOUND"]).toContain(codes.find((code) => code !== "OK"));
    }
  });
});

describe("removing a member ends their access to the organization's teams", () => {
  it("deletes their team memberships there (not elsewhere); they no longer see or reach those teams", async () => {
    const db = h.database.db;
    const [admin, leaver] = [await createAccount(h), await createAccount(h)];
    const organization = await createOrganization(h, [
      { userId: admin.id, role: "admin" },
      { userId: leaver.id, role: "member" },
    ]);
    const elsewhere = await createOrganization(h, [{ userId: leaver.id, role: "admin" }]);
    const [teamHere, teamElsewhere] = await Promise.all(
      [organization.id, elsewhere.id].map((organizationId) =>
        db.team.create({ data: { name: `Team ${organizationId.slice(0, 4)}`, organizationId, members: { create: [{ userId: leaver.id, role: "admin" }] } } }),
      ),
    );
    const leaverApi = (await signedIn(h, leaver)).api;
    expect((await leaverApi.teams.list({})).map((t) => t.id).sort()).toEqual([teamHere!.id, teamElsewhere!.id].sort());
    // An invitation to another of the organization's teams, still pending, would bring them back.
    const otherTeam = await db.team.create({ data: { name: "Other team", organizationId: organization.id } });
    const invite = await db.pendingInvite.create({
      data: { teamId: otherTeam.id, email: leaver.email, role: "viewer", expiresAt: new Date(h.clock.now().getTime() + 86_400_000) },
    });

    const adminApi = (await signedIn(h, admin)).api;
    await adminApi.organizationMembers.remove({ id: organization.members.find((m) => m.userId === leaver.id)!.id });

    expect(await db.teamMember.findMany({ where: { userId: leaver.id }, select: { teamId: true } })).toEqual([{ teamId: teamElsewhere!.id }]);
    expect((await leaverApi.teams.list({})).map((t) => t.id)).toEqual([teamElsewhere!.id]);
    expect((await outcome(leaverApi.teamMembers.list({ teamId: teamHere!.id }))).code).toBe("NOT_FOUND");
    expect(await outcome(leaverApi.invites.accept({ id: invite.id }))).toEqual({ code: "NOT_FOUND", message: MSG.inviteNotFound });
    expect(await db.organizationMember.count({ where: { organizationId: organization.id, userId: leaver.id } })).toBe(0);
    expect((await outcome(leaverApi.invites.create({ teamId: teamHere!.id, email: "second@example.test", role: "viewer" }))).code).toBe("NOT_FOUND");
    // The team they administered stays manageable by the organization's admin.
    expect(await adminApi.teamMembers.list({ teamId: teamHere!.id })).toEqual([]);
  });
});

describe("an admin demoted while their own change waits for the lock", () => {
  it("is refused once the rows are locked: the permission is checked again there", async () => {
    const db = h.database.db;
    const [a, b, c] = await Promise.all([createAccount(h), createAccount(h), createAccount(h)]);
    const organization = await createOrganization(h, [a, b, c].map((account) => ({ userId: account.id, role: "admin" as const })));
    const idOf = (account: TestAccount) => organization.members.find((m) => m.userId === account.id)!.id;
    const bApi = (await signedIn(h, b)).api;

    // A's demotion of B holds the member rows; B (still an admin for the permission builder) asks to
    // demote C only once A holds them (else B could lock first and win), and waits for the rows; then
    // A's change commits.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: (pid: number) => void;
    const holding = new Promise<number>((resolve) => (locked = resolve));
    const demoteB = db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM organization_members WHERE organization_id = ${organization.id}::uuid FOR UPDATE`;
        await tx.organizationMember.update({ where: { id: idOf(b) }, data: { role: "member" } });
        locked((await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0]!.pid);
        await released;
      },
      { timeout: 30_000 },
    );
    const holder = await Promise.race([holding, demoteB.then(() => Promise.reject(new Error("A's change ended before B asked")))]);
    const bDemotesC = outcome(bApi.organizationMembers.updateRole({ id: idOf(c), role: "member" }));
    // B's request is blocked by A's connection (not merely some lock wait in the database).
    const bWaits = async () =>
      (await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE ${holder}::int = ANY (pg_blocking_pids(pid))`)[0]!.n > 0;
    // B's request reaches the lock after its session and access checks; a busy machine (the whole
    // suite on two cores) can take seconds for that.
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && !(await bWaits())) await new Promise((r) => setTimeout(r, 25));
    expect(await bWaits()).toBe(true);
    release();
    await demoteB;

    expect(await bDemotesC).toEqual({ code: "FORBIDDEN", message: MSG.permissionDenied });
    expect((await db.organizationMember.findUniqueOrThrow({ where: { id: idOf(c) } })).role).toBe("admin");
  });
});
