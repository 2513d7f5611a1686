// The playground end to end: an organization admin connects an
// OpenAI-compatible server (a fake provider this test runs on the loopback address); an editor opens a
// prompt's Playground, edits its template without saving, fills the variables, runs two models side by
// side and sees both answers stream in with their figures, stops a long third run midway (recorded as
// stopped, the provider's stream closed), and saves the edited template as version 2 through the editor.
// A template too long for a run's URL is staged first (playground.stage) and run, and continued, by its draft.
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { fakeAnswerText } from "../../../packages/api/testing/fake-provider.ts";
import { callMutation, createAccount, createTeamInNewOrganization, signIn, signedInPage, uniqueName, withDb } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import { fakeProviderForFile, playgroundColumn as column, testedConnection } from "./support/providers.ts";

const provider = fakeProviderForFile();

const runsOf = (promptId: string) =>
  withDb(async (client) => (await client.query<{ model: string; status: string; draft: boolean }>(`SELECT model, status, draft FROM prompt_runs WHERE prompt_id = $1 ORDER BY created_at`, [promptId])).rows);

test("an admin connects a provider; an editor runs two models side by side on an edited template, stops a run and saves the edit as a new version", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const admin = await createAccount({ fullName: "Olga Orgadmin" });
  const editor = await createAccount({ fullName: "Eddie Editor" });
  const { team } = await createTeamInNewOrganization([
    { userId: admin.id, role: "admin" },
    { userId: editor.id, role: "editor" },
  ]);

  // The organization admin adds the connection on Model providers.
  const adminErrors = consoleErrors(page);
  await signIn(page, admin.email);
  await page.goto("/providers");
  await page.getByRole("button", { name: "Add connection" }).click();
  const add = page.getByRole("dialog", { name: "Add connection" });
  await add.getByRole("combobox", { name: "Provider" }).click();
  await page.getByRole("option", { name: "OpenAI-compatible" }).click();
  const connectionName = uniqueName("Local models");
  await add.getByLabel("Name").fill(connectionName);
  await add.getByLabel("Base URL").fill(provider().openaiBaseUrl);
  await add.getByLabel("API key").fill(provider().apiKey);
  await add.getByLabel("Models (optional)").fill("gpt-4o-mini, gpt-4o");
  await add.getByRole("button", { name: "Add connection" }).click();
  await expect(add).toBeHidden();
  await expect(page.getByTestId("connection-row").filter({ hasText: connectionName })).toBeVisible();
  expect(adminErrors).toEqual([]);

  // The editor's prompt (made through the API: the editor is not under test here).
  const editorPage = await signedInPage(browser, editor.email);
  const errors = consoleErrors(editorPage);
  const prompt = (await callMutation(editorPage.request, "prompts.create", {
    teamId: team.id, name: `e2e/${randomBytes(5).toString("hex")}`, title: uniqueName("Haiku"), visibility: "team", type: "text",
    template: "Write about {{ topic }}.", model: "gpt-4o-mini", config: { temperature: 0.3 },
  })) as { id: string };

  await editorPage.goto(`/prompts/${prompt.id}`);
  await editorPage.getByRole("tab", { name: "Playground" }).click();
  await expect(editorPage).toHaveURL(/tab=playground/);
  // Never tested, the only connection is not picked silently: the playground says so and asks to pick or test one.
  const notice = editorPage.getByTestId("connection-notice");
  await expect(notice).toHaveText(
    "No connection is chosen: this team and its organization have no default, and not exactly one connection passed its test. Pick one below, or test one under Model Providers",
  );
  await expect(editorPage.getByRole("button", { name: "Run", exact: true })).toBeDisabled();
  // The admin tests it: it works, and the page keeps that.
  const row = page.getByTestId("connection-row").filter({ hasText: connectionName });
  await expect(row.getByTestId("last-test")).toHaveText("Never tested");
  await row.getByRole("button", { name: `Test connection ${connectionName}` }).click();
  await expect(page.getByRole("dialog", { name: `Test ${connectionName}` })).toContainText("Connected: 3 models found.");
  await page.getByRole("dialog", { name: `Test ${connectionName}` }).getByRole("button", { name: "Close", exact: true }).first().click();
  await expect(row.getByTestId("last-test")).toContainText("Works");
  await editorPage.reload();
  await expect(notice).toHaveText(`Uses ${connectionName}: the only connection that passed its test`);
  const template = editorPage.getByRole("textbox", { name: "Template", exact: true });
  await expect(template).toHaveValue("Write about {{ topic }}.");
  await template.fill("Write a haiku about {{ topic }}.");
  await expect(editorPage.getByText("Edited, not saved")).toBeVisible();
  await editorPage.getByLabel("topic", { exact: true }).fill("the sea");

  // Two models: the version's (with its config's temperature) and a second one beside it.
  await expect(column(editorPage, 1).getByLabel("Model", { exact: true })).toHaveValue("gpt-4o-mini");
  await expect(column(editorPage, 1).getByLabel("Temperature")).toHaveValue("0.3");
  await editorPage.getByRole("button", { name: "Add model" }).click();
  await column(editorPage, 2).getByLabel("Model", { exact: true }).fill("gpt-4o");
  await column(editorPage, 2).getByLabel("Max tokens").fill("200");

  // Run: the pieces show as they come (a short pause between them), then each column's figures.
  provider().answer.chunkDelayMs = 150;
  await editorPage.getByRole("button", { name: "Run", exact: true }).click();
  const answer = fakeAnswerText("Write a haiku about the sea.");
  const output = (number: number) => column(editorPage, number).getByTestId("column-output");
  await expect(output(1)).toHaveAttribute("aria-busy", "true");
  await expect(output(1)).toContainText("Echo:");
  await expect(output(1)).not.toContainText(answer);
  for (const number of [1, 2]) {
    await expect(output(number)).toContainText(answer);
    const figures = column(editorPage, number).getByTestId("run-figures");
    await expect(figures).toContainText(/Time to first token\s*\d+(\.\d+)? m?s/);
    await expect(figures).toContainText(/Total time\s*\d+(\.\d+)? m?s/);
    await expect(figures).toContainText(new RegExp(`Tokens in\\s*\\d+\\s*Tokens out\\s*${answer.split(" ").length}\\s*Cost`));
    await expect(figures).toContainText(/Cost\s*\$0\.\d{6}/);
  }
  await expect.poll(() => runsOf(prompt.id)).toEqual([
    expect.objectContaining({ status: "succeeded", draft: true }),
    expect.objectContaining({ status: "succeeded", draft: true }),
  ]);
  expect((await runsOf(prompt.id)).map((run) => run.model).sort()).toEqual(["gpt-4o", "gpt-4o-mini"]);

  // Carry the first column's conversation on: its answer and the reply go after the prompt.
  provider().answer.chunkDelayMs = 0;
  const callsBefore = provider().calls.length;
  await column(editorPage, 1).getByLabel("Your reply").fill("Now in French.");
  await column(editorPage, 1).getByRole("button", { name: "Continue" }).click();
  await expect(output(1)).toContainText(fakeAnswerText("Now in French."));
  await expect(output(1).getByText("Now in French.", { exact: true })).toBeVisible();
  expect((provider().calls.slice(callsBefore).find((call) => call.path === "/v1/chat/completions")!.body as { messages: unknown }).messages).toEqual([
    { role: "user", content: "Write a haiku about the sea." },
    { role: "assistant", content: answer },
    { role: "user", content: "Now in French." },
  ]);

  // A provider that refuses says why, in its words.
  provider().failWith = 429;
  try {
    await editorPage.getByRole("button", { name: "Run", exact: true }).click();
    for (const number of [1, 2]) await expect(column(editorPage, number).getByRole("alert")).toContainText(`${connectionName} is rate limiting requests (429): retry in a moment`);
    // The provider's own words behind Details; a failed run is not carried on (no Continue).
    const details = column(editorPage, 1).getByTestId("error-details");
    await expect(details.locator("pre")).toBeHidden();
    await details.getByText("Details", { exact: true }).click();
    await expect(details.locator("pre")).toHaveText("429: Rate limit reached for requests.");
    await expect(column(editorPage, 1).getByRole("button", { name: "Continue" })).toHaveCount(0);
  } finally {
    provider().failWith = null;
  }

  // On a phone the columns stack, and nothing is wider than the screen.
  await editorPage.setViewportSize({ width: 375, height: 800 });
  // The layout follows the resize in a frame of its own: wait for it rather than measure the old one.
  await expect
    .poll(async () => {
      const [first, second] = [await column(editorPage, 1).boundingBox(), await column(editorPage, 2).boundingBox()];
      return second!.y >= first!.y + first!.height;
    })
    .toBe(true);
  await expect.poll(() => editorPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  // Judged from the top of the page: scrolled, the sticky header covers whatever passes under it, which
  // axe counts as a target too small (it was a select, depending on where the resize left the page).
  await editorPage.evaluate(() => window.scrollTo(0, 0));
  expect(await seriousViolations(editorPage)).toEqual([]);
  await editorPage.setViewportSize({ width: 1280, height: 800 });

  // A long third run (Ctrl+Enter), stopped midway: what came stays, the provider's streams close.
  Object.assign(provider().answer, { chunkDelayMs: 50, repeat: 400 });
  await template.press("Control+Enter");
  await expect(output(1)).toHaveAttribute("aria-busy", "true");
  await expect(output(1)).toContainText(/Echo:.*Echo:/s);
  await editorPage.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(column(editorPage, 1).getByText("Stopped: the answer is what came before Stop.")).toBeVisible();
  await expect(column(editorPage, 2).getByText("Stopped: the answer is what came before Stop.")).toBeVisible();
  await expect(editorPage.getByRole("button", { name: "Run", exact: true })).toBeEnabled();
  await expect.poll(async () => (await runsOf(prompt.id)).filter((run) => run.status === "stopped").length).toBe(2);
  await expect.poll(() => provider().openStreams).toBe(0);
  Object.assign(provider().answer, { chunkDelayMs: 0, repeat: 1 });

  // Save the edit with the second column's model: the editor opens filled; nothing is saved before Save version.
  await column(editorPage, 2).getByRole("button", { name: "Save as new version with model 2" }).click();
  await expect(editorPage).toHaveURL(new RegExp(`/prompts/${prompt.id}/new-version\\?draft=`));
  await expect(editorPage.getByText("Starts from the playground's draft of v1")).toBeVisible();
  await expect(editorPage.getByRole("textbox", { name: "Template" })).toHaveText("Write a haiku about {{ topic }}.");
  await expect(editorPage.getByLabel("Model", { exact: true })).toHaveValue("gpt-4o");
  expect(await withDb(async (client) => (await client.query(`SELECT 1 FROM prompt_versions WHERE prompt_id = $1`, [prompt.id])).rowCount)).toBe(1);
  await editorPage.getByLabel("Commit message").fill("A haiku, tried in the playground");
  await editorPage.getByRole("button", { name: "Save version" }).click();
  await expect(editorPage).toHaveURL(`${E2E.appUrl}/prompts/${prompt.id}`);

  const saved = await withDb(async (client) =>
    (await client.query<{ version: number; template: string; model: string; config: Record<string, unknown> }>(
      `SELECT version, template, model, config FROM prompt_versions WHERE prompt_id = $1 ORDER BY version`, [prompt.id],
    )).rows);
  expect(saved).toEqual([
    expect.objectContaining({ version: 1, template: "Write about {{ topic }}." }),
    { version: 2, template: "Write a haiku about {{ topic }}.", model: "gpt-4o", config: { temperature: 0.3, max_tokens: 200 } },
  ]);

  // The Runs tab lists the playground's runs as edited drafts, apart from the version's figures.
  await editorPage.goto(`/prompts/${prompt.id}?tab=runs&version=1`);
  const rows = editorPage.locator("tr[data-run]");
  await expect(rows).toHaveCount((await runsOf(prompt.id)).length);
  await expect(rows.filter({ hasText: "Edited" })).toHaveCount(await rows.count());
  expect(errors).toEqual([]);
  await editorPage.context().close();
});

