// First run: on a fresh installation the first account is a super user with no
// organization (global-setup.ts makes it before any test; this runs before every spec, while no
// organization exists yet). It is offered 'Create an organization' rather than told to ask for an
// invitation, the slug follows the name, and the next step is the organization's first team.
import { expect, test as setup } from "@playwright/test";
import { signIn, uniqueName, withDb } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";

setup("a super user on a fresh install creates the first organization, then its first team", async ({ page }) => {
  const organizations = await withDb(async (client) => (await client.query(`SELECT count(*)::int AS n FROM organizations`)).rows[0].n as number);
  // scripts/e2e-server.mjs starts every run on an empty data directory and this project runs before
  // all others: an organization here means that assumption broke, which must fail, not skip.
  expect(organizations, "a fresh installation has no organization").toBe(0);
  const errors = consoleErrors(page);
  await signIn(page, "root@example.test");
  await page.goto("/");

  const empty = page.getByRole("region", { name: "You are not in an organization yet" });
  await expect(empty).toContainText("New Prompt needs a team");
  await expect(empty).not.toContainText("Ask an administrator");
  expect(await seriousViolations(page)).toEqual([]);
  await empty.getByRole("button", { name: "Create an organization" }).click();

  const dialog = page.getByRole("dialog", { name: "Create Organization" });
  const name = uniqueName("First Org");
  await dialog.getByLabel("Organization Name").fill(name);
  // The slug is derived from the name.
  await expect(dialog.getByLabel("Organization Slug")).toHaveValue(name.toLowerCase().replace(/ /g, "-"));
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Create Organization" }).click();

  // Next: the Teams page, and its first team.
  await expect(page).toHaveURL(`${E2E.appUrl}/teams`);
  await page.getByRole("button", { name: "Create First Team" }).click();
  const teamDialog = page.getByRole("dialog", { name: "Create New Team" });
  await expect(teamDialog).toContainText(`Creating team in organization ${name}`);
  await teamDialog.getByLabel("Team Name").fill("Writers");
  await teamDialog.getByRole("button", { name: "Create Team" }).click();
  await expect(page.getByTestId("team-card").filter({ hasText: "Writers" })).toBeVisible();

  // New Prompt now has a team to put the prompt in.
  await page.getByRole("link", { name: "New Prompt" }).click();
  await expect(page.getByRole("form", { name: "New Prompt" })).toBeVisible();
  expect(errors).toEqual([]);
});
