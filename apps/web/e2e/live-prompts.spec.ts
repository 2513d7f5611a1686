// Live prompts are safe: archiving a prompt that serves production asks first (its labels, its recent
// fetches) and, where the team reviews production, goes through a change request; a closed request keeps
// its diff; History rows set a label on a version and restore a version, each saying what will change.
import { expect, test, type Page } from "@playwright/test";
import { REVIEW_MSG } from "@promptly/shared";
import { addOrganizationMember, callMutation, createAccount, createOrganizationWith, createTeamWith, signIn, withDb } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import { createPromptWith } from "./support/prompts.ts";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** A team with a team admin and an editor, and a prompt of the editor's with versions 1-2 (v2 with a described variable). */
async function liveTeam(requiredApprovals: number, visibility: "private" | "team" = "team") {
  const admin = await createAccount({ fullName: "Ada Admin" });
  const editor = await createAccount({ fullName: "Eda Editor" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "member" }]);
  await addOrganizationMember(organization.id, editor.id);
  const team = await createTeamWith(organization.id, [
    { userId: admin.id, role: "admin" },
    { userId: editor.id, role: "editor" },
  ]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: editor.id, title: "Support reply", template: "Reply to {{ question }}.", visibility });
  await withDb(async (client) => {
    await client.query(`INSERT INTO prompt_versions (prompt_id, version, type, template, variables, author_id) VALUES ($1, 2, 'text', $2, $3, $4)`, [
      prompt.id,
      "Reply kindly to {{ question }} in {{ tone }}.",
      JSON.stringify([{ name: "tone", type: "enum", options: ["warm", "brief"], description: "How it sounds" }]),
      editor.id,
    ]);
    await client.query(`UPDATE prompts SET latest_version = 2 WHERE id = $1`, [prompt.id]);
    await client.query(`UPDATE teams SET required_approvals = $2 WHERE id = $1`, [team.id, requiredApprovals]);
  });
  return { admin, editor, organization, team, prompt };
}

const label = (promptId: string, name: string) =>
  withDb(async (client) => (await client.query<{ version: number }>(`SELECT version FROM prompt_labels WHERE prompt_id = $1 AND name = $2`, [promptId, name])).rows[0]?.version ?? null);

