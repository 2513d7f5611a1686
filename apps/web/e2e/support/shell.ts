// Helpers for the app shell's end-to-end tests: people of each kind the route table distinguishes.
import type { Page } from "@playwright/test";
import { createAccount, createOrganizationWith, signIn, type AccountOptions } from "./accounts.ts";

export type ShellPersona = "administrator" | "team_lead" | "user" | "super-user" | "org-admin";

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
  const organization = await createOrganizationWith([{ userId: account.id, role: persona === "org-admin" ? "admin" : "member" }]);
  await signIn(page, account.email);
  return { ...account, organization };
}

