// A split release on the prompt page: production serving v1 and v2 by weight is shown with both, and a
// team admin ends it in one step: promoting v2 moves production at once; where the team reviews
// production, rolling back still does (the version it keeps held production), no review needed. A split
// changed behind the page (another admin split it again) is not ended: the page says so and shows it anew.
import { expect, test, type Page } from "@playwright/test";
import { PROMPT_MSG } from "@promptly/shared";
import { addOrganizationMember, createAccount, createOrganizationWith, createTeamWith, signIn, withDb } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { createPromptWith } from "./support/prompts.ts";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

const production = (promptId: string) =>
  withDb(async (client) =>
    (await client.query<{ version: number; candidate: number | null; weight: number | null }>(
      `SELECT version, candidate_version AS candidate, candidate_weight AS weight FROM prompt_labels WHERE prompt_id = $1 AND name = 'production'`,
      [promptId],
    )).rows[0],
  );

/** A team (requiring `requiredApprovals`) whose prompt's production serves v1 90%, v2 10%; its admin signed in on `page`. */
async function splitPrompt(page: Page, requiredApprovals: number, name: string) {
  const admin = await createAccount({ fullName: "Sam Splitter" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "member" }]);
  const editor = await createAccount({ fullName: "Ed Itor" });
  await addOrganizationMember(organization.id, editor.id);
  const team = await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }, { userId: editor.id, role: "editor" }]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: editor.id, name, template: "Hello {{ name }}." });
  await withDb(async (client) => {
    await client.query(`INSERT INTO prompt_versions (prompt_id, version, type, template, author_id) VALUES ($1, 2, 'text', 'Hi {{ name }}!', $2)`, [prompt.id, editor.id]);
    await client.query(`UPDATE prompts SET latest_version = 2 WHERE id = $1`, [prompt.id]);
    await client.query(`INSERT INTO prompt_labels (prompt_id, name, version, candidate_version, candidate_weight) VALUES ($1, 'production', 1, 2, 10)`, [prompt.id]);
    await client.query(`UPDATE teams SET required_approvals = $2 WHERE id = $1`, [team.id, requiredApprovals]);
  });
  await signIn(page, admin.email);
  await page.goto(`/prompts/${prompt.id}`);
  return prompt;
}

test("a split shows both versions, and promoting the candidate is one step", async ({ page }) => {
  const errors = consoleErrors(page);
  const prompt = await splitPrompt(page, 0, "support/split-promote");
  const split = page.getByTestId("split-production");
  await expect(split).toContainText("production: v1 90% · v2 10%");
  await expect(page.getByRole("list", { name: "Labels" })).toContainText("production: v1 90% · v2 10%");
  await split.getByRole("button", { name: "Promote v2" }).click();
  await expect(toast(page, "'production' now points at v2")).toBeVisible();
  await expect(split).toBeHidden();
  await expect(page.getByRole("list", { name: "Labels" })).toContainText("production → v2");
  expect(await production(prompt.id)).toEqual({ version: 2, candidate: null, weight: null });
  expect(errors).toEqual([]);
});

test("where the team reviews production, its admin rolls a split back in one step: the version it keeps held production", async ({ page }) => {
  const prompt = await splitPrompt(page, 1, "support/split-rollback");
  await page.getByTestId("split-production").getByRole("button", { name: "Roll back" }).click();
  await expect(toast(page, "'production' rolled back to v1")).toBeVisible();
  await expect(page.getByTestId("split-production")).toBeHidden();
  expect(await production(prompt.id)).toEqual({ version: 1, candidate: null, weight: null });
});

test("a split changed since the page showed it is not promoted: the refusal is told and the split shown as it is now", async ({ page }) => {
  const prompt = await splitPrompt(page, 0, "support/split-changed");
  const split = page.getByTestId("split-production");
  await expect(split).toContainText("production: v1 90% · v2 10%");
  // Another admin splits production again, to v3, while this page still shows v2.
  await withDb(async (client) => {
    await client.query(`INSERT INTO prompt_versions (prompt_id, version, type, template) VALUES ($1, 3, 'text', 'Hey {{ name }}!')`, [prompt.id]);
    await client.query(`UPDATE prompts SET latest_version = 3 WHERE id = $1`, [prompt.id]);
    await client.query(`UPDATE prompt_labels SET candidate_version = 3 WHERE prompt_id = $1 AND name = 'production'`, [prompt.id]);
  });
  await split.getByRole("button", { name: "Promote v2" }).click();
  await expect(toast(page, "The split was not ended")).toContainText(PROMPT_MSG.splitChanged);
  await expect(split).toContainText("production: v1 90% · v3 10%");
  await expect(split.getByRole("button", { name: "Promote v3" })).toBeVisible();
  expect(await production(prompt.id)).toEqual({ version: 1, candidate: 3, weight: 10 });
});
