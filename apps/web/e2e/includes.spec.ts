// Prompts that include prompts on the prompt page, at 375 px: the Template tab lists what
// the version includes and which prompts use it, each linked; Try it compiles the included text.
import { expect, test } from "@playwright/test";
import { createAccount, createOrganizationWith, createTeamWith, signIn, uniqueName, withDb } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { createPromptWith } from "./support/prompts.ts";

test.use({ viewport: { width: 375, height: 740 } });

test("Includes and Used by link the two prompts, and Try it compiles the included text", async ({ page }) => {
  const errors = consoleErrors(page);
  const author = await createAccount({ fullName: "Ines Includer" });
  const organization = await createOrganizationWith([{ userId: author.id, role: "member" }]);
  const team = await createTeamWith(organization.id, [{ userId: author.id, role: "editor" }]);
  const tone = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: author.id, title: uniqueName("Tone"), template: "Be {{ tone }}." });
  const reply = await createPromptWith({
    organizationId: organization.id, teamId: team.id, authorId: author.id, title: uniqueName("Reply"),
    template: `Hello {{ name }}. @@@langfusePrompt:name=${tone.name}|label=latest@@@`,
  });
  // The edge a save stores (these fixtures write the database directly).
  await withDb((client) =>
    client.query(
      `INSERT INTO prompt_dependencies (parent_version_id, team_id, child_name, child_label)
       SELECT v.id, $2, $3, 'latest' FROM prompt_versions v WHERE v.prompt_id = $1 AND v.version = 1`,
      [reply.id, team.id, tone.name],
    ),
  );

  await signIn(page, author.email);
  await page.goto(`/prompts/${reply.id}`);
  await expect(page.getByRole("heading", { level: 1, name: reply.title })).toBeVisible();
  const includes = page.getByRole("region", { name: "Includes" });
  await expect(includes).toContainText(`${tone.name} (label latest)`);
  await expect(page.getByRole("region", { name: "Used by" })).toContainText("No other prompt includes this one.");
  // Nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  await page.getByRole("tab", { name: "Try it" }).click();
  await page.getByLabel("name", { exact: true }).fill("Ada");
  await page.getByLabel("tone", { exact: true }).fill("warm");
  await page.getByRole("button", { name: "Compile" }).click();
  await expect(page.getByTestId("compile-result")).toContainText("Hello Ada. Be warm.");

  await page.getByRole("tab", { name: "Template" }).click();
  await includes.getByRole("link", { name: tone.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: tone.title })).toBeVisible();
  const usedBy = page.getByRole("region", { name: "Used by" });
  await expect(usedBy.getByRole("link", { name: reply.name })).toBeVisible();
  await expect(usedBy).toContainText("v1, by label latest");
  expect(errors).toEqual([]);
});
