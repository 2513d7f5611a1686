// Import, export and bulk work on All Prompts: export a team's library as a JSON download,
// import it into another team through the preview, then add a tag to two prompts and archive them.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { LIBRARY_MSG } from "@promptly/shared";
import { createAccount, createOrganizationWith, createTeamWith, signIn, uniqueName } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { createPromptWith } from "./support/prompts.ts";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });
const card = (page: Page, title: string) => page.getByTestId("prompt-card").filter({ has: page.getByRole("heading", { name: title }) });

/** Makes `teamId` the active team and opens All Prompts filtered to it. */
async function openTeam(page: Page, organizationId: string, teamId: string) {
  await page.evaluate(
    ([organization, team]) => {
      localStorage.setItem("promptly.activeOrganizationId", organization!);
      localStorage.setItem("promptly.activeTeamId", team!);
    },
    [organizationId, teamId],
  );
  await page.goto(`/prompts?teamId=${teamId}`);
  await expect(page.getByRole("heading", { level: 1, name: "All Prompts" })).toBeVisible();
}

test("export a team's library as JSON, import it into another team after a preview, then tag and archive two prompts at once", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = consoleErrors(page);
  const admin = await createAccount({ fullName: "Libby Librarian", role: "team_lead" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "member" }]);
  const source = await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }], uniqueName("Source"));
  const target = await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }], uniqueName("Target"));
  const titles = [uniqueName("Greeting"), uniqueName("Farewell")];
  for (const title of titles) await createPromptWith({ organizationId: organization.id, teamId: source.id, authorId: admin.id, title, tags: ["kept"] });

  await signIn(page, admin.email);
  await page.goto("/");
  await openTeam(page, organization.id, source.id);
  await expect(card(page, titles[0]!)).toBeVisible();

  // Export: a JSON file in the documented format.
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Import / Export" }).click();
  await page.getByRole("menuitem", { name: "Export JSON" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^promptly-source-[0-9a-f]+-\d{4}-\d{2}-\d{2}\.json$/);
  const file = `/tmp/lib-e2e/${download.suggestedFilename()}`;
  await download.saveAs(file);
  const document = JSON.parse(readFileSync(file, "utf8")) as { format: string; prompts: { title: string }[] };
  expect(document.format).toBe("promptly.library");
  expect(document.prompts.map((prompt) => prompt.title).sort()).toEqual([...titles].sort());

  // Import into the other team: the preview first, then apply.
  await openTeam(page, organization.id, target.id);
  await expect(page.getByText("No prompts match these filters")).toBeVisible();
  await page.getByRole("button", { name: "Import / Export" }).click();
  await page.getByRole("menuitem", { name: "Import..." }).click();
  const dialog = page.getByRole("dialog", { name: `Import into ${target.name}` });
  await dialog.getByLabel("File").setInputFiles(file);
  await expect(dialog.getByRole("status").filter({ hasText: "2 new, 0 with new versions" })).toBeVisible();
  await expect(dialog.getByRole("row").filter({ hasText: "New prompt" })).toHaveCount(2);
  await dialog.getByRole("button", { name: "Apply import" }).click();
  await expect(toast(page, LIBRARY_MSG.importedToast(2, 2))).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card(page, titles[0]!)).toBeVisible();
  await expect(card(page, titles[1]!)).toBeVisible();

  // Bulk: choose both with the keyboard-reachable checkboxes, add a tag, then archive them.
  await page.getByRole("checkbox", { name: `Select ${titles[0]}` }).check();
  await page.getByRole("checkbox", { name: `Select ${titles[1]}` }).press("Space");
  const bar = page.getByRole("region", { name: "Selection" });
  await expect(bar.getByRole("status")).toHaveText("2 selected");
  await bar.getByRole("button", { name: "Actions" }).click();
  await page.getByRole("menuitem", { name: "Add tags..." }).click();
  const tags = page.getByRole("dialog", { name: "Add tags: 2 prompts" });
  await tags.getByLabel("Tags").fill("imported");
  await tags.getByRole("button", { name: "Add tags" }).click();
  await expect(toast(page, LIBRARY_MSG.bulkDone(2))).toBeVisible();
  await expect(card(page, titles[0]!).getByRole("list", { name: "Tags" })).toContainText("imported");
  await expect(card(page, titles[1]!).getByRole("list", { name: "Tags" })).toContainText("imported");

  await page.getByRole("checkbox", { name: `Select ${titles[0]}` }).check();
  await page.getByRole("checkbox", { name: `Select ${titles[1]}` }).check();
  await bar.getByRole("button", { name: "Archive" }).click();
  await expect(toast(page, LIBRARY_MSG.bulkDone(2)).last()).toBeVisible();
  await expect(page.getByText("No prompts match these filters")).toBeVisible();
  expect(errors).toEqual([]);
});

test("importing Langfuse prompts whose names Promptly refuses: the preview lists each rename to the nearest name it accepts, and applying makes them", async ({ page }) => {
  const errors = consoleErrors(page);
  const admin = await createAccount({ fullName: "Lana Langfuse", role: "team_lead" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "member" }]);
  const team = await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }], uniqueName("Migrated"));
  mkdirSync("/tmp/lib-e2e", { recursive: true });
  const file = `/tmp/lib-e2e/langfuse-${team.id}.json`;
  writeFileSync(file, JSON.stringify([{ name: "Support Reply", version: 1, type: "text", prompt: "Dear {{name}},", labels: ["staging"], tags: [] }]));

  await signIn(page, admin.email);
  await page.goto("/");
  await openTeam(page, organization.id, team.id);
  await page.getByRole("button", { name: "Import / Export" }).click();
  await page.getByRole("menuitem", { name: "Import..." }).click();
  const dialog = page.getByRole("dialog", { name: `Import into ${team.name}` });
  await dialog.getByLabel("File").setInputFiles(file);
  await expect(dialog.getByRole("status").filter({ hasText: "1 renamed to names Promptly accepts" })).toBeVisible();
  const row = dialog.getByRole("row").filter({ hasText: "New prompt" });
  await expect(row).toContainText("Support Reply renamed to");
  await expect(row).toContainText("support-reply");
  await expect(row).toContainText(LIBRARY_MSG.renamed("Support Reply"));
  await dialog.getByRole("button", { name: "Apply import" }).click();
  await expect(toast(page, LIBRARY_MSG.importedToast(1, 1))).toBeVisible();
  // The title keeps the name as it was; the name is the one the preview showed.
  await expect(card(page, "Support Reply")).toContainText("support-reply");
  expect(errors).toEqual([]);
});
