// Notifications end to end: an admin adds a colleague to a team; the colleague's bell counts
// it, the notification leads to its page and is then read; the email arrives with its settings link;
// 'Mark all as read'; with email notifications off no mail is queued but the bell still counts; with
// in-app notifications off there is no bell. The e2e server waits 1 s for a digest (e2e-server.mjs).
import { expect, test, type Browser, type Page } from "@playwright/test";
import { NOTIFICATION_MSG } from "@promptly/shared";
import { callMutation, createAccount, createOrganizationWith, createTeamWith, PASSWORD, signIn, withDb } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import { waitForMail } from "./support/teams.ts";

const bell = (page: Page) => page.getByRole("banner").getByRole("button", { name: /^Notifications/ });

/** An organization with an admin and a colleague, and `teams` teams the admin runs (the colleague in none). */
async function world(teams: number) {
  const admin = await createAccount({ fullName: "Ada Admin" });
  const colleague = await createAccount({ fullName: "Cole Colleague" });
  const organization = await createOrganizationWith([
    { userId: admin.id, role: "member" },
    { userId: colleague.id, role: "member" },
  ]);
  const created = [];
  for (let i = 0; i < teams; i++) created.push(await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }]));
  return { admin, colleague, organization, teams: created };
}

/** The admin, signed in in a browser context of their own, adds `email` to the team (invites.create adds a colleague at once). */
async function addToTeam(browser: Browser, admin: { email: string }, teamId: string, email: string) {
  const context = await browser.newContext({ baseURL: E2E.appUrl });
  try {
    await callMutation(context.request, "auth.signIn", { email: admin.email, password: PASSWORD });
    const result = await callMutation(context.request, "invites.create", { teamId, email, role: "viewer" });
    expect(result).toMatchObject({ status: "added" });
  } finally {
    await context.close();
  }
}

const queuedMails = (recipient: string) =>
  withDb(async (client) => (await client.query(`SELECT count(*)::int AS n FROM outbox WHERE recipient = $1`, [recipient])).rows[0].n as number);

test("added to a team: the bell counts it, the link lands on the dashboard with that team and reads it, the email arrives; Mark all as read", async ({ page, browser }) => {
  const errors = consoleErrors(page);
  const { admin, colleague, teams } = await world(3);
  await signIn(page, colleague.email);
  await page.goto("/settings/profile");
  await expect(bell(page)).toHaveAccessibleName("Notifications");

  await addToTeam(browser, admin, teams[0]!.id, colleague.email);
  // The count is asked for every 30 s and when the window regains focus; a reload asks at once.
  await page.reload();
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
  // The mail goes out after the digest window (a notification read by then is not mailed).
  const mail = await waitForMail(colleague.email, new RegExp(`^Ada Admin added you to team ${teams[0]!.name}$`));
  expect(mail.text).toContain(`Open in Promptly: ${E2E.appUrl}/?organizationId=`);
  expect(mail.html).toContain(`href="${E2E.appUrl}/settings/notifications"`);
  await bell(page).click();
  const panel = page.getByRole("dialog", { name: "Notifications" });
  const link = panel.getByRole("link", { name: `Ada Admin added you to team ${teams[0]!.name} (unread)` });
  await expect(link).toBeVisible();
  await link.click();
  // The dashboard, with the new team made active.
  await expect(page).toHaveURL(`${E2E.appUrl}/`);
  await expect(page.getByTestId("team-selector")).toContainText(teams[0]!.name);
  await expect(panel).toBeHidden();
  await expect(bell(page)).toHaveAccessibleName("Notifications");

  await addToTeam(browser, admin, teams[1]!.id, colleague.email);
  await addToTeam(browser, admin, teams[2]!.id, colleague.email);
  await page.reload();
  await expect(bell(page)).toHaveAccessibleName("Notifications, 2 unread");
  await bell(page).click();
  const items = panel.getByRole("list", { name: "Notifications, newest first" }).getByRole("link");
  await expect(items).toHaveText([
    new RegExp(`added you to team ${teams[2]!.name}`),
    new RegExp(`added you to team ${teams[1]!.name}`),
    new RegExp(`added you to team ${teams[0]!.name}`),
  ]);
  await panel.getByRole("button", { name: "Mark all as read" }).click();
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  await expect(panel.getByRole("button", { name: "Mark all as read" })).toBeDisabled();
  await expect(panel.getByText("(unread)")).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("email notifications off: the bell counts and no mail is queued; in-app off: no bell", async ({ page, browser }) => {
  const errors = consoleErrors(page);
  const { admin, colleague, teams } = await world(1);
  await signIn(page, colleague.email);
  await page.goto("/settings/notifications");
  await expect(page.getByText(NOTIFICATION_MSG.pushNotSent)).toBeVisible();
  await page.getByRole("switch", { name: "Email Notifications" }).click();
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Notification settings saved", { exact: true })).toBeVisible();

  await addToTeam(browser, admin, teams[0]!.id, colleague.email);
  await page.reload();
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
  expect(await queuedMails(colleague.email)).toBe(0);

  await page.getByRole("switch", { name: "In-App Notifications" }).click();
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(bell(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("switch", { name: "In-App Notifications" })).not.toBeChecked();
  await expect(bell(page)).toHaveCount(0);
  expect(errors).toEqual([]);
});