test("archiving a production prompt under required review goes through a request", async ({ page, browser }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const { admin, editor, team, prompt } = await liveTeam(1);
  await withDb((client) => client.query(`INSERT INTO prompt_labels (prompt_id, name, version) VALUES ($1, 'production', 2), ($1, 'staging', 1)`, [prompt.id]));

  // A key of the team fetches it by production: 7 fetches counted today.
  const adminContext = await browser.newContext({ baseURL: E2E.appUrl });
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, admin.email);
  const key = (await callMutation(adminPage.request, "apiKeys.create", { teamId: team.id, name: "Support bot", labels: ["production"] })) as { id: string; key: string };
  await withDb((client) =>
    client.query(`INSERT INTO prompt_usage (prompt_id, version, api_key_id, day, label, count) VALUES ($1, 2, $2, (now() AT TIME ZONE 'UTC')::date, 'production', 7)`, [prompt.id, key.id]),
  );
  const fetchProduction = () => fetch(`${E2E.appUrl}/api/v1/prompts/${prompt.name}`, { headers: { authorization: `Bearer ${key.key}` } });

  // The editor (the author, who may archive a prompt of theirs) is asked first, and asks for a review.
  await signIn(page, editor.email);
  await page.goto(`/prompts/${prompt.id}`);
  await page.getByRole("button", { name: "Archive" }).click();
  const dialog = page.getByRole("dialog", { name: "Archive Support reply?" });
  await expect(dialog.getByRole("list", { name: "Labels it carries" })).toHaveText(/production → v2\s*staging → v1/);
  await expect(dialog.getByRole("status")).toHaveText("Fetched 7 times by API keys today and yesterday (UTC).");
  await expect(dialog).toContainText("archiving this prompt opens a change request that team admins approve");
  expect(await seriousViolations(page)).toEqual([]);
  // (Fetched after the count is read: this fetch is counted too, once the server flushes its counters.)
  expect((await fetchProduction()).status).toBe(200);
  await dialog.getByRole("textbox", { name: "Message for the reviewers" }).fill("Replaced by support/answer.");
  await dialog.getByRole("button", { name: "Request review" }).click();

  await page.waitForURL(/\/reviews\/[0-9a-f-]{36}$/);
  const requestUrl = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { level: 1, name: "Archive (production on v2)" })).toBeVisible();
  await expect(page.getByTestId("change-request-summary")).toHaveText("Production now: v2. Proposed: archive the prompt. Approvals: 0 of 1.");
  await expect(page.getByRole("region", { name: "What changes" })).toContainText("gets 404 until it is restored");
  const reason = page.getByTestId("approve-blocked-reason");
  await expect(reason).toHaveText(REVIEW_MSG.ownApproval);
  // The sentence is whole, and shown whole at a phone's width too: not cut off by its box.
  await expect(reason).toHaveText("You cannot approve your own change request: another team admin or an organization admin has to approve it");
  const fits = () => reason.evaluate((element) => element.scrollWidth <= element.clientWidth && element.scrollHeight <= element.clientHeight + 1);
  expect(await fits()).toBe(true);
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await fits()).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  expect((await fetchProduction()).status).toBe(200);

  // Nobody archives it directly, the team admin neither; the admin approves the request and it is archived.
  await expect(callMutation(adminPage.request, "prompts.archive", { id: prompt.id })).rejects.toThrow(REVIEW_MSG.archiveReviewRequired);
  await adminPage.goto(requestUrl);
  await adminPage.getByRole("button", { name: "Approve" }).click();
  await expect(toast(adminPage, REVIEW_MSG.archiveMergedToast)).toBeVisible();
  await expect.poll(() => withDb(async (client) => (await client.query(`SELECT 1 FROM prompts WHERE id = $1 AND archived_at IS NOT NULL`, [prompt.id])).rowCount)).toBe(1);
  expect((await fetchProduction()).status).toBe(404);
  // The Activity tab names the request as the audit trail does, the archive included, not a label moved to nowhere.
  await adminPage.goto(`/prompts/${prompt.id}?tab=activity`);
  const activity = adminPage.getByRole("list", { name: "Activity" });
  await expect(activity).toContainText("Change request approved: archive (production on v2)");
  await expect(activity).toContainText("Review requested: archive (production on v2)");

  // Archived by a reviewed request, it may be deleted; the confirmation names its labels and fetches too.
  await adminPage.goto(`/prompts/${prompt.id}`);
  await adminPage.getByRole("button", { name: "Delete" }).click();
  const remove = adminPage.getByRole("alertdialog", { name: "Delete Support reply?" });
  await expect(remove.getByRole("list", { name: "Labels it carries" })).toHaveText(/production → v2\s*staging → v1/);
  await expect(remove.getByRole("status")).toHaveText(/^Fetched \d+ times by API keys today and yesterday \(UTC\)\.$/);
  await remove.getByRole("textbox").fill(prompt.name);
  await remove.getByRole("button", { name: "Delete prompt" }).click();
  await adminPage.waitForURL((url) => !url.pathname.startsWith(`/prompts/${prompt.id}`));
  expect((await withDb((client) => client.query(`SELECT 1 FROM prompts WHERE id = $1`, [prompt.id]))).rowCount).toBe(0);

  await adminContext.close();
  expect(errors).toEqual([]);
});

