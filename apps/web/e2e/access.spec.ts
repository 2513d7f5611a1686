// Access that follows the team: someone invited as a team's admin keeps the app role 'user' and
// still opens the library and the Teams page of their team; a page someone may not open says why, in
// place; and a super user changes a person's app role from the organization members page.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { callMutation, createAccount, createOrganizationWith, createTeamWith, signIn, uniqueName, withDb } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import { createPromptWith } from "./support/prompts.ts";
import { recordSecret } from "./support/secrets.ts";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });
const mainNav = (page: Page) => page.getByTestId("sidebar").getByRole("navigation", { name: "Main" });

/** An organization with two teams and a team prompt in each; its admin invites `email` to the first as `role`. */
async function invitedTo(browser: Browser, email: string, role: "admin" | "editor" | "viewer") {
  const owner = await createAccount({ fullName: "Olive Owner" });
  const organization = await createOrganizationWith([{ userId: owner.id, role: "admin" }]);
  const team = await createTeamWith(organization.id, [{ userId: owner.id, role: "admin" }], uniqueName("Support"));
  const otherTeam = await createTeamWith(organization.id, [{ userId: owner.id, role: "admin" }], uniqueName("Finance"));
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: owner.id, title: uniqueName("Refund reply") });
  const hidden = await createPromptWith({ organizationId: organization.id, teamId: otherTeam.id, authorId: owner.id, title: uniqueName("Budget memo") });
  const ownerContext = await browser.newContext({ baseURL: E2E.appUrl });
  const ownerPage = await ownerContext.newPage();
  await signIn(ownerPage, owner.email);
  const created = await callMutation(ownerPage.request, "invites.create", { teamId: team.id, email, role });
  await ownerContext.close();
  return { organization, team, otherTeam, prompt, hidden, path: `/auth/accept-invite?id=${created.invite.id as string}` };
}

