// Screens that tell the truth: a list that failed says so at once, while it is retried, never as loading
// for seconds or as an empty state, and the header's switchers say the list is unavailable; after a page
// change, focus goes to the new page's heading. The failures are real 500s from the server, asked for
// with the test-only cookie of TEST_FAULTS (apps/server/src/test-faults.ts).
import { expect, test, type Page } from "@playwright/test";
import { createAccount, createOrganizationWith, createTeamWith, signIn } from "./support/accounts.ts";
import { E2E } from "./support/env.ts";
import { createPromptWith } from "./support/prompts.ts";

const FAULTS = "promptly-test-faults";
// Queries retry three times (1 s, 2 s, 4 s) before they give up: the last retry fails after about 7 s.
const AFTER_RETRIES = { timeout: 25_000 };

interface Watched {
  /** Every empty-state text the page ever showed. */
  emptyStatesSeen: string[];
  /** When a New Team button first showed (ms since the page's navigation began), or null. */
  newTeamAt: number | null;
  /** When each failure text first showed (ms since the page's navigation began). */
  toldAt: Record<string, number>;
  /** When the first answer to each watched read arrived (ms since the page's navigation began). */
  answeredAt: Record<string, number>;
}

/**
 * Records, from the first paint on, every empty-state text the page ever shows (a page that does not
 * know must show none), when a New Team button first shows, when each failure is first told, and when
 * the first answer to each of `reads` (procedure paths) arrives.
 */
async function watchScreens(page: Page, failures: string[], reads: string[]) {
  await page.addInitScript(({ failures, reads }) => {
    const watched: Watched = { emptyStatesSeen: [], newTeamAt: null, toldAt: {}, answeredAt: {} };
    (window as unknown as { watched: Watched }).watched = watched;
    const send = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const response = await send(input, init);
      const url = input instanceof Request ? input.url : String(input);
      for (const read of reads) if (!(read in watched.answeredAt) && url.includes(read)) watched.answeredAt[read] = performance.now();
      return response;
    };
    const claims = /No Teams Created Yet|Create First Team|No active organization|not in an organization yet|No organizations\b|No organization\b|No teams\b/g;
    new MutationObserver(() => {
      const text = document.body?.textContent ?? "";
      for (const claim of text.match(claims) ?? []) if (!watched.emptyStatesSeen.includes(claim)) watched.emptyStatesSeen.push(claim);
      for (const failure of failures) if (!(failure in watched.toldAt) && text.includes(failure)) watched.toldAt[failure] = performance.now();
      if (watched.newTeamAt === null && [...document.querySelectorAll("button")].some((button) => button.textContent?.trim() === "New Team")) {
        watched.newTeamAt = performance.now();
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  }, { failures, reads });
}
const watched = (page: Page) => page.evaluate(() => (window as unknown as { watched: Watched }).watched);

test("failing organization and team lists are told within 3 s, retrying, and never as an empty state", async ({ page }) => {
  test.setTimeout(90_000);
  // A super user (like an administrator) may open /teams without waiting for the organizations, may
  // create teams, and always has the organization switcher.
  const person = await createAccount({ fullName: "Olive Outage", superUser: true });
  const organization = await createOrganizationWith([{ userId: person.id, role: "admin" }]);
  const team = await createTeamWith(organization.id, [{ userId: person.id, role: "admin" }]);
  await signIn(page, person.email);
  // A super user sees every organization of the database: this test's is the active one.
  await page.addInitScript((id) => localStorage.setItem("promptly.activeOrganizationId", id), organization.id);
  await watchScreens(page, ["Error loading organizations", "The teams could not be loaded"], ["organizations.list", "teams.list"]);
  const fail = (procedures: string) => page.context().addCookies([{ name: FAULTS, value: encodeURIComponent(procedures), url: E2E.appUrl }]);
  await fail("organizations.list,teams.list");
  await page.goto("/teams");

  // Told at once, while the reads are retried, with Try again.
  const organizationsFailure = page.getByRole("alert").filter({ hasText: "Error loading organizations" });
  await expect(page.getByRole("heading", { level: 1, name: "Teams" })).toBeVisible();
  await expect(organizationsFailure).toContainText("Retrying... (2 of 3)");
  await expect(organizationsFailure.getByRole("button", { name: "Try again" })).toBeVisible();
  // Within 3 s of the read's first failed answer (before, it waited for three retries, about 7 s).
  const first = await watched(page);
  expect(first.toldAt["Error loading organizations"]! - first.answeredAt["organizations.list"]!).toBeLessThan(3_000);
  await expect(page.getByTestId("organization-switcher")).toContainText("Organizations unavailable");
  await expect(page.getByTestId("team-selector")).toContainText("Teams unavailable");

  // Given up: the failure stays, without the retry line.
  await expect(organizationsFailure).not.toContainText("Retrying", AFTER_RETRIES);
  await expect(organizationsFailure.getByRole("button", { name: "Try again" })).toBeVisible();
  // Never an empty state, 'no organization' or New Team while the organization is unknown.
  expect(await watched(page)).toMatchObject({ emptyStatesSeen: [], newTeamAt: null });

  // The organizations answer again, the teams still fail: Try again tells the teams' failure at once.
  await fail("teams.list");
  const tryAgainAt = await page.evaluate(() => performance.now());
  await organizationsFailure.getByRole("button", { name: "Try again" }).click();
  const teamsFailure = page.getByRole("alert").filter({ hasText: "The teams could not be loaded" });
  await expect(teamsFailure).toContainText("Retrying... (2 of 3)");
  await expect(teamsFailure.getByRole("button", { name: "Try again" })).toBeVisible();
  expect((await watched(page)).toldAt["The teams could not be loaded"]! - tryAgainAt).toBeLessThan(3_000);
  await expect(page.getByTestId("teams-organization")).toHaveText(organization.name);
  await expect(page.getByTestId("team-selector")).toContainText("Teams unavailable");

  // The server answers again: Try again asks at once (not after the retry it was waiting for) and brings
  // the team and the switchers back.
  await expect(teamsFailure).toContainText("Retrying... (3 of 3)");
  await page.context().clearCookies({ name: FAULTS });
  await teamsFailure.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 2, name: team.name })).toBeVisible({ timeout: 3_000 });
  await expect(page.getByTestId("team-selector")).toContainText(team.name);
  await expect(page.getByTestId("organization-switcher")).toContainText(organization.name);
  expect((await watched(page)).emptyStatesSeen).toEqual([]);
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

  // Keyboard only: a prompt's link, then a group of its tabs (a search param, not a page change).
  await page.getByRole("link", { name: /Heading prompt/ }).first().focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/prompts/${prompt.id}`));
  await expect(page.getByRole("heading", { level: 1, name: "Heading prompt" })).toBeFocused();
  const versions = page.getByRole("tab", { name: "Versions" });
  await versions.click();
  await expect(versions).toHaveAttribute("aria-selected", "true");
  await expect(versions).toBeFocused();
});