test("a closed request still shows its diff", async ({ page, browser }) => {
  const errors = consoleErrors(page);
  const { admin, editor, prompt } = await liveTeam(1);
  await withDb((client) => client.query(`INSERT INTO prompt_labels (prompt_id, name, version) VALUES ($1, 'production', 1)`, [prompt.id]));
  await signIn(page, editor.email);
  const { id } = (await callMutation(page.request, "changeRequests.create", { promptId: prompt.id, label: "production", version: 2, message: "Kinder" })) as { id: string };
  const adminContext = await browser.newContext({ baseURL: E2E.appUrl });
  await signIn(await adminContext.newPage(), admin.email);
  await callMutation(adminContext.request, "changeRequests.approve", { id });
  await adminContext.close();
  expect(await label(prompt.id, "production")).toBe(2);

  await page.goto(`/reviews/${id}`);
  await expect(page.getByRole("main").getByText("Approved", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Changes from v1 to v2" })).toBeVisible();
  const template = page.getByRole("region", { name: "Template diff" });
  await expect(template).toContainText("Reply to {{ question }}.");
  await expect(template).toContainText("Reply kindly to {{ question }} in {{ tone }}.");
  // The variables as a table, not lines of JSON: question as it was, tone added with its fields.
  const variables = page.getByRole("table", { name: "Variables compared" });
  await expect(variables.getByRole("row", { name: /tone/ })).toContainText("Added");
  await expect(variables.getByRole("row", { name: /tone/ })).toContainText("warm, brief");
  await expect(variables.getByRole("row", { name: /question/ })).toContainText("Unchanged");
  await expect(page.getByTestId("version-diff")).not.toContainText('"name"');
  expect(await seriousViolations(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test("History rows set a label on a version and restore a version, each saying what will change", async ({ page }) => {
  const errors = consoleErrors(page);
  const { editor, prompt } = await liveTeam(0);
  await withDb((client) => client.query(`INSERT INTO prompt_labels (prompt_id, name, version) VALUES ($1, 'staging', 2)`, [prompt.id]));
  await signIn(page, editor.email);
  await page.goto(`/prompts/${prompt.id}?tab=history`);
  const v1 = page.getByRole("list", { name: "Versions" }).locator('li[data-version="1"]');

  // Set label... on v1: the form says where staging moves before it is saved.
  await v1.getByRole("button", { name: "Set label on v1" }).click();
  const setLabel = page.getByRole("dialog", { name: "Set label on v1" });
  await setLabel.getByRole("combobox", { name: "Label name" }).fill("staging");
  await expect(setLabel.getByTestId("label-change")).toHaveText("'staging' moves from v2 to v1. Code that fetches 'staging' gets v1.");
  expect(await seriousViolations(page)).toEqual([]);
  await setLabel.getByRole("button", { name: "Save label" }).click();
  await expect(setLabel).toBeHidden();
  expect(await label(prompt.id, "staging")).toBe(1);

  // Restore v1 as a new version: it says which version it becomes and that no label moves.
  await v1.getByRole("button", { name: "Restore as a new version: v1" }).click();
  const restore = page.getByRole("alertdialog", { name: "Restore v1 as v3?" });
  await expect(restore).toContainText("saved as a new version, v3, which becomes 'latest'. No label moves: 'staging' stays on v1.");
  expect(await seriousViolations(page)).toEqual([]);
  await restore.getByRole("button", { name: "Restore as v3" }).click();
  await expect(page.getByRole("list", { name: "Versions" }).locator('li[data-version="3"]')).toContainText("Restore v1");
  const v3 = await withDb(async (client) => (await client.query<{ template: string }>(`SELECT template FROM prompt_versions WHERE prompt_id = $1 AND version = 3`, [prompt.id])).rows[0]);
  expect(v3?.template).toBe("Reply to {{ question }}.");
  expect(await label(prompt.id, "staging")).toBe(1);
  expect(errors).toEqual([]);
});

test("a private prompt under required review offers no review of production: the form says to share it first, and nothing is sent", async ({ page }) => {
  const errors = consoleErrors(page);
  const { editor, prompt } = await liveTeam(1, "private");
  await withDb((client) => client.query(`INSERT INTO prompt_labels (prompt_id, name, version) VALUES ($1, 'production', 1)`, [prompt.id]));
  await signIn(page, editor.email);
  await page.goto(`/prompts/${prompt.id}?tab=history`);
  const v2 = page.getByRole("list", { name: "Versions" }).locator('li[data-version="2"]');
  await v2.getByRole("button", { name: "Set label on v2" }).click();
  const setLabel = page.getByRole("dialog", { name: "Set label on v2" });
  await setLabel.getByRole("combobox", { name: "Label name" }).fill("production");
  await expect(setLabel.getByRole("button", { name: "Request review" })).toHaveCount(0);
  await setLabel.getByRole("button", { name: "Save label" }).click();
  await expect(setLabel).toContainText(REVIEW_MSG.privatePrompt);
  expect(await label(prompt.id, "production")).toBe(1);
  expect(await withDb(async (client) => (await client.query(`SELECT 1 FROM change_requests WHERE prompt_id = $1`, [prompt.id])).rowCount)).toBe(0);
  expect(errors).toEqual([]);
});
