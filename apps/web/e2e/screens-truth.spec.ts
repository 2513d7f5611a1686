// Screens that tell the truth: while a list's first load retries after a failure the page shows loading,
// never an empty state, and the header's switchers say the list is unavailable; after a page change, focus
// goes to the new page's heading. The failures are real 500s from the server, asked for with the test-only
// cookie of TEST_FAULTS (apps/server/src/test-faults.ts).
import { expect, test, type Page } from "@playwright/test";
import { createAccount, createOrganizationWith, createTeamWith, signIn } from "./support/accounts.ts";
import { E2E } from "./support/env.ts";
import { createPromptWith } from "./support/prompts.ts";

const FAULTS = "promptly-test-faults";
// Queries retry three times (1 s, 2 s, 4 s) before they give up: a failure shows after about 7 s.
const AFTER_RETRIES = { timeout: 25_000 };

/** Records, from the first paint on, every empty-state text the page ever shows (a loading page must show none). */
async function watchForEmptyStates(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { emptyStatesSeen: string[] }).emptyStatesSeen = seen;
    const claims = /No Teams Created Yet|Create First Team|No organizations\b|No organization\b|No teams\b/g;
    new MutationObserver(() => {
      for (const claim of document.body?.textContent?.match(claims) ?? []) if (!seen.includes(claim)) seen.push(claim);
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}
const emptyStatesSeen = (page: Page) => page.evaluate(() => (window as unknown as { emptyStatesSeen: string[] }).emptyStatesSeen);

test("the failing organization list never shows an empty state", async ({ page }) => {
  test.setTimeout(90_000);
  // A super user (like an administrator) may open /teams without waiting for the organizations, and always
  // has the organization switcher.
  const person = await createAccount({ fullName: "Olive Outage", superUser: true });
  const organization = await createOrganizationWith([{ userId: person.id, role: "admin" }]);
  const team = await createTeamWith(organization.id, [{ userId: person.id, role: "admin" }]);
  await signIn(page, person.email);
  // A super user sees every organization of the database: this test's is the active one.
  await page.addInitScript((id) => localStorage.setItem("promptly.activeOrganizationId", id), organization.id);
  await watchForEmptyStates(page);
  await page.context().addCookies([{ name: FAULTS, value: encodeURIComponent("organizations.list"), url: E2E.appUrl }]);
  await page.goto("/teams");

  // Retrying: loading, in the page and in the header.
  await expect(page.getByRole("heading", { level: 1, name: "Teams" })).toBeVisible();
  await expect(page.getByLabel("Loading teams", { exact: true })).toBeVisible();
  await expect(page.getByTestId("team-selector")).toContainText("Loading teams...");

  // Given up: the page says what failed, the switchers say unavailable.
  await expect(page.getByRole("alert").filter({ hasText: "Error loading organizations" })).toBeVisible(AFTER_RETRIES);
  await expect(page.getByTestId("organization-switcher")).toContainText("Organizations unavailable");
  await expect(page.getByTestId("team-selector")).toContainText("Teams unavailable");
  expect(await emptyStatesSeen(page)).toEqual([]);

  // The server answers again: Try again brings the organization, its team and the switchers back.
  await page.context().clearCookies({ name: FAULTS });
  await page.getByRole("alert").filter({ hasText: "Error loading organizations" }).getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 2, name: team.name })).toBeVisible();
  await expect(page.getByTestId("team-selector")).toContainText(team.name);
  await expect(page.getByTestId("organization-switcher")).toContainText(organization.name);
  expect(await emptyStatesSeen(page)).toEqual([]);
});

test("after a page change focus is on the new page's heading; a tab change keeps it where it is", async ({ page }) => {
  const person = await createAccount({ fullName: "Hedda Heading", role: "administrator" });
  const organization = await createOrganizationWith([{ userId: person.id, role: "admin" }]);
  const team = await createTeamWith(organization.id, [{ userId: person.id, role: "admin" }]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: person.id, title: "Heading prompt" });
  await signIn(page, person.email);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();

  const sidebar = page.getByRole("navigation");
  await sidebar.getByRole("link", { name: "Teams" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Teams" })).toBeFocused();
  await sidebar.getByRole("link", { name: "All Prompts" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "All Prompts" })).toBeFocused();

  // Keyboard only: a prompt's link, then a tab of its page (a search param, not a page change).
  await page.getByRole("link", { name: /Heading prompt/ }).first().focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/prompts/${prompt.id}`));
  await expect(page.getByRole("heading", { level: 1, name: "Heading prompt" })).toBeFocused();
  const history = page.getByRole("tab", { name: "History" });
  await history.click();
  await expect(history).toHaveAttribute("aria-selected", "true");
  await expect(history).toBeFocused();
});
