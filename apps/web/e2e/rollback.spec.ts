// Never trapped in an incident: where the team requires a review, its only admin rolls production back
// from the History tab to a version that held it before, after a confirmation naming both versions;
// production moves at once and the audit trail says it was a rollback. A version that never held
// production offers no rollback, and an editor sees none.
import { expect, test, type Page } from "@playwright/test";
import { addOrganizationMember, createAccount, createOrganizationWith, createTeamWith, signIn, withDb } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { createPromptWith } from "./support/prompts.ts";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

test("the only admin rolls production back from the History tab, whatever the team's review", async ({ page, browser }) => {
  const errors = consoleErrors(page);
  const admin = await createAccount({ fullName: "Una Admin" });
  const editor = await createAccount({ fullName: "Ed Itor" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "member" }]);
  await addOrganizationMember(organization.id, editor.id);
  const team = await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }, { userId: editor.id, role: "editor" }]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: editor.id, name: "support/incident", template: "Version one" });
  await withDb(async (client) => {
    for (const version of [2, 3]) {
      await client.query(`INSERT INTO prompt_versions (prompt_id, version, type, template, author_id) VALUES ($1, $2, 'text', $3, $4)`, [prompt.id, version, `Version ${version}`, editor.id]);
    }
    await client.query(`UPDATE prompts SET latest_version = 3 WHERE id = $1`, [prompt.id]);
    await client.query(`INSERT INTO prompt_labels (prompt_id, name, version) VALUES ($1, 'production', 2)`, [prompt.id]);
    // The label history: production went to v1, then from v1 to v2; v3 never held it.
    const move = `INSERT INTO audit_events (organization_id, team_id, prompt_id, actor_kind, actor_id, action, target_type, target_id, before, after, created_at)
                  VALUES ($1, $2, $3::uuid, 'user', $4, 'prompt.label.set', 'prompt', $3::text, $5::jsonb, $6::jsonb, now() - $7::interval)`;
    await client.query(move, [organization.id, team.id, prompt.id, admin.id, JSON.stringify({ label: "production", version: null }), JSON.stringify({ label: "production", version: 1 }), "2 days"]);
    await client.query(move, [organization.id, team.id, prompt.id, admin.id, JSON.stringify({ label: "production", version: 1 }), JSON.stringify({ label: "production", version: 2 }), "1 day"]);
    await client.query(`UPDATE teams SET required_approvals = 1, required_pass_rate = 90 WHERE id = $1`, [team.id]);
  });

  await signIn(page, admin.email);
  await page.goto(`/prompts/${prompt.id}?tab=history`);
  const row = (version: number) => page.locator(`li[data-version="${version}"]`);
  await expect(row(1).getByRole("button", { name: "Roll back to v1" })).toBeVisible();
  await expect(row(2).getByRole("button", { name: /Roll back/ })).toHaveCount(0);
  await expect(row(3).getByRole("button", { name: /Roll back/ })).toHaveCount(0);

  await row(1).getByRole("button", { name: "Roll back to v1" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByRole("heading", { name: "Roll back production from v2 to v1?" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Roll back", exact: true }).click();
  await expect(toast(page, "Production rolled back to v1")).toBeVisible();
  await expect(dialog).toBeHidden();
  // Now v2 held production before and is offered; v1, where production is, is not.
  await expect(row(2).getByRole("button", { name: "Roll back to v2" })).toBeVisible();
  await expect(row(1).getByRole("button", { name: /Roll back/ })).toHaveCount(0);
  const state = await withDb(async (client) => ({
    version: (await client.query<{ version: number }>(`SELECT version FROM prompt_labels WHERE prompt_id = $1 AND name = 'production'`, [prompt.id])).rows[0]?.version,
    actions: (await client.query<{ action: string }>(`SELECT action FROM audit_events WHERE prompt_id = $1 ORDER BY created_at, seq`, [prompt.id])).rows.map((r) => r.action),
  }));
  expect(state).toEqual({ version: 1, actions: ["prompt.label.set", "prompt.label.set", "prompt.label.rolled_back"] });
  expect(errors).toEqual([]);

  // An editor, who may not move production, is offered no rollback.
  const editorContext = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const editorPage = await editorContext.newPage();
  await signIn(editorPage, editor.email);
  await editorPage.goto(`/prompts/${prompt.id}?tab=history`);
  await expect(editorPage.locator(`li[data-version="2"]`).getByRole("button", { name: "Set label on v2" })).toBeVisible();
  await expect(editorPage.getByRole("button", { name: /^Roll back to/ })).toHaveCount(0);
  await editorContext.close();
});
