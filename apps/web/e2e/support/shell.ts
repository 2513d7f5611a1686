// Helpers for the app shell's end-to-end tests: people of each kind the route table distinguishes.
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { createAccount, signIn, withDb, type AccountOptions } from "./accounts.ts";

export type ShellPersona = "administrator" | "team_lead" | "user" | "super-user" | "org-admin";

/** An organization with the given members (role per member), straight into the database. */
export async function createOrganization(members: { userId: string; role: "admin" | "member" }[], name = `Org ${randomBytes(3).toString("hex")}`) {
  return withDb(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO organizations (name, updated_at) VALUES ($1, now()) RETURNING id`,
      [name],
    );
    const organizationId = rows[0]!.id;
    for (const member of members) {
      await client.query(`INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, $3)`, [
        organizationId,
        member.userId,
        member.role,
      ]);
    }
    return { id: organizationId, name };
  });
}

/** A team in an organization with the given members. */
export async function createTeam(organizationId: string, members: { userId: string; role: "admin" | "editor" | "viewer" }[], name = `Team ${randomBytes(3).toString("hex")}`) {
  return withDb(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO teams (name, organization_id, updated_at) VALUES ($1, $2, now()) RETURNING id`,
      [name, organizationId],
    );
    const teamId = rows[0]!.id;
    for (const member of members) {
      await client.query(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, $3)`, [teamId, member.userId, member.role]);
    }
    return { id: teamId, name };
  });
}

/**
 * Creates a person of the given kind, each a member of one organization of their own (so the organization
 * switcher stays hidden for everyone but the super user), and signs the page in as them.
 * 'org-admin' is an app-role user who is admin of that organization.
 */
export async function signInAs(page: Page, persona: ShellPersona, options: AccountOptions = {}) {
  const account = await createAccount({
    ...options,
    role: persona === "administrator" || persona === "team_lead" ? persona : "user",
    superUser: persona === "super-user",
  });
  const organization = await createOrganization([{ userId: account.id, role: persona === "org-admin" ? "admin" : "member" }]);
  await signIn(page, account.email);
  return { ...account, organization };
}

/** Console errors of a page, collected from now on. */
export function collectConsoleErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}
