// The audit trail: an organization admin filters the audit log by action and actor and
// downloads the filtered rows as CSV; the prompt's Activity tab (newest first) shows a label move and rolls it back.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { callMutation, createAccount, createTeamInNewOrganization, signedInPage, signIn, withDb } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { activateTeam } from "./support/organizations.ts";
import { createPromptWith } from "./support/prompts.ts";

const labelVersion = (promptId: string, name: string) =>
  withDb(async (client) => (await client.query<{ version: number }>(`SELECT version FROM prompt_labels WHERE prompt_id = $1 AND name = $2`, [promptId, name])).rows[0]?.version ?? null);

test("an organization admin filters the audit log and downloads it; the Activity tab rolls a label move back", async ({ page, browser }) => {
  const errors = consoleErrors(page);
  const admin = await createAccount({ fullName: "Audra Admin" });
  const editor = await createAccount({ fullName: "Evan Editor" });
  const { organization, team } = await createTeamInNewOrganization([
    { userId: admin.id, role: "admin" },
    { userId: editor.id, role: "editor" },
  ]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: editor.id, name: "audit/greeting" });

  // The editor saves two versions through the API; the admin moves staging twice.
  const editorPage = await signedInPage(browser, editor.email);
  for (const template of ["Hello {{ name }}.", "Hello there, {{ name }}."]) {
    await callMutation(editorPage.request, "promptVersions.create", { promptId: prompt.id, type: "text", template });
  }
  await editorPage.context().close();
  await signIn(page, admin.email);
  await callMutation(page.request, "promptLabels.set", { promptId: prompt.id, label: "staging", version: 2 });
  await callMutation(page.request, "promptLabels.set", { promptId: prompt.id, label: "staging", version: 3 });

  await activateTeam(page, organization.id, team.id);
  await page.goto("/");
  await page.getByRole("link", { name: "Audit Log" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  const rows = page.getByRole("table", { name: "Audit events" }).locator("tbody tr");
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toContainText("Label moved");
  expect(await seriousViolations(page)).toEqual([]);

  const choose = async (filter: string, option: string) => {
    await page.getByRole("combobox", { name: filter }).click();
    await page.getByRole("option", { name: option }).click();
  };
  await choose("Action", "Version saved");
  await expect(rows).toHaveCount(2);
  await choose("Actor", "Audra Admin");
  await expect(page.getByText("No events match these filters.")).toBeVisible();
  await choose("Actor", "Evan Editor");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("Evan Editor");
  // The name, with the address on hover.
  await expect(rows.first().getByText("Evan Editor", { exact: true })).toHaveAttribute("title", editor.email);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  const csv = (await readFile((await download.path())!, "utf8")).trimEnd().split("\r\n");
  expect(csv[0]).toBe("time,actor,actor_kind,actor_id,action,target_type,target_id,target_name,team,before,after,ip");
  expect(csv.slice(1).map((line) => line.split(",").slice(1, 5))).toEqual([
    ["Evan Editor", "user", editor.id, "prompt.version"],
    ["Evan Editor", "user", editor.id, "prompt.version"],
  ]);

  // The Activity tab: versions and label moves, newest first; rolling back the last move of staging.
  await page.goto(`/prompts/${prompt.id}?tab=activity`);
  const activity = page.getByRole("list", { name: "Activity" }).getByRole("listitem");
  await expect(activity).toHaveCount(4);
  await expect(activity.nth(0)).toContainText(/Moved staging from v2 to v3/);
  expect(await seriousViolations(page)).toEqual([]);
  await activity.nth(0).getByRole("button", { name: "Roll back to here: staging to v2" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Roll back staging to v2?" });
  await expect(confirm).toContainText("This undoes Audra Admin's move of 'staging' from v2 to v3");
  await expect(confirm).toContainText("'staging' moves from v3 back to v2");
  await confirm.getByRole("button", { name: "Roll back", exact: true }).click();
  await expect(activity).toHaveCount(5);
  await expect(activity.nth(0)).toContainText(/Moved staging from v3 to v2/);
  expect(await labelVersion(prompt.id, "staging")).toBe(2);
  expect(errors).toEqual([]);
});
