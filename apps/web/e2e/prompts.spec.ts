// The prompt library end to end: writing a prompt in the editor with its lint gate, versions,
// compare, labels, Try it and search; bookmarks and ratings from a second person.
import { expect, test, type Page } from "@playwright/test";
import { PROMPT_MSG } from "@promptly/shared";
import { createAccount, createOrganizationWith, createTeamWith, signIn, uniqueName } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { createPromptWith } from "./support/prompts.ts";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });
const card = (page: Page, title: string) => page.getByTestId("prompt-card").filter({ has: page.getByRole("heading", { name: title }) });
const stat = (page: Page, label: string) => page.getByTestId("stat-card").filter({ hasText: label });

test("an editor writes a chat prompt past the lint gate, saves two versions, compares them and labels staging; an admin sets production; Try it and search find it", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const errors = consoleErrors(page);
  const editor = await createAccount({ fullName: "Eddie Editor" });
  const admin = await createAccount({ fullName: "Ada Admin" });
  const organization = await createOrganizationWith([
    { userId: editor.id, role: "member" },
    { userId: admin.id, role: "member" },
  ]);
  await createTeamWith(organization.id, [
    { userId: editor.id, role: "editor" },
    { userId: admin.id, role: "admin" },
  ]);
  const word = `quokka${Date.now().toString(36)}`;
  const title = uniqueName("Support Reply");

  await signIn(page, editor.email);
  await page.goto("/");
  await page.getByRole("link", { name: "New Prompt" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New Prompt" })).toBeVisible();
  await page.getByLabel("Title", { exact: true }).fill(title);
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(title.toLowerCase().replace(/\s+/g, "-"));
  await page.getByRole("radio", { name: "Chat" }).check();
  await page.getByRole("textbox", { name: "Message 1 content" }).fill("You are a {{tone}} support agent.");
  await page.getByRole("textbox", { name: "Message 2 content" }).fill(`Reply to {{customer}} about their refund ({{ ${word}`);

  // An unbalanced brace is a lint error that blocks saving.
  const lintResults = page.getByRole("region", { name: "Lint results" });
  await expect(lintResults).toContainText("without a closing '}}'");
  await expect(page.getByRole("button", { name: "Create prompt" })).toBeDisabled();
  await page.getByRole("textbox", { name: "Message 2 content" }).fill(`Reply to {{customer}} about their refund. Ticket tag: ${word}.`);
  await expect(lintResults).toContainText("No problems found");

  // tone is an enum: without options it is an error, with them it is fine.
  await page.getByRole("combobox", { name: "Type of tone" }).click();
  await page.getByRole("option", { name: "enum", exact: true }).click();
  await expect(lintResults).toContainText("'tone' is an enum without options");
  await page.getByLabel("Options of tone").fill("friendly, formal");
  await expect(lintResults).toContainText("No problems found");
  await page.getByLabel("Commit message").fill("First version");
  await page.getByRole("button", { name: "Create prompt" }).click();
  await expect(toast(page, PROMPT_MSG.createdToast)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  const promptUrl = page.url();

  // Version 2.
  await page.getByRole("link", { name: "New version" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `New version of ${title}` })).toBeVisible();
  await page.getByRole("textbox", { name: "Message 2 content" }).fill(`Reply to {{customer}} about their replacement. Ticket tag: ${word}.`);
  await page.getByLabel("Commit message").fill("Replacement, not refund");
  await page.getByRole("button", { name: "Save version" }).click();
  await expect(toast(page, PROMPT_MSG.versionSavedToast)).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Version" })).toContainText("v2");

  // Compare v1 and v2: the changed line.
  await page.getByRole("tab", { name: "Versions" }).click();
  await page.getByRole("tab", { name: "Compare" }).click();
  await expect(page.locator('[data-diff="removed"]').filter({ hasText: "refund" }).first()).toBeVisible();
  await expect(page.locator('[data-diff="added"]').filter({ hasText: "replacement" }).first()).toBeVisible();

  // staging by the editor.
  await page.getByRole("button", { name: "Set label" }).click();
  await page.getByLabel("Label name").fill("staging");
  await page.getByRole("button", { name: "Save label" }).click();
  await expect(toast(page, PROMPT_MSG.labelSetToast)).toBeVisible();
  await expect(page.getByRole("list", { name: "Labels" })).toContainText("staging → v2");

  // production by a team admin.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, admin.email);
  await adminPage.goto(promptUrl);
  await adminPage.getByRole("button", { name: "Set label" }).click();
  await adminPage.getByLabel("Label name").fill("production");
  await adminPage.getByRole("button", { name: "Save label" }).click();
  await expect(adminPage.getByRole("list", { name: "Labels" })).toContainText("production → v2");
  await adminContext.close();

  // Try it: a missing required value is named; with the values, the messages compile.
  await page.reload();
  await page.getByRole("tab", { name: "Write & try" }).click();
  await page.getByRole("tab", { name: "Try it" }).click();
  await page.getByRole("button", { name: "Compile" }).click();
  await expect(page.getByTestId("compile-errors")).toContainText("'customer' is required");
  await page.getByLabel("customer", { exact: true }).fill("Dana");
  await page.getByRole("combobox", { name: "tone" }).click();
  await page.getByRole("option", { name: "friendly" }).click();
  await page.getByRole("button", { name: "Compile" }).click();
  await expect(page.getByTestId("compile-result")).toContainText("You are a friendly support agent.");
  await expect(page.getByTestId("compile-result")).toContainText("Reply to Dana about their replacement.");

  // The header search finds it by a word of its template; the dashboard lists it as recent.
  await page.goto("/");
  await page.getByRole("combobox", { name: "Search prompts" }).fill(word);
  await page.getByRole("option", { name: new RegExp(title) }).click();
  await expect(page).toHaveURL(promptUrl);
  await page.goto("/");
  await expect(page.getByRole("tabpanel").getByTestId("prompt-card").first()).toContainText(title);
  expect(errors).toEqual([]);
});

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
