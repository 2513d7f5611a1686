// Accounts and signed-in callers for the organizations integration tests. Accounts are written
// straight into the test database (sign-up has its own tests); the session is a real Lucia session.
import { randomBytes } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { Harness, TestClient } from "../../testing.ts";

export interface TestAccount {
  id: string;
  email: string;
}

export async function createAccount(
  h: Harness,
  options: { email?: string; fullName?: string | null; superUser?: boolean; avatarKey?: string | null } = {},
): Promise<TestAccount> {
  const email = options.email ?? `person-${randomBytes(5).toString("hex")}@example.test`;
  const user = await h.database.db.user.create({
    data: {
      email,
      emailVerifiedAt: new Date(),
      profile: {
        create: {
          fullName: options.fullName === undefined ? "Test Person" : options.fullName,
          superUser: options.superUser ?? false,
          avatarKey: options.avatarKey ?? null,
        },
      },
      appRole: { create: { role: "user" } },
    },
    select: { id: true, email: true },
  });
  return user;
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

/**
 * The TRPC error code a call failed with (with the message a client reads: for invalid input the
 * first zod issue's, as the error formatter words it over HTTP), or "OK" with the value.
 */
export async function outcome(call: Promise<unknown>): Promise<{ code: string; message?: string; value?: unknown }> {
  try {
    return { code: "OK", value: await call };
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    const message = error.cause instanceof ZodError ? error.cause.issues[0]?.message : error.message;
    return { code: error.code, message };
  }
}
