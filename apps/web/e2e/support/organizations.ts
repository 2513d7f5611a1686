// Helpers for the organizations end-to-end tests: the header's switcher, the members table, and
// direct reads of the e2e database to check what the screens did.
import { randomBytes } from "node:crypto";
import { expect, type Locator, type Page } from "@playwright/test";
import { withDb } from "./accounts.ts";

/** A name and slug no other test uses. */
export function uniqueOrganization(prefix = "E2E Org") {
  const suffix = randomBytes(3).toString("hex");
  return { name: `${prefix} ${suffix}`, slug: `${prefix.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${suffix}` };
}

/** Makes the organization and team the page's active ones from its next load on, as the switchers remember them. */
export const activateTeam = (page: Page, organizationId: string, teamId: string) =>
  page.addInitScript(
    (ids) => {
      localStorage.setItem("promptly.activeOrganizationId", ids.organizationId);
      localStorage.setItem("promptly.activeTeamId", ids.teamId);
    },
    { organizationId, teamId },
  );

export const switcher = (page: Page) => page.getByTestId("organization-switcher");

/** Opens the header's organization switcher and returns its popover. */
export async function openSwitcher(page: Page): Promise<Locator> {
  await switcher(page).click();
  const popover = page.getByRole("dialog").filter({ has: page.getByPlaceholder("Search organizations...") });
  await expect(popover).toBeVisible();
  return popover;
}

/** Searches the switcher for `name` and picks it. */
export async function switchTo(page: Page, name: string) {
  const popover = await openSwitcher(page);
  await popover.getByPlaceholder("Search organizations...").fill(name);
  await popover.getByRole("option", { name }).click();
  await expect(switcher(page)).toContainText(name);
}

export const memberRow = (page: Page, email: string) => page.getByTestId("organization-member-row").filter({ hasText: email });
export const organizationRow = (page: Page, name: string) => page.getByTestId("organization-row").filter({ hasText: name });

export async function findOrganization(slugOrName: string) {
  return withDb(async (client) => {
    const { rows } = await client.query<{ id: string; name: string; slug: string | null }>(
      `SELECT id, name, slug FROM organizations WHERE slug = $1 OR name = $1`,
      [slugOrName],
    );
    return rows[0] ?? null;
  });
}

export async function membershipsOf(organizationId: string) {
  return withDb(async (client) => {
    const { rows } = await client.query<{ email: string; role: string }>(
      `SELECT u.email, m.role::text AS role FROM organization_members m JOIN users u ON u.id = m.user_id
       WHERE m.organization_id = $1 ORDER BY u.email`,
      [organizationId],
    );
    return rows;
  });
}

