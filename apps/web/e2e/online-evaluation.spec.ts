// The Production tab's Online evaluation card end to end: a team admin turns it on with a sample, a
// daily cap and an assertion, and finds it so after a reload; a viewer of the team sees the same
// settings and cannot change them. No serious axe finding. An assertion keeps its score's name when
// another is removed.
import { expect, test } from "@playwright/test";
import { createAccount, createOrganizationWith, createTeamWith, signIn, uniqueName } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { createPromptWith } from "./support/prompts.ts";

test("a team admin turns on online evaluation for a prompt; a viewer only reads it", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const errors = consoleErrors(page);
  const admin = await createAccount({ fullName: "Olga Online" });
  const viewer = await createAccount({ fullName: "Vic Viewer" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "admin" }, { userId: viewer.id, role: "member" }]);
  const team = await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }, { userId: viewer.id, role: "viewer" }], uniqueName("Online"));
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: admin.id, template: "Greet {{ name }}." });
  await signIn(page, admin.email);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`/prompts/${prompt.id}?tab=production`);

  const card = page.getByRole("region", { name: "Online evaluation" });
  await expect(card.getByTestId("online-evaluation-today")).toContainText("0 generations evaluated");
  await card.getByRole("switch", { name: "Evaluate production generations" }).click();
  await card.getByLabel("Sample (% of generations)").fill("25");
  await card.getByLabel("Daily cap for judging (US$)").fill("2");
  await card.getByRole("button", { name: "Add assertion" }).click();
  await card.getByLabel(/ of assertion 1$/).fill("Hello");
  await card.getByRole("button", { name: "Save online evaluation" }).click();
  await expect(page.getByText("Online evaluation saved")).toBeVisible();

  await page.reload();
  await expect(card.getByRole("switch", { name: "Evaluate production generations" })).toBeChecked();
  await expect(card.getByLabel("Sample (% of generations)")).toHaveValue("25");
  await expect(card.getByLabel(/ of assertion 1$/)).toHaveValue("Hello");
  expect(await seriousViolations(page)).toEqual([]);
  expect(errors).toEqual([]);

  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await signIn(viewerPage, viewer.email);
  await viewerPage.goto(`/prompts/${prompt.id}?tab=production`);
  const viewerCard = viewerPage.getByRole("region", { name: "Online evaluation" });
  await expect(viewerCard.getByLabel("Daily cap for judging (US$)")).toHaveValue("2");
  await expect(viewerCard.getByLabel("Daily cap for judging (US$)")).toBeDisabled();
  await expect(viewerCard).toContainText("A team admin changes the online evaluation.");
  await expect(viewerCard.getByRole("button", { name: "Save online evaluation" })).toHaveCount(0);
  await viewerContext.close();
});

test("an assertion keeps its score's name when the one before it is removed", async ({ page }) => {
  test.setTimeout(60_000);
  const admin = await createAccount({ fullName: "Nora Names" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "admin" }]);
  const team = await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }], uniqueName("Names"));
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: admin.id, template: "Greet {{ name }}." });
  await signIn(page, admin.email);
  await page.goto(`/prompts/${prompt.id}?tab=production`);

  const card = page.getByRole("region", { name: "Online evaluation" });
  const rows = card.getByTestId("assertion-row");
  await expect(card.getByTestId("online-evaluation-today")).toBeVisible();
  await card.getByRole("button", { name: "Add assertion" }).click();
  // A problem of one assertion shows beside it.
  await card.getByRole("button", { name: "Save online evaluation" }).click();
  await expect(rows.nth(0)).toContainText("The assertion 'contains' needs a value");
  await card.getByLabel(/ of assertion 1$/).fill("Hello");
  await card.getByRole("button", { name: "Add assertion" }).click();
  await card.getByLabel(/ of assertion 2$/).fill("Ada");
  await card.getByRole("button", { name: "Save online evaluation" }).click();
  await expect(rows.nth(0).getByText("Score: contains", { exact: true })).toBeVisible();
  await expect(rows.nth(1).getByText("Score: contains 2", { exact: true })).toBeVisible();

  await card.getByRole("button", { name: "Remove assertion 1" }).click();
  await card.getByRole("button", { name: "Add assertion" }).click();
  await card.getByLabel(/ of assertion 2$/).fill("Bye");
  await card.getByRole("button", { name: "Save online evaluation" }).click();
  // The second kept its series; the new one took neither its name nor the removed one's.
  await expect(rows.nth(1).getByText("Score: contains 3", { exact: true })).toBeVisible();
  await page.reload();
  await expect(card.getByLabel(/ of assertion 1$/)).toHaveValue("Ada");
  await expect(rows.nth(0).getByText("Score: contains 2", { exact: true })).toBeVisible();
  await expect(rows.nth(1).getByText("Score: contains 3", { exact: true })).toBeVisible();
});
