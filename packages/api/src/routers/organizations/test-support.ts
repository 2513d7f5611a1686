// Accounts and signed-in callers for the organizations integration tests. Accounts are written
// straight into the test database (sign-up has its own tests); the session is a real Lucia session.
import { randomBytes } from "node:crypto";
import { createTestAccount, type Harness, type TestClient } from "../../testing.ts";

export interface TestAccount {
  id: string;
  email: string;
}

export async function createAccount(
  h: Harness,
  options: { email?: string; fullName?: string | null; superUser?: boolean; avatarKey?: string | null } = {},
): Promise<TestAccount> {
  return createTestAccount(h, options);
}

/** A browser-like client signed in as `account`. */
export async function signedIn(h: Harness, account: TestAccount): Promise<TestClient> {
  return h.signedInClient(account.id);
}

/** An organization with the given members, written directly (the create procedure has its own tests). */
export async function createOrganizationWith(
  h: Harness,
  members: { account: TestAccount; role: "admin" | "member" }[],
  name = `Org ${randomBytes(3).toString("hex")}`,
) {
  return h.database.db.organization.create({
    data: { name, members: { create: members.map(({ account, role }) => ({ userId: account.id, role })) } },
    select: { id: true, name: true, members: { select: { id: true, userId: true, role: true } } },
  });
}

export { outcome } from "../../testing.ts";
