// Closing a dialog with Escape returns focus to the control that opened it, also when that
// control was an entry of a menu or a popover, which is gone by then: focus returns to the menu's button.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { createAccount, createOrganizationWith, createTeamWith, signIn } from "./support/accounts.ts";
import { activateTeam } from "./support/organizations.ts";
import { createPromptWith } from "./support/prompts.ts";

async function escapeReturnsTo(page: Page, dialog: Locator, opener: Locator) {
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
}

test("Escape returns focus to what opened each dialog", async ({ page }) => {
  test.setTimeout(90_000);
  const person = await createAccount({ fullName: "Focus Person", superUser: true });
  const organization = await createOrganizationWith([{ userId: person.id, role: "admin" }]);
  const team = await createTeamWith(organization.id, [{ userId: person.id, role: "admin" }]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: person.id, title: "Focus prompt" });
  await signIn(page, person.email);
  // A super user sees every organization of the database (other tests' too): this test's is the active one.
  await activateTeam(page, organization.id, team.id);

  // Team selector → Create New Team (the popover is gone when the dialog closes).
  await page.goto("/teams");
  const selector = page.getByTestId("team-selector");
  await selector.click();
  await page.getByRole("option", { name: "Create New Team" }).click();
  await escapeReturnsTo(page, page.getByRole("dialog", { name: "Create New Team" }), selector);

  // Teams page: Rename and Delete.
  for (const [button, dialog] of [["Rename", /Rename/], ["Delete", /Delete/]] as const) {
    const opener = page.getByRole("main").getByRole("button", { name: button, exact: true }).first();
    await opener.click();
    await escapeReturnsTo(page, page.getByRole("dialog", { name: dialog }).or(page.getByRole("alertdialog", { name: dialog })), opener);
  }

  // Organizations: New Organization, and Rename from a row's actions menu.
  await page.goto("/organizations");
  const create = page.getByRole("button", { name: "New Organization" });
  await create.click();
  await escapeReturnsTo(page, page.getByRole("dialog"), create);
  const actions = page.getByRole("button", { name: `Actions for ${organization.name}` });
  await actions.click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
  await escapeReturnsTo(page, page.getByRole("dialog", { name: "Edit Organization" }), actions);

  // The prompt page's dialogs.
  await page.goto(`/prompts/${prompt.id}`);
  for (const name of ["Set label", "Edit details", "Rename"]) {
    const opener = page.getByTestId("prompt-actions").getByRole("button", { name, exact: true });
    await opener.click();
    await escapeReturnsTo(page, page.getByRole("dialog"), opener);
  }

  // The mobile sidebar.
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/");
  const toggle = page.getByRole("button", { name: "Toggle sidebar" });
  await toggle.click();
  await escapeReturnsTo(page, page.getByRole("dialog", { name: "Sidebar" }), toggle);
});
