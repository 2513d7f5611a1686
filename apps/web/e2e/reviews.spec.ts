// Reviewed promotion to production: a team admin sets the team's required
// approvals to 1 on the Teams page; an editor's attempt to move production opens a change request
// whose page shows the diff; the author cannot approve their own; a team admin approves, the label
// moves, and a program fetching the prompt with an API key gets the new version.
import { expect, test, type Page } from "@playwright/test";
import { REVIEW_MSG } from "@promptly/shared";
import { addOrganizationMember, callMutation, createAccount, createOrganizationWith, createTeamWith, signIn, withDb } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import { createPromptWith } from "./support/prompts.ts";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

const production = (promptId: string) =>
  withDb(async (client) => (await client.query<{ version: number }>(`SELECT version FROM prompt_labels WHERE prompt_id = $1 AND name = 'production'`, [promptId])).rows[0]?.version ?? null);

test("with one approval required, an editor's production move becomes a change request that a team admin approves", async ({ page, browser }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  // The admin may open /teams (an app administrator); the editor is a plain user of the organization.
  const admin = await createAccount({ fullName: "Rhea Reviewer", role: "administrator" });
  const editor = await createAccount({ fullName: "Eli Editor" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "member" }]);
  await addOrganizationMember(organization.id, editor.id);
  const team = await createTeamWith(organization.id, [
    { userId: admin.id, role: "admin" },
    { userId: editor.id, role: "editor" },
  ]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: editor.id, name: "support/reply", template: "Reply to {{ question }}." });
  await withDb(async (client) => {
    await client.query(`INSERT INTO prompt_versions (prompt_id, version, type, template, author_id) VALUES ($1, 2, 'text', $2, $3)`, [
      prompt.id,
      "Reply kindly to {{ question }}.",
      editor.id,
    ]);
    await client.query(`UPDATE prompts SET latest_version = 2 WHERE id = $1`, [prompt.id]);
    await client.query(`INSERT INTO prompt_labels (prompt_id, name, version) VALUES ($1, 'production', 1)`, [prompt.id]);
  });

  // The team admin requires one approval on the Teams page.
  const adminContext = await browser.newContext({ baseURL: E2E.appUrl });
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, admin.email);
  await adminPage.addInitScript(
    ({ organizationId, teamId }) => {
      localStorage.setItem("promptly.activeOrganizationId", organizationId);
      localStorage.setItem("promptly.activeTeamId", teamId);
    },
    { organizationId: organization.id, teamId: team.id },
  );
  await adminPage.goto("/teams");
  const reviewsCard = adminPage.getByTestId("team-reviews-card");
  await expect(reviewsCard).toContainText("No review: team admins move 'production' directly.");
  await reviewsCard.getByRole("combobox", { name: "Required approvals for production" }).click();
  await adminPage.getByRole("option", { name: "1 approval" }).click();
  await expect(toast(adminPage, REVIEW_MSG.settingsSavedToast)).toBeVisible();
  await expect(reviewsCard).toContainText("approved by one team admin other than its author");
  expect(await seriousViolations(adminPage)).toEqual([]);
  expect((await withDb((client) => client.query<{ n: number }>(`SELECT required_approvals AS n FROM teams WHERE id = $1`, [team.id]))).rows[0]!.n).toBe(1);

  // The editor tries to move production: the form becomes a request for review.
  await signIn(page, editor.email);
  await page.goto(`/prompts/${prompt.id}`);
  await page.getByRole("button", { name: "Set label" }).click();
  const dialog = page.getByRole("dialog", { name: "Set label" });
  await dialog.getByRole("combobox", { name: "Label name" }).fill("production");
  await dialog.getByRole("combobox", { name: "Label version" }).click();
  await page.getByRole("option", { name: /^v2/ }).click();
  await dialog.getByRole("textbox", { name: "Message for the reviewers" }).fill("Kinder wording for support replies.");
  await dialog.getByRole("button", { name: "Request review" }).click();

  // Its page: the message, the diff from production (v1) to v2, and no approval of one's own.
  await page.waitForURL(/\/reviews\/[0-9a-f-]{36}$/);
  const requestUrl = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { level: 1, name: "v2 to production" })).toBeVisible();
  await expect(page.getByText("Kinder wording for support replies.")).toBeVisible();
  await expect(page.getByTestId("change-request-summary")).toHaveText("Production now: v1. Proposed: v2. Approvals: 0 of 1.");
  const diff = page.getByRole("region", { name: "Template diff" });
  await expect(diff).toContainText("Reply kindly to {{ question }}.");
  await expect(diff).toContainText("Reply to {{ question }}.");
  const approve = page.getByRole("button", { name: "Approve" });
  await expect(approve).toBeDisabled();
  await expect(approve).toHaveAccessibleDescription(REVIEW_MSG.ownApproval);
  expect(await seriousViolations(page)).toEqual([]);
  expect(await production(prompt.id)).toBe(1);
  // The prompt page lists the open request.
  await page.goto(`/prompts/${prompt.id}`);
  await expect(page.getByTestId("open-change-requests")).toContainText("1 open change request");

  // The team admin sees it on the Teams page, opens it and approves: production moves.
  await adminPage.reload();
  await reviewsCard.getByRole("link", { name: /v2 to production/ }).click();
  await adminPage.waitForURL((url) => url.pathname === requestUrl);
  await expect(adminPage.getByRole("button", { name: "Approve" })).toBeEnabled();
  expect(await seriousViolations(adminPage)).toEqual([]);
  await adminPage.getByRole("textbox", { name: "Comment" }).fill("Reads well.");
  await adminPage.getByRole("button", { name: "Approve" }).click();
  await expect(toast(adminPage, REVIEW_MSG.mergedToast)).toBeVisible();
  await expect(adminPage.getByRole("main").getByText("Approved", { exact: true }).first()).toBeVisible();
  await expect(adminPage.getByRole("listitem").filter({ hasText: "Rhea Reviewer" })).toContainText("Reads well.");
  expect(await production(prompt.id)).toBe(2);

  // A program with an API key of the team gets the new production version.
  const created = (await callMutation(adminPage.request, "apiKeys.create", { teamId: team.id, name: "Support bot", labels: ["production"] })) as { key: string };
  const served = await fetch(`${E2E.appUrl}/api/v1/prompts/support/reply`, { headers: { authorization: `Bearer ${created.key}` } });
  expect(served.status).toBe(200);
  expect(await served.json()).toMatchObject({ name: "support/reply", version: 2, template: "Reply kindly to {{ question }}.", labels: ["production"] });

  await adminContext.close();
  expect(errors).toEqual([]);
});
