// One message per failure: a refusal about a field is told under that field and not also in
// a toast. Here the prompt editor, whose name is taken by someone else between the live check and Save.
import { expect, test } from "@playwright/test";
import { PROMPT_MSG } from "@promptly/shared";
import { createAccount, createOrganizationWith, createTeamWith, signIn, uniqueName } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { createPromptWith } from "./support/prompts.ts";

test("a prompt name taken meanwhile is refused once, under the name, not also in a toast", async ({ page }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const editor = await createAccount({ fullName: "Eddie Editor" });
  const organization = await createOrganizationWith([{ userId: editor.id, role: "member" }]);
  const team = await createTeamWith(organization.id, [{ userId: editor.id, role: "editor" }]);
  const title = uniqueName("Raced Name");
  const name = title.toLowerCase().replace(/\s+/g, "-");

  await signIn(page, editor.email);
  await page.goto("/prompts/new");
  await expect(page.getByRole("heading", { level: 1, name: "New Prompt" })).toBeVisible();
  await page.getByLabel("Title", { exact: true }).fill(title);
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
  await page.getByRole("textbox", { name: "Template" }).fill("Summarise {{ text }}.");
  await expect(page.getByText(PROMPT_MSG.nameAvailable)).toBeVisible();

  // Someone else saves a prompt with this name after the check said it was free.
  await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: editor.id, name, title: "Someone else's" });
  await page.getByRole("button", { name: "Create prompt" }).click();

  await expect(page.getByRole("alert").filter({ hasText: PROMPT_MSG.nameTaken })).toBeVisible();
  await expect(page.getByText(PROMPT_MSG.nameTaken)).toHaveCount(1);
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: PROMPT_MSG.nameTaken })).toHaveCount(0);
  await expect(page).toHaveURL(/\/prompts\/new/);
  expect(errors).toEqual([]);
});
