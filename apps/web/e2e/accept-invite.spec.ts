// The invitation page opened by someone signed in with another address: the whole message
// at 375 px, 'Go to the dashboard', and 'Sign out and continue', which keeps the invitation so that
// signing in with the invited address comes back to it and one click accepts. A refused accept is
// told once, on the page.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { MSG } from "@promptly/shared";
import { callMutation, createAccount, createOrganizationWith, createTeamWith, PASSWORD, signIn, uniqueEmail, withDb } from "./support/accounts.ts";
import { signInWithForm } from "./support/auth.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import { organizationRoleOf, teamMembersOf } from "./support/teams.ts";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** A team whose admin invites `inviteeEmail` (an account outside the organization is invited, not added). */
async function invitation(browser: Browser, inviteeEmail: string) {
  const owner = await createAccount();
  const organization = await createOrganizationWith([{ userId: owner.id, role: "admin" }]);
  const team = await createTeamWith(organization.id, [{ userId: owner.id, role: "admin" }]);
  const ownerContext = await browser.newContext({ baseURL: E2E.appUrl });
  const ownerPage = await ownerContext.newPage();
  await signIn(ownerPage, owner.email);
  const created = await callMutation(ownerPage.request, "invites.create", { teamId: team.id, email: inviteeEmail, role: "editor" });
  await ownerContext.close();
  expect(created.status).toBe("invited");
  return { organization, team, path: `/auth/accept-invite?id=${created.invite.id as string}` };
}

test.use({ viewport: { width: 375, height: 740 } });

test("signed in as someone else at 375 px: the whole message, and 'Go to the dashboard' keeps the session", async ({ page, browser }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const { path } = await invitation(browser, uniqueEmail("invited"));
  const other = await createAccount({ fullName: "Oscar Other" });
  await signIn(page, other.email);
  await page.goto(path);

  const card = page.getByTestId("accept-invite");
  const title = card.getByRole("alert").getByText(MSG.inviteWrongEmail, { exact: true });
  await expect(title).toBeVisible();
  // Not cut: the title wraps instead of being clamped to one line, and nothing scrolls sideways.
  const clipped = await title.evaluate((element) => element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1);
  expect(clipped).toBe(false);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expect(card).toContainText(`You are signed in as Oscar Other (${other.email}).`);
  await expect(card.getByRole("button", { name: "Accept Invitation" })).toHaveCount(0);
  await expect(card.getByRole("button", { name: "Sign out and continue" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await card.getByRole("link", { name: "Go to the dashboard" }).click();
  await expect(page).toHaveURL(`${E2E.appUrl}/`);
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();
  expect(errors).toEqual([]);
});

test("'Sign out and continue' keeps the invitation: sign in with the invited address, back on it, accept", async ({ page, browser }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const invitee = await createAccount({ fullName: "Ivy Invited" });
  const { organization, team, path } = await invitation(browser, invitee.email);
  const other = await createAccount({ fullName: "Oscar Other" });
  await signIn(page, other.email);
  await page.goto(path);

  await page.getByRole("button", { name: "Sign out and continue" }).click();
  // Back on the invitation, signed out, offered both ways in; each returns to it.
  await expect(page).toHaveURL(`${E2E.appUrl}${path}`);
  const card = page.getByTestId("accept-invite");
  const back = encodeURIComponent(path);
  await expect(card.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", `/auth/signin?redirect=${back}`);
  // Opened from the id alone (no emailed token): the usual sign-up, which comes back here.
  await expect(card.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", `/auth/signup?redirect=${back}`);
  await expect(card).not.toContainText(other.email);

  await card.getByRole("link", { name: "Sign In" }).click();
  await signInWithForm(page, invitee.email, PASSWORD);
  await expect(page).toHaveURL(`${E2E.appUrl}${path}`);
  await expect(page.getByText("Welcome!", { exact: true })).toBeVisible();
  await expect(card).toContainText(invitee.email);
  await card.getByRole("button", { name: "Accept Invitation" }).click();
  await expect(toast(page, "Invitation accepted")).toBeVisible();
  expect(await organizationRoleOf(organization.id, invitee.email)).toBe("member");
  expect(await teamMembersOf(team.id)).toContainEqual([invitee.email, "editor"]);
  expect(errors).toEqual([]);
});

test("an invitation cancelled while its page is open: accepting is refused once, on the page, not also in a toast", async ({ page, browser }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const invitee = await createAccount();
  const { path } = await invitation(browser, invitee.email);
  await signIn(page, invitee.email);
  await page.goto(path);
  const card = page.getByTestId("accept-invite");
  await expect(card.getByRole("button", { name: "Accept Invitation" })).toBeVisible();

  await withDb((client) => client.query(`DELETE FROM pending_invites WHERE id = $1`, [new URL(path, E2E.appUrl).searchParams.get("id")]));
  await card.getByRole("button", { name: "Accept Invitation" }).click();
  await expect(card.getByTestId("accept-invite-error")).toHaveText(MSG.inviteNotFound);
  await expect(page.getByText(MSG.inviteNotFound)).toHaveCount(1);
  await expect(toast(page, MSG.inviteNotFound)).toHaveCount(0);
  expect(errors).toEqual([]);
});
