// Test accounts for end-to-end tests, written straight into the e2e server's database (the sign-up
// flow itself has its own e2e test), and API sign-in that shares the browser context's cookies.
import { randomBytes } from "node:crypto";
import { hash } from "@node-rs/argon2";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import pg from "pg";
import { E2E } from "./env.ts";
import { recordSecret, recordSessionCookie } from "./secrets.ts";

export const PASSWORD = "correct-horse-battery";
const databaseUrl = `postgresql://postgres:postgres@127.0.0.1:${E2E.postgresPort}/promptly`;

export async function withDb<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A unique address per call, so tests never share accounts. */
export const uniqueEmail = (prefix = "user") => `${prefix}-${randomBytes(4).toString("hex")}@example.test`;

export interface AccountOptions {
  email?: string;
  password?: string;
  fullName?: string | null;
  role?: "administrator" | "team_lead" | "user";
  superUser?: boolean;
}

/**
 * An argon2id hash of `password`, made once per worker and password: a hash verifies whichever account
 * holds it, and each of the suite's ~300 accounts hashing the same password cost the runner about 40 ms
 * of a core.
 */
const hashes = new Map<string, Promise<string>>();
function passwordHashOf(password: string): Promise<string> {
  let made = hashes.get(password);
  if (!made) hashes.set(password, (made = hash(password)));
  return made;
}

/** A verified account, ready to sign in. Returns its id and email. */
export async function createAccount(options: AccountOptions = {}) {
  const email = (options.email ?? uniqueEmail()).toLowerCase();
  const passwordHash = await passwordHashOf(options.password ?? PASSWORD);
  return withDb(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO users (email, password_hash, email_verified_at, updated_at) VALUES ($1, $2, now(), now()) RETURNING id`,
      [email, passwordHash],
    );
    const id = rows[0]!.id;
    await client.query(`INSERT INTO profiles (user_id, full_name, super_user, updated_at) VALUES ($1, $2, $3, now())`, [
      id,
      options.fullName === undefined ? "Test Person" : options.fullName,
      options.superUser ?? false,
    ]);
    await client.query(`INSERT INTO user_roles (user_id, role) VALUES ($1, $2)`, [id, options.role ?? "user"]);
    return { id, email };
  });
}

/** POST to a tRPC mutation the way the web app does (superjson envelope, same-origin). */
export async function callMutation(request: APIRequestContext, path: string, input: unknown) {
  const response = await request.post(`${E2E.appUrl}/trpc/${path}`, {
    data: { json: input },
    headers: { "content-type": "application/json", origin: E2E.appUrl },
  });
  const body = await response.json();
  if (!response.ok()) throw new Error(`${path} failed: ${JSON.stringify(body.error?.json?.message ?? body)}`);
  return body.result?.data?.json;
}

/** Signs the page's browser context in through the API (auth.signIn), without the sign-in screen. */
export async function signIn(page: Page, email: string, password = PASSWORD) {
  recordSecret("password", password);
  await callMutation(page.request, "auth.signIn", { email, password });
  await recordSessionCookie(page.context());
}

/** A page in a browser context of its own, signed in as `email` (a second person beside the test's `page`). */
export async function signedInPage(browser: Browser, email: string) {
  const context = await browser.newContext({ baseURL: E2E.appUrl });
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

/** A unique display name per call, e.g. "Team 3fa2c1". */
export const uniqueName = (prefix: string) => `${prefix} ${randomBytes(3).toString("hex")}`;

/** An organization with the given members, written straight into the database. */
export async function createOrganizationWith(
  members: { userId: string; role: "admin" | "member" }[],
  name = uniqueName("Org"),
  slug: string | null = null,
) {
  return withDb(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO organizations (name, slug, updated_at) VALUES ($1, $2, now()) RETURNING id`,
      [name, slug],
    );
    const id = rows[0]!.id;
    for (const member of members) {
      await client.query(`INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, $3)`, [id, member.userId, member.role]);
    }
    return { id, name };
  });
}

/** Makes an account a member of an organization, written straight into the database. */
export async function addOrganizationMember(organizationId: string, userId: string, role: "admin" | "member" = "member") {
  await withDb((client) =>
    client.query(`INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, $3)`, [organizationId, userId, role]),
  );
}

/** A team of an organization with the given members, written straight into the database. */
export async function createTeamWith(
  organizationId: string,
  members: { userId: string; role: "admin" | "editor" | "viewer" }[],
  name = uniqueName("Team"),
) {
  return withDb(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO teams (name, organization_id, updated_at) VALUES ($1, $2, now()) RETURNING id`,
      [name, organizationId],
    );
    const id = rows[0]!.id;
    for (const member of members) {
      await client.query(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, $3)`, [id, member.userId, member.role]);
    }
    return { id, name };
  });
}

/**
 * A new organization with one team, both holding the given people: a team admin is an organization
 * admin, everyone else an ordinary member.
 */
export async function createTeamInNewOrganization(members: { userId: string; role: "admin" | "editor" | "viewer" }[]) {
  const organization = await createOrganizationWith(members.map((m) => ({ userId: m.userId, role: m.role === "admin" ? "admin" : "member" })));
  const team = await createTeamWith(organization.id, members);
  return { organization, team };
}