test("a long edited template (30,000 characters) runs from the tab and is continued: staged first, the runs' addresses stay short", async ({ browser }) => {
  const editor = await createAccount({ fullName: "Lena Longprompt" });
  const { organization, team } = await createTeamInNewOrganization([{ userId: editor.id, role: "admin" }]);
  const page = await signedInPage(browser, editor.email);
  const errors = consoleErrors(page);
  // Tested, it is the connection the playground starts on (the only one that passed its test).
  await testedConnection(page.request, organization.id, provider());
  const prompt = (await callMutation(page.request, "prompts.create", {
    teamId: team.id, name: `e2e/${randomBytes(5).toString("hex")}`, title: uniqueName("Long"), visibility: "team", type: "text", template: "Write about {{ topic }}.", model: "gpt-4o-mini",
  })) as { id: string };
  const runUrls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/trpc/playground.run")) runUrls.push(request.url());
  });

  await page.goto(`/prompts/${prompt.id}?tab=playground`);
  // Long words: the fake model echoes the prompt a word per piece, and few pieces keep the test quick.
  const long = `Write about {{ topic }}. ${`${"a".repeat(99)} `.repeat(300)}`.slice(0, 30_000);
  await page.getByRole("textbox", { name: "Template", exact: true }).fill(long);
  await page.getByLabel("topic", { exact: true }).fill("the sea");
  const sent = long.replace("{{ topic }}", "the sea");
  const received = () => provider().calls.filter((call) => JSON.stringify(call.body).includes(sent)).map((call) => (call.body as { messages: unknown }).messages);

  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(column(page, 1).getByTestId("run-figures")).toBeVisible();
  expect(received()).toEqual([[{ role: "user", content: sent }]]);

  await column(page, 1).getByLabel("Your reply").fill("Shorter, please.");
  await column(page, 1).getByRole("button", { name: "Continue" }).click();
  await expect.poll(() => received().length).toBe(2);
  expect(received()[1]).toEqual([{ role: "user", content: sent }, { role: "assistant", content: fakeAnswerText(sent) }, { role: "user", content: "Shorter, please." }]);
  await expect(column(page, 1).getByTestId("column-output")).toContainText(fakeAnswerText("Shorter, please."));

  await expect.poll(() => runsOf(prompt.id)).toEqual([expect.objectContaining({ status: "succeeded", draft: true }), expect.objectContaining({ status: "succeeded", draft: true })]);
  expect(await withDb(async (client) => (await client.query(`SELECT 1 FROM playground_drafts WHERE prompt_id = $1`, [prompt.id])).rowCount)).toBe(2);
  expect(runUrls).toHaveLength(2);
  for (const url of runUrls) expect(url.length).toBeLessThan(6_500);
  expect(errors).toEqual([]);
  await page.context().close();
});