test("a team admin with app role 'user' opens All Prompts and the Teams page of his team and creates an API key", async ({ page, browser }) => {
  const errors = consoleErrors(page);
  const bob = await createAccount({ fullName: "Bob Builder", role: "user" });
  const { team, otherTeam, prompt, hidden, path } = await invitedTo(browser, bob.email, "admin");
  await signIn(page, bob.email);
  await page.goto(path);
  await page.getByTestId("accept-invite").getByRole("button", { name: "Accept Invitation" }).click();

  // Accepted as the team's admin, he lands on the Teams page of his team, not on the dashboard.
  await expect(page).toHaveURL(`${E2E.appUrl}/teams`);
  await expect(page.getByRole("heading", { level: 1, name: "Teams", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: team.name })).toBeVisible();
  await expect(page.getByText(otherTeam.name)).toHaveCount(0);
  await expect(mainNav(page).getByRole("link")).toHaveText(["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Analytics"]);
  // His role is the team's, not the organization's: no '(Org Admin)' note.
  await expect(page.getByTestId("sidebar-footer").locator("p").last()).toHaveText(/Role: User$/);

  const card = page.getByTestId("api-keys-card");
  await card.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await dialog.getByRole("textbox", { name: "Name" }).fill("Bob's deploy bot");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByRole("dialog", { name: "API key created" });
  const key = await shown.getByRole("textbox", { name: "API key" }).inputValue();
  recordSecret("API key", key);
  expect(key).toMatch(/^promptly_/);
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("api-key-row").filter({ hasText: "Bob's deploy bot" })).toBeVisible();
  const keys = await withDb(async (client) => (await client.query<{ team_id: string }>(`SELECT team_id FROM api_keys WHERE name = $1`, ["Bob's deploy bot"])).rows);
  expect(keys.filter((row) => row.team_id === team.id)).toHaveLength(1);
  expect(keys.filter((row) => row.team_id === otherTeam.id)).toHaveLength(0);

  // All Prompts shows what the visibility rule lets him read: his team's prompt, not the other team's.
  await mainNav(page).getByRole("link", { name: "All Prompts" }).click();
  await expect(page).toHaveURL(`${E2E.appUrl}/prompts`);
  await expect(page.getByRole("heading", { level: 1, name: "All Prompts" })).toBeVisible();
  await expect(page.getByRole("link", { name: new RegExp(prompt.title) })).toBeVisible();
  await expect(page.getByRole("link", { name: new RegExp(hidden.title) })).toHaveCount(0);
  await mainNav(page).getByRole("link", { name: "My Bookmarks" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "My Bookmarks" })).toBeVisible();
  await expect(page.getByText("Access Denied")).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("a page someone may not open sends them to the dashboard with a toast: why, what would open it and whom to ask", async ({ page, browser }) => {
  const errors = consoleErrors(page);
  const vera = await createAccount({ fullName: "Vera Viewer", role: "user" });
  const { path } = await invitedTo(browser, vera.email, "viewer");
  await signIn(page, vera.email);
  await page.goto(path);
  await page.getByTestId("accept-invite").getByRole("button", { name: "Accept Invitation" }).click();
  await expect(page).toHaveURL(`${E2E.appUrl}/`);
  // A viewer reads the library, but manages no team.
  await expect(mainNav(page).getByRole("link")).toHaveText(["Dashboard", "All Prompts", "My Bookmarks", "Analytics"]);

  await page.goto("/teams");
  await expect(page).toHaveURL(`${E2E.appUrl}/`);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  const denied = page.locator("[data-sonner-toast]").filter({ hasText: "Access Denied" });
  await expect(denied).toHaveCount(1);
  await expect(denied).toContainText("You don't have permission to access team management.");
  await expect(denied).toContainText("Team management opens for administrators, organization admins and team admins.");
  await expect(denied).toContainText("Ask an organization admin to make you a team's admin, or a super user to change your app role.");
  expect(await seriousViolations(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test("a super user changes a person's app role from the organization members page; it takes effect and is audited", async ({ page, browser }) => {
  const errors = consoleErrors(page);
  const root = await createAccount({ fullName: "Rita Root", superUser: true });
  const carl = await createAccount({ fullName: "Carl Climber", role: "user" });
  const organization = await createOrganizationWith([
    { userId: root.id, role: "admin" },
    { userId: carl.id, role: "member" },
  ]);
  await signIn(page, root.email);
  await page.goto(`/organizations/${organization.id}/members`);
  const row = page.getByTestId("organization-member-row").filter({ hasText: carl.email });
  const select = row.getByRole("combobox", { name: "Carl Climber's app role" });
  await expect(select).toHaveText("User");
  expect(await seriousViolations(page)).toEqual([]);

  await select.click();
  await page.getByRole("option", { name: "Team Lead" }).click();
  await expect(toast(page, "App role updated")).toContainText("Carl Climber is now Team Lead.");
  await expect(select).toHaveText("Team Lead");
  const stored = await withDb(async (client) => ({
    role: (await client.query<{ role: string }>(`SELECT role::text FROM user_roles WHERE user_id = $1`, [carl.id])).rows[0]?.role,
    events: (await client.query<{ before: unknown; after: unknown; actor_id: string }>(`SELECT before, after, actor_id::text FROM audit_events WHERE action = 'user.app_role' AND target_id = $1`, [carl.id])).rows,
  }));
  expect(stored).toEqual({ role: "team_lead", events: [{ before: { role: "user" }, after: { role: "team_lead" }, actor_id: root.id }] });

  // Carl, a team lead now, opens All Prompts; asking the server to make himself a super user is refused.
  const carlContext = await browser.newContext({ baseURL: E2E.appUrl });
  const carlPage = await carlContext.newPage();
  await signIn(carlPage, carl.email);
  await carlPage.goto("/prompts");
  await expect(carlPage.getByRole("heading", { level: 1, name: "All Prompts" })).toBeVisible();
  await expect(callMutation(carlPage.request, "users.setAppRole", { userId: carl.id, role: "super-user" })).rejects.toThrow("Only super users can change app roles.");
  await carlContext.close();
  expect(await withDb(async (client) => (await client.query(`SELECT 1 FROM profiles WHERE user_id = $1 AND super_user`, [carl.id])).rowCount)).toBe(0);
  expect(errors).toEqual([]);
});
