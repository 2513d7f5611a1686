// Role resolution as auth.me reports it: the profile flag makes a
// super user; otherwise the stored role; a missing role row is created as `user` (roleCreated once);
// a stored role outside the three assignable ones counts as `user`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { registeredAccount, signedInClient } from "../../../testing/auth-support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await registeredAccount(h); // the installation's first account (a super user) is not under test here
});
afterAll(() => h.close());

type StoredRole = "administrator" | "team_lead" | "user" | null;

async function accountWith(superUser: boolean, storedRole: StoredRole) {
  const account = await registeredAccount(h);
  await h.database.db.profile.update({ where: { userId: account.id }, data: { superUser } });
  if (storedRole === null) await h.database.db.userRole.delete({ where: { userId: account.id } });
  else await h.database.db.userRole.update({ where: { userId: account.id }, data: { role: storedRole } });
  return { account, client: await signedInClient(h, account.email) };
}

describe("role resolution", () => {
  it.each<[string, boolean, StoredRole, string, boolean]>([
    ["the profile flag makes a super user, whatever the stored role", true, "user", "super-user", true],
    ["the profile flag wins over administrator", true, "administrator", "super-user", true],
    ["a stored administrator role", false, "administrator", "administrator", false],
    ["a stored team_lead role", false, "team_lead", "team_lead", false],
    ["a stored user role", false, "user", "user", false],
  ])("%s", async (_case, superUser, storedRole, role, isSuperUser) => {
    const { client } = await accountWith(superUser, storedRole);
    expect(await client.api.auth.me()).toMatchObject({ role, isSuperUser, roleCreated: false });
  });

  it("a missing role row is created as user, reported once with roleCreated", async () => {
    const { account, client } = await accountWith(false, null);
    expect(await client.api.auth.me()).toMatchObject({ role: "user", isSuperUser: false, roleCreated: true });
    expect(await h.database.db.userRole.findUnique({ where: { userId: account.id } })).toEqual({ userId: account.id, role: "user" });
    expect(await client.api.auth.me()).toMatchObject({ role: "user", roleCreated: false });
  });

  it("a super user without a role row gets the row too, and stays a super user", async () => {
    const { account, client } = await accountWith(true, null);
    expect(await client.api.auth.me()).toMatchObject({ role: "super-user", isSuperUser: true, roleCreated: true });
    expect(await h.database.db.userRole.count({ where: { userId: account.id } })).toBe(1);
  });

  it("auth.me is null when signed out", async () => {
    expect(await h.client().api.auth.me()).toBeNull();
  });

  it("auth.me returns the account without secrets", async () => {
    const { account, client } = await accountWith(false, "user");
    const me = await client.api.auth.me();
    expect(me?.user).toEqual({
      id: account.id,
      email: account.email,
      emailVerified: true,
      lastSignInAt: expect.any(Date),
      createdAt: expect.any(Date),
    });
    expect(JSON.stringify(me)).not.toMatch(/argon2|passwordHash/);
  });
});
