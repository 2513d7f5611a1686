// users.setAppRole: a super user changes a person's app role (super user status included), nobody
// else may, bad input changes nothing, the last super user is never demoted (also when two super users
// demote each other at the same time), and each change is on the audit trail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "@promptly/shared";
import { createHarness, type Harness, type TestClient } from "../../../testing/harness.ts";
import { createAccount, outcome, signedIn } from "../../../testing/organizations-support.ts";
import { DomainError } from "../../errors.ts";
import { setAppRole } from "../../services/identity/app-roles.ts";
import { setSuperUser } from "../../services/identity/super-users.ts";

let h: Harness;
let root: { id: string; email: string };
let rootApi: TestClient["api"];
beforeAll(async () => {
  h = await createHarness();
  root = await createAccount(h, { superUser: true });
  rootApi = (await signedIn(h, root)).api;
});
afterAll(() => h.close());

const db = () => h.database.db;
/** The app role as the rest of the app reads it (auth.me). */
const appRoleOf = async (userId: string) => (await (await h.signedInClient(userId)).api.auth.me())?.role;
const eventsFor = (userId: string) => db().auditEvent.findMany({ where: { action: "user.app_role", targetId: userId }, orderBy: [{ createdAt: "asc" }, { seq: "asc" }] });

describe("users.setAppRole", () => {
  it("sets each app role, 'super-user' as super user status, and audits each change once", async () => {
    const person = await createAccount(h, { role: "user" });
    for (const role of ["administrator", "team_lead", "super-user", "user"] as const) {
      expect(await rootApi.users.setAppRole({ userId: person.id, role })).toEqual({ userId: person.id, role });
      expect([role, await appRoleOf(person.id)]).toEqual([role, role]);
    }
    // The same role again is no change and no event.
    await rootApi.users.setAppRole({ userId: person.id, role: "user" });
    const events = await eventsFor(person.id);
    expect(events.map((event) => [event.before, event.after])).toEqual([
      [{ role: "user" }, { role: "administrator" }],
      [{ role: "administrator" }, { role: "team_lead" }],
      [{ role: "team_lead" }, { role: "super-user" }],
      [{ role: "super-user" }, { role: "user" }],
    ]);
    expect(events[0]).toMatchObject({ organizationId: null, actorKind: "user", actorId: root.id, targetType: "user", targetName: person.email });
  });

  it.each([
    ["anonymous", null, "UNAUTHORIZED"],
    ["a user", "user", "FORBIDDEN"],
    ["an administrator", "administrator", "FORBIDDEN"],
    ["a team lead", "team_lead", "FORBIDDEN"],
  ] as const)("refuses %s and changes nothing", async (_who, role, code) => {
    const target = await createAccount(h, { role: "user" });
    const api = role === null ? h.client().api : (await signedIn(h, await createAccount(h, { role }))).api;
    const result = await outcome(api.users.setAppRole({ userId: target.id, role: "administrator" }));
    expect(result.code).toBe(code);
    if (code === "FORBIDDEN") expect(result.message).toBe(MSG.onlySuperUsersChangeAppRoles);
    expect(await appRoleOf(target.id)).toBe("user");
    expect(await eventsFor(target.id)).toEqual([]);
  });

  it("answers BAD_REQUEST for an unknown role or a malformed id, NOT_FOUND for an unknown person", async () => {
    const target = await createAccount(h, { role: "user" });
    expect((await outcome(rootApi.users.setAppRole({ userId: target.id, role: "owner" as never }))).code).toBe("BAD_REQUEST");
    expect((await outcome(rootApi.users.setAppRole({ userId: "nope", role: "user" }))).code).toBe("BAD_REQUEST");
    expect(await outcome(rootApi.users.setAppRole({ userId: "00000000-0000-4000-8000-000000000000", role: "user" }))).toMatchObject({
      code: "NOT_FOUND",
      message: MSG.notFound,
    });
    expect(await appRoleOf(target.id)).toBe("user");
  });

  it("never demotes the last super user, who may hand over first", async () => {
    // Only one super user left in this database: root.
    await db().profile.updateMany({ where: { superUser: true, userId: { not: root.id } }, data: { superUser: false } });
    expect(await outcome(rootApi.users.setAppRole({ userId: root.id, role: "administrator" }))).toMatchObject({
      code: "CONFLICT",
      message: MSG.lastSuperUser,
    });
    expect(await appRoleOf(root.id)).toBe("super-user");
    // With a second super user, root may step down; the second is then the last.
    const second = await createAccount(h, { role: "user" });
    await rootApi.users.setAppRole({ userId: second.id, role: "super-user" });
    await rootApi.users.setAppRole({ userId: root.id, role: "administrator" });
    expect(await appRoleOf(root.id)).toBe("administrator");
    const secondApi = (await signedIn(h, second)).api;
    expect((await outcome(secondApi.users.setAppRole({ userId: second.id, role: "user" }))).code).toBe("CONFLICT");
    // Root, no longer a super user, may change nothing now.
    expect((await outcome(rootApi.users.setAppRole({ userId: root.id, role: "super-user" }))).code).toBe("FORBIDDEN");
    await secondApi.users.setAppRole({ userId: root.id, role: "super-user" });
    expect(await appRoleOf(root.id)).toBe("super-user");
  });

  it("two super users demoting each other at the same time: one succeeds, one super user remains", async () => {
    await db().profile.updateMany({ where: { superUser: true, userId: { not: root.id } }, data: { superUser: false } });
    const other = await createAccount(h, { superUser: true });
    const otherApi = (await signedIn(h, other)).api;
    const results = await Promise.all([
      outcome(rootApi.users.setAppRole({ userId: other.id, role: "user" })),
      outcome(otherApi.users.setAppRole({ userId: root.id, role: "user" })),
    ]);
    expect(results.map((result) => result.code).sort()).toEqual(["FORBIDDEN", "OK"]);
    expect(await db().profile.count({ where: { superUser: true } })).toBe(1);
    // Whoever lost keeps no right to change it back; the winner restores the previous state.
    const winner = results[0]!.code === "OK" ? rootApi : otherApi;
    const loser = results[0]!.code === "OK" ? other : root;
    await winner.users.setAppRole({ userId: loser.id, role: "super-user" });
  });
});

