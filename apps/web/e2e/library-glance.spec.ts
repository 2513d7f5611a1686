// The library at a glance: cards show a prompt's full name and its labels with their versions; All Prompts
// also lists the prompts as a compact table (the choice kept in the URL and remembered by the browser);
// the Activity tab reads newest first and shows a review request; the audit log's changes open in full
// and its filters are the app's own selects.
import { expect, test } from "@playwright/test";
import { callMutation, createAccount, createTeamInNewOrganization, signedInPage, signIn, withDb } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { activateTeam } from "./support/organizations.ts";
import { createPromptWith } from "./support/prompts.ts";

async function world() {
  const admin = await createAccount({ fullName: "Lena Library", role: "team_lead" });
  const editor = await createAccount({ fullName: "Ed Itor" });
  const { organization, team } = await createTeamInNewOrganization([
    { userId: admin.id, role: "admin" },
    { userId: editor.id, role: "editor" },
  ]);
  return { admin, editor, organization, team };
}

test("cards show the full name and labels with versions; the table view lists name, labels, tags, updated and author, and is remembered", async ({ page }) => {
  const { admin, organization, team } = await world();
  const name = "customer-support/escalations/refund-requests-over-the-monthly-limit-for-enterprise-accounts";
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: admin.id, title: "Refund escalation", name, tags: ["support"] });
  await signIn(page, admin.email);
  for (const template of ["Two {{ a }}", "Three {{ a }}", "Four {{ a }}"]) await callMutation(page.request, "promptVersions.create", { promptId: prompt.id, type: "text", template });
  await callMutation(page.request, "promptLabels.set", { promptId: prompt.id, label: "production", version: 3 });
  await callMutation(page.request, "promptLabels.set", { promptId: prompt.id, label: "staging", version: 4 });

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/prompts");
  const card = page.getByTestId("prompt-card").filter({ hasText: "Refund escalation" });
  await expect(card.getByRole("list", { name: "Labels" }).getByRole("listitem")).toHaveText(["production v3", "staging v4"]);
  // The whole name is on the card, wrapped, not cut off.
  const shownName = card.getByTestId("prompt-name");
  await expect(shownName).toHaveText(`${team.name} · ${name}`);
  expect(await shownName.evaluate((element) => element.scrollWidth <= element.clientWidth && getComputedStyle(element).textOverflow !== "ellipsis")).toBe(true);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole("group", { name: "View" }).getByRole("button", { name: "Table" }).click();
  await expect(page).toHaveURL(/view=table/);
  const table = page.getByRole("table", { name: "Prompts" });
  await expect(table.getByRole("columnheader")).toHaveText(["Selected", "Name", "Labels", "Tags", "Updated", "Author"]);
  const row = table.getByTestId("prompt-row").filter({ hasText: "Refund escalation" });
  await expect(row).toContainText(name);
  await expect(row.getByRole("list", { name: "Labels" }).getByRole("listitem")).toHaveText(["production v3", "staging v4"]);
  await expect(row.getByRole("list", { name: "Tags" })).toHaveText("support");
  await expect(row.locator("time")).toBeVisible();
  await expect(row).toContainText("Lena Library");
  await expect(page.getByTestId("prompt-card")).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  // Remembered: /prompts without `view` shows the table again; choosing Cards is remembered too.
  await page.goto("/prompts");
  await expect(page.getByRole("table", { name: "Prompts" })).toBeVisible();
  await expect(page.getByRole("group", { name: "View" }).getByRole("button", { name: "Table" })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("group", { name: "View" }).getByRole("button", { name: "Cards" }).click();
  await expect(card).toBeVisible();
  await page.goto("/prompts");
  await expect(card).toBeVisible();
  await expect(page.getByRole("table", { name: "Prompts" })).toHaveCount(0);
});

test("the Activity tab lists newest first with the review request; the audit log's Change opens in full and its filters are the app's selects", async ({ page, browser }) => {
  const { admin, editor, organization, team } = await world();
  await withDb((client) => client.query(`UPDATE teams SET required_approvals = 1 WHERE id = $1`, [team.id]));
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: editor.id, title: "Reviewed greeting" });
  const message = "Please ship the friendlier greeting: it tested better with the customers of the pilot program in every region.";
  const editorPage = await signedInPage(browser, editor.email);
  await callMutation(editorPage.request, "promptVersions.create", { promptId: prompt.id, type: "text", template: "Hello there, {{ name }}." });
  await callMutation(editorPage.request, "changeRequests.create", { promptId: prompt.id, label: "production", version: 2, message });
  await editorPage.context().close();

  await signIn(page, admin.email);
  await activateTeam(page, organization.id, team.id);
  await page.goto(`/prompts/${prompt.id}?tab=activity`);
  const activity = page.getByRole("list", { name: "Activity" }).getByRole("listitem");
  await expect(activity).toHaveCount(2);
  await expect(activity.nth(0)).toContainText("Review requested: production: nowhere → v2");
  await expect(activity.nth(0)).toContainText("Ed Itor");
  await expect(activity.nth(1)).toContainText("Saved v2");

  await page.goto("/audit");
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  // The filters are the app's own selects, no native ones (the app's select keeps a hidden one for forms).
  await expect(page.getByRole("main").locator("select:not([aria-hidden=true])")).toHaveCount(0);
  for (const filter of ["Actor", "Action"]) expect(await page.getByRole("combobox", { name: filter }).evaluate((element) => element.tagName)).toBe("BUTTON");
  await page.getByRole("combobox", { name: "Action" }).click();
  // The list has opened once it has focused the current choice, the first option, scrolled to the top:
  // measured before that, that scroll would move the option under test.
  await expect(page.getByRole("option", { name: "All actions" })).toBeFocused();
  // The long list's options move only as far as it scrolls: its scroll buttons, shown once there is
  // more above or below, take no room (one that did moved them 24 px, and a click as it appeared chose nothing).
  const [scrolledTo, twoFramesLater] = await page.getByRole("option", { name: "Review requested" }).evaluate(async (option) => {
    // Focused as a pointer moving over it focuses it, then scrolled to, as a click does.
    (option as HTMLElement).focus({ preventScroll: true });
    option.scrollIntoView({ block: "center" });
    const top = option.getBoundingClientRect().top;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return [top, option.getBoundingClientRect().top];
  });
  expect(twoFramesLater).toBe(scrolledTo);
  await page.getByRole("option", { name: "Review requested" }).click();
  const rows = page.getByRole("table", { name: "Audit events" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await page.getByRole("combobox", { name: "Actor" }).click();
  await page.getByRole("option", { name: "Ed Itor" }).click();
  await expect(rows).toHaveCount(1);

  // The change opens in full: the whole message, each field on its own line.
  const toggle = rows.first().getByRole("button", { name: /^Show change:/ });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(rows.first().getByTestId("audit-change-details")).toHaveCount(0);
  await toggle.click();
  const details = rows.first().getByTestId("audit-change-details");
  await expect(details).toBeVisible();
  await expect(rows.first().getByRole("button", { name: /^Hide change:/ })).toHaveAttribute("aria-expanded", "true");
  await expect(details.getByRole("definition").filter({ hasText: message })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
