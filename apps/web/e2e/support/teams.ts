// Helpers for the teams end-to-end tests: reads of what the screens did in the e2e database,
// the mail catcher, and the header's team selector.
import { expect, type Locator, type Page } from "@playwright/test";
import { withDb } from "./accounts.ts";

export async function findTeam(organizationId: string, name: string) {
  return withDb(async (client) => {
    const { rows } = await client.query<{ id: string }>(`SELECT id FROM teams WHERE organization_id = $1 AND name = $2`, [organizationId, name]);
    return rows[0] ?? null;
  });
}

/** Team members as [email, role], ordered by email. */
export async function teamMembersOf(teamId: string) {
  return withDb(async (client) => {
    const { rows } = await client.query<{ email: string; role: string }>(
      `SELECT u.email, m.role::text AS role FROM team_members m JOIN users u ON u.id = m.user_id WHERE m.team_id = $1 ORDER BY u.email`,
      [teamId],
    );
    return rows.map((row) => [row.email, row.role]);
  });
}

export async function organizationRoleOf(organizationId: string, email: string) {
  return withDb(async (client) => {
    const { rows } = await client.query<{ role: string }>(
      `SELECT m.role::text AS role FROM organization_members m JOIN users u ON u.id = m.user_id WHERE m.organization_id = $1 AND u.email = $2`,
      [organizationId, email],
    );
    return rows[0]?.role ?? null;
  });
}

export async function invitesOf(teamId: string) {
  return withDb(async (client) => {
    const { rows } = await client.query<{ email: string; role: string; status: string }>(
      `SELECT email, role::text AS role, status::text AS status FROM pending_invites WHERE team_id = $1 ORDER BY created_at`,
      [teamId],
    );
    return rows;
  });
}

export { waitForMail } from "./auth.ts";

/** The accept link of an invitation mail, id and token, as a path to open in the browser. */
export function inviteLinkIn(mail: { subject: string; text: string }): string {
  const match = /https?:\/\/[^\s]+(\/auth\/accept-invite\?id=[0-9a-f-]+&token=[A-Za-z0-9_-]+)/.exec(mail.text);
  expect(match, `an accept-invite link in "${mail.subject}"`).not.toBeNull();
  return match![1]!;
}

export const teamSelector = (page: Page) => page.getByTestId("team-selector");

/** Opens the header's team selector and returns its popover. */
export async function openTeamSelector(page: Page): Promise<Locator> {
  await teamSelector(page).click();
  const popover = page.getByRole("dialog").filter({ has: page.getByPlaceholder("Search teams...") });
  await expect(popover).toBeVisible();
  return popover;
}

export const memberRow = (page: Page, email: string) => page.getByTestId("team-member-row").filter({ hasText: email });
export const inviteRow = (page: Page, email: string) => page.getByTestId("pending-invite-row").filter({ hasText: email });
export const teamCard = (page: Page, name: string) => page.getByTestId("team-card").filter({ hasText: name });