describe("the command line (npm run cli -- set-role | revoke-super-user)", () => {
  const commandLine = () => ({ actor: { kind: "cli" as const }, ip: null, now: h.clock.now() });

  it("set-role changes the app role as the app does, audited as the command line", async () => {
    const person = await createAccount(h, { role: "user" });
    expect(await setAppRole(db(), { userId: person.id, role: "team_lead" }, commandLine())).toEqual({ userId: person.id, role: "team_lead" });
    expect(await appRoleOf(person.id)).toBe("team_lead");
    expect((await eventsFor(person.id)).map((event) => [event.actorKind, event.before, event.after])).toEqual([["cli", { role: "user" }, { role: "team_lead" }]]);
  });

  it("neither set-role nor revoke-super-user takes the last super user's status", async () => {
    await db().profile.updateMany({ where: { superUser: true, userId: { not: root.id } }, data: { superUser: false } });
    const refused = await setAppRole(db(), { userId: root.id, role: "user" }, commandLine()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: "STATE_CONFLICT", message: MSG.lastSuperUser });
    await expect(setSuperUser(db(), root.id, false, h.clock.now())).rejects.toThrow(MSG.lastSuperUser);
    expect(await appRoleOf(root.id)).toBe("super-user");
    // With another super user, the command line revokes it.
    const second = await createAccount(h, { role: "user" });
    await setSuperUser(db(), second.id, true, h.clock.now());
    await setSuperUser(db(), root.id, false, h.clock.now());
    expect(await appRoleOf(root.id)).not.toBe("super-user");
    await setSuperUser(db(), root.id, true, h.clock.now());
  });
});
