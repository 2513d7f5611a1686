// People have names, and an invitation is a short way in: sign-up asks for a name, mentions
// find people by a few letters of their name (or their address) and the comment box shows the name
// picked, sign-up from an invitation is one step, and /signin, /signup lead to the auth pages.
// (The first-run super user's path is first-run.setup.ts: it needs an installation without organizations.)
import { expect, test, type Page } from "@playwright/test";
import { createAccount, createTeamInNewOrganization, signedInPage, callMutation, PASSWORD, signIn, uniqueEmail, uniqueName, withDb } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import { createPromptWith } from "./support/prompts.ts";
import { inviteLinkIn, organizationRoleOf, teamMembersOf, waitForMail } from "./support/teams.ts";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });


test("a mention found by typing two letters of a name; someone without a name by their address, shown by its local part", async ({ page }) => {
  const errors = consoleErrors(page);
  const editor = await createAccount({ fullName: "Eddie Editor" });
  const zoraName = uniqueName("Zora Quist");
  const zora = await createAccount({ fullName: zoraName });
  const nameless = await createAccount({ fullName: null, email: uniqueEmail("nameless") });
  const local = nameless.email.split("@")[0]!;
  const { organization, team } = await createTeamInNewOrganization([
    { userId: editor.id, role: "editor" },
    { userId: zora.id, role: "viewer" },
    { userId: nameless.id, role: "viewer" },
  ]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: nameless.id, title: uniqueName("Named prompt") });

  await signIn(page, editor.email);
  await page.goto(`/prompts/${prompt.id}?tab=comments`);
  // Its author has no name: the address's local part names them.
  await expect(page.getByText(`By ${local} · Updated`)).toBeVisible();
  const composer = page.getByRole("combobox", { name: "New comment" });
  const listbox = page.getByRole("listbox", { name: "People to mention" });
  await composer.click();
  await composer.pressSequentially("Hi @Zo");
  await expect(listbox.getByRole("option")).toHaveCount(1);
  await expect(listbox.getByRole("option", { name: zoraName })).toHaveAttribute("aria-selected", "true");
  await composer.press("Enter");
  // The box shows the name picked, not the stored token.
  await expect(composer).toHaveValue(`Hi @${zoraName} `);

  await composer.pressSequentially("and @namel");
  const option = listbox.getByRole("option", { name: local });
  await expect(option).toContainText(nameless.email);
  await expect(option).not.toContainText("Unnamed User");
  expect(await seriousViolations(page)).toEqual([]);
  await composer.press("Enter");
  await composer.pressSequentially("look");
  await expect(composer).toHaveValue(`Hi @${zoraName} and @${local} look`);

  await page.getByRole("button", { name: "Post comment" }).click();
  const posted = page.getByRole("article", { name: "Comment by Eddie Editor" }).first();
  await expect(posted.locator(".comment-mention")).toHaveText([`@${zoraName}`, `@${local}`]);
  await expect(composer).toHaveValue("");
  // Stored with the tokens, so the mentions name people by id.
  const body = await withDb(async (client) => (await client.query(`SELECT body FROM prompt_comments WHERE prompt_id = $1`, [prompt.id])).rows[0].body as string);
  expect(body).toBe(`Hi @[${zoraName}](user:${zora.id}) and @[${local}](user:${nameless.id}) look`);
  expect(errors).toEqual([]);
});

test("sign-up from an invitation in one step: the address filled in, a name, and the invitee is in the team", async ({ page, browser }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const owner = await createAccount({ fullName: "Olive Owner" });
  const { organization, team } = await createTeamInNewOrganization([{ userId: owner.id, role: "admin" }]);
  const inviteeEmail = uniqueEmail("joiner");
  const ownerPage = await signedInPage(browser, owner.email);
  await callMutation(ownerPage.request, "invites.create", { teamId: team.id, email: inviteeEmail, role: "editor" });
  await ownerPage.context().close();

  // From the emailed link: its token proves the address (the invitation's id alone does not).
  const link = inviteLinkIn(await waitForMail(inviteeEmail, new RegExp(`invited to join ${team.name}`)));
  await page.goto(link);
  await page.getByTestId("accept-invite").getByRole("link", { name: "Sign Up" }).click();
  await expect(page).toHaveURL(`${E2E.appUrl}/auth/signup${new URL(link, E2E.appUrl).search.replace("?id=", "?invite=")}`);
  await expect(page.getByText(`${team.name} in ${organization.name}`)).toBeVisible();
  const email = page.getByLabel("Email");
  await expect(email).toHaveValue(inviteeEmail);
  await expect(email).toHaveAttribute("readonly", "");
  expect(await seriousViolations(page)).toEqual([]);
  const name = uniqueName("Jo Joiner");
  await page.getByLabel("Full Name").fill(name);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign Up and Join" }).click();

  // Signed in, the invitation accepted, the team active: no confirmation mail, no second step.
  await expect(toast(page, "Invitation accepted")).toBeVisible();
  await expect(page).toHaveURL(`${E2E.appUrl}/`);
  await expect(page.getByTestId("team-selector")).toContainText(team.name);
  await page.getByRole("button", { name: "User menu" }).click();
  await expect(page.getByRole("menu")).toContainText(name);
  expect(await organizationRoleOf(organization.id, inviteeEmail)).toBe("member");
  expect(await teamMembersOf(team.id)).toContainEqual([inviteeEmail, "editor"]);
  const account = await withDb(
    async (client) =>
      (
        await client.query(`SELECT p.full_name AS "fullName", u.email_verified_at IS NOT NULL AS confirmed FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.email = $1`, [
          inviteeEmail,
        ])
      ).rows[0],
  );
  expect(account).toEqual({ fullName: name, confirmed: true });
  expect(errors).toEqual([]);
});

test("sign-up asks for an optional name and keeps it", async ({ page }) => {
  const email = uniqueEmail("signup-named");
  const name = uniqueName("Nora Named");
  await page.goto("/auth/signup");
  await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel("Full Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Registration successful!")).toBeVisible();
  const fullName = await withDb(
    async (client) => (await client.query(`SELECT p.full_name FROM profiles p JOIN users u ON u.id = p.user_id WHERE u.email = $1`, [email])).rows[0]?.full_name,
  );
  expect(fullName).toBe(name);
});

test("/signup and /signin lead to the auth pages, keeping the query", async ({ page }) => {
  await page.goto("/signup?redirect=%2Fteams");
  await expect(page).toHaveURL(`${E2E.appUrl}/auth/signup?redirect=%2Fteams`);
  await expect(page.getByRole("heading", { name: "Create an account" })).toBeVisible();
  await page.goto("/signin");
  await expect(page).toHaveURL(`${E2E.appUrl}/auth/signin`);
  await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
});
