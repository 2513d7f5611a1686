// The Activity tab of a prompt with more events than a page: the newest page first, 'Load more' for the
// older ones; a rollback from it refreshes every page loaded, with the new move on top.
import { expect, test } from "@playwright/test";
import { AUDIT_PAGE_SIZE } from "@promptly/shared";
import { callMutation, createAccount, createTeamInNewOrganization, signIn, withDb } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { activateTeam } from "./support/organizations.ts";
import { createPromptWith } from "./support/prompts.ts";

const eventCount = (promptId: string) =>
  withDb(async (client) => Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM audit_events WHERE prompt_id = $1`, [promptId])).rows[0]!.n));

test("the Activity tab shows a page of the newest events and loads older ones on demand", async ({ page }) => {
  const errors = consoleErrors(page);
  const admin = await createAccount({ fullName: "Paige Pager" });
  const { organization, team } = await createTeamInNewOrganization([{ userId: admin.id, role: "admin" }]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: admin.id, name: "activity/busy" });

  await signIn(page, admin.email);
  await callMutation(page.request, "promptVersions.create", { promptId: prompt.id, type: "text", template: "Hello again." });
  // staging moved back and forth, more moves than a page holds; the last one puts it on v1.
  for (let n = 0; n < AUDIT_PAGE_SIZE + 4; n++) {
    await callMutation(page.request, "promptLabels.set", { promptId: prompt.id, label: "staging", version: n % 2 === 0 ? 2 : 1 });
  }
  const total = await eventCount(prompt.id);
  expect(total).toBeGreaterThan(AUDIT_PAGE_SIZE);

  await activateTeam(page, organization.id, team.id);
  await page.goto(`/prompts/${prompt.id}?tab=activity`);
  const activity = page.getByRole("list", { name: "Activity" }).getByRole("listitem");
  await expect(activity).toHaveCount(AUDIT_PAGE_SIZE);
  await expect(activity.nth(0)).toContainText("Moved staging from v2 to v1");
  const more = page.getByRole("button", { name: "Load more" });
  await more.click();
  await expect(activity).toHaveCount(total);
  await expect(more).toHaveCount(0);
  await expect(activity.last()).toContainText("Saved v2");

  // A rollback from the newest row: every page loaded is read again, the rollback on top.
  await activity.nth(0).getByRole("button", { name: "Roll back to here: staging to v2" }).click();
  await page.getByRole("alertdialog", { name: "Roll back staging to v2?" }).getByRole("button", { name: "Roll back", exact: true }).click();
  await expect(activity).toHaveCount(total + 1);
  await expect(activity.nth(0)).toContainText("Moved staging from v1 to v2");
  await expect(more).toHaveCount(0);
  expect(errors).toEqual([]);
});
