// Helpers for the teams end-to-end tests: reads of what the screens did in the e2e database,
// the mail catcher, and the header's team selector.
import { expect, type Locator, type Page } from "@playwright/test";
import { withDb } from "./accounts.ts";
import { E2E } from "./env.ts";

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

interface CaughtMail {
  subject: string;
  to: { address: string }[];
  text: string;
  html: string;
}

/** Waits for the newest mail to `to` in the catcher (GET /email of its REST API). */
export async function waitForMail(to: string, subject: RegExp): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(
      async () => {
        const all = (await (await fetch(`${E2E.mailboxUrl}/email`)).json()) as CaughtMail[];
        found = all.filter((mail) => mail.to.some((r) => r.address.toLowerCase() === to.toLowerCase()) && subject.test(mail.subject)).at(-1);
        return !!found;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found!;
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

