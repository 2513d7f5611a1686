// The prompt library end to end (issue 13): writing a prompt in the editor with its lint gate, versions,
// compare, labels, Try it and search (acceptance 1); bookmarks and ratings from a second person (acceptance 2).
import { expect, test, type Page } from "@playwright/test";
import { PROMPT_MSG } from "@promptly/shared";
import { createAccount, createOrganizationWith, createTeamWith, signIn, uniqueName } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { createPromptWith } from "./support/prompts.ts";

const card = (page: Page, title: string) => page.getByTestId("prompt-card").filter({ has: page.getByRole("heading", { name: title }) });
const stat = (page: Page, label: string) => page.getByTestId("stat-card").filter({ hasText: label });

test("a second person bookmarks a prompt from its card and rates it; the author cannot rate their own", async ({ page, browser }) => {
  const errors = consoleErrors(page);
  const author = await createAccount({ fullName: "Alex Author" });
  const reader = await createAccount({ role: "team_lead", fullName: "Riley Reader" });
  const organization = await createOrganizationWith([
    { userId: author.id, role: "member" },
    { userId: reader.id, role: "member" },
  ]);
  const team = await createTeamWith(organization.id, [
    { userId: author.id, role: "editor" },
    { userId: reader.id, role: "viewer" },
  ]);
  const title = uniqueName("Ticket Triage");
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: author.id, title, tags: ["support"] });

  await signIn(page, reader.email);
  await page.goto("/prompts");
  await expect(page.getByRole("heading", { level: 1, name: "All Prompts" })).toBeVisible();
  const toggle = card(page, title).getByRole("button", { name: "Add to bookmarks" });
  await toggle.click();
  await expect(card(page, title).getByRole("button", { name: "Remove from bookmarks" })).toHaveAttribute("aria-pressed", "true");

  // My Bookmarks, the dashboard's Bookmarked tab and its figure follow.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "My Bookmarks" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "My Bookmarks" })).toBeVisible();
  await expect(card(page, title)).toBeVisible();
  await page.goto("/");
  await expect(stat(page, "Bookmarked Prompts")).toContainText("1+1 this month");
  await page.getByRole("tab", { name: "Bookmarked" }).click();
  await expect(page.getByRole("tabpanel").getByTestId("prompt-card")).toHaveText(new RegExp(title));

  // 4 stars on the prompt's page; the card shows the average.
  await page.goto(`/prompts/${prompt.id}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByTestId("rating-summary")).toHaveText("No ratings yet");
  await page.getByRole("button", { name: "Rate 4 stars", exact: true }).click();
  await expect(page.getByTestId("rating-summary")).toHaveText("4.0 (1 rating)");
  await expect(page.getByRole("button", { name: "Rate 4 stars", exact: true })).toHaveAttribute("aria-pressed", "true");
  await page.goto("/prompts");
  await expect(card(page, title).getByTestId("prompt-rating")).toContainText("4.0");
  expect(errors).toEqual([]);

  // The author's own stars are disabled, with the reason.
  const authorContext = await browser.newContext();
  const authorPage = await authorContext.newPage();
  await signIn(authorPage, author.email);
  await authorPage.goto(`/prompts/${prompt.id}`);
  await expect(authorPage.getByTestId("rating-summary")).toHaveText("4.0 (1 rating)");
  for (const stars of [1, 2, 3, 4, 5]) {
    await expect(authorPage.getByRole("button", { name: `Rate ${stars} star${stars === 1 ? "" : "s"}`, exact: true })).toBeDisabled();
  }
  await expect(authorPage.getByText(PROMPT_MSG.ownPromptRating)).toBeVisible();
  await authorContext.close();
});
