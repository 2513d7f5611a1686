// Test cases and evaluations end to end. (1) An editor imports 20 cases from a CSV file: a bad row is
// reported by its line and nothing is imported; fixed, the 20 are. An evaluation of two versions runs
// against a local provider (the fake, which echoes the prompt: the versions answer differently), its
// progress bar reaches done, and Compare shows the cases that flipped with their outputs diffed. A
// Playground run is then saved as a case, and a case given a judged assertion.
// (2) With the team's required pass rate at 90 (set on the Teams page) and the proposed version at 70 %,
// the reviewer sees both evaluations on the change request and Approve is refused with the figures; after
// a passing evaluation it goes through. (3) An evaluation under way is cancelled from its page. (4) An
// evaluation on a connection where nothing listens says how many cases could not run and why (no 0 %
// pass rate); the connection mended, "Retry cases in error" runs them again and they pass. (5) A case
// whose variables are over the size limit is refused in its dialog, which stays open with what was typed;
// an expected output over its limit is said on that field. (6) The tab lists each case as a preview (its
// long texts and names cut); Edit loads the case whole, and after a save the form has the saved case; the
// case changed elsewhere, Edit opened again has it as stored now. (7) The results and the comparison show
// a page of cases at a time, outputs cut short: one opens whole, and two cut outputs are diffed whole.
// A judge's reason cut short opens whole, in the results and in the comparison; a case with nothing cut offers no
// whole case. (8) A case's error and its expected output longer than their previews open whole, each button named
// for its case and version; an error gone from its item since the page loaded is said to be gone.
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { EVALUATION_MSG, REVIEW_MSG } from "@promptly/shared";
import { startFakeProvider, type FakeProvider } from "../../../packages/api/testing/fake-provider.ts";
import { callMutation, createAccount, createTeamInNewOrganization, signIn, signedInPage, uniqueName, withDb } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { activateTeam } from "./support/organizations.ts";
import { createChangeRequestWith, createPromptWith } from "./support/prompts.ts";
import { recordSecret } from "./support/secrets.ts";

let provider: FakeProvider;
test.beforeAll(async () => {
  provider = await startFakeProvider({ apiKey: `sk-e2e-${randomBytes(16).toString("hex")}` });
  recordSecret("provider key", provider.apiKey);
});
test.afterAll(() => provider?.close());

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** Half the cases ask for politeness (only version 1 says "politely"), half for the echo (both pass). */
const csvRow = (n: number) => `question ${n},"[{""type"":""contains"",""value"":""${n % 2 ? "politely" : "Echo"}""}]"`;

test("an editor imports 20 cases from CSV, a bad row reported by its line, evaluates two versions and compares them", async ({ page, browser }) => {
  const admin = await createAccount({ fullName: "Oona Orgadmin" });
  const editor = await createAccount({ fullName: "Evan Evaluator" });
  const { organization, team } = await createTeamInNewOrganization([
    { userId: admin.id, role: "admin" },
    { userId: editor.id, role: "editor" },
  ]);
  // The connection and the prompt's two versions through the API: they are not under test here.
  const adminPage = await signedInPage(browser, admin.email);
  const connectionName = uniqueName("Local");
  const connection = (await callMutation(adminPage.request, "providers.create", {
    organizationId: organization.id, kind: "openai-compatible", name: connectionName, baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey,
  })) as { id: string };
  // Tested, so the playground may pick it (an untested connection is never picked silently).
  await callMutation(adminPage.request, "providers.test", { id: connection.id });
  await adminPage.context().close();
  await signIn(page, editor.email);
  const errors = consoleErrors(page, { allow4xx: true });
  const prompt = (await callMutation(page.request, "prompts.create", {
    teamId: team.id, name: `e2e/${randomBytes(5).toString("hex")}`, title: uniqueName("Answers"), visibility: "team", type: "text",
    template: "Answer {{ question }} politely.", model: "gpt-4o-mini",
  })) as { id: string };
  await callMutation(page.request, "promptVersions.create", { promptId: prompt.id, type: "text", template: "Answer {{ question }}.", model: "gpt-4o-mini" });
  await activateTeam(page, organization.id, team.id);

  // The file has a bad sixth line (three cells under two columns): reported by its line, nothing imported.
  const rows = Array.from({ length: 20 }, (_, index) => csvRow(index + 1));
  const bad = ["question,assertions", ...rows.slice(0, 4), "question 5b,extra,cell", ...rows.slice(4)].join("\n");
  await page.goto(`/prompts/${prompt.id}?tab=cases`);
  await expect(page.getByTestId("test-cases-empty")).toBeVisible();
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Import test cases" });
  await dialog.getByLabel("File").setInputFiles({ name: "cases.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
  await expect(dialog.getByLabel("Content")).toHaveValue(bad);
  await dialog.getByRole("button", { name: "Import test cases" }).click();
  await expect(dialog.getByTestId("import-problems")).toContainText(EVALUATION_MSG.importRow(6, EVALUATION_MSG.importCsvColumns(3, 2)));
  const cases = () => withDb(async (client) => (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM test_cases WHERE prompt_id = $1`, [prompt.id])).rows[0]!.n);
  expect(await cases()).toBe(0);

  // The bad line taken out, the 20 go in.
  await dialog.getByLabel("Content").fill(["question,assertions", ...rows].join("\n"));
  await dialog.getByRole("button", { name: "Import test cases" }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, "20 test cases imported")).toBeVisible();
  await expect(page.getByTestId("test-case")).toHaveCount(20);
  await expect(page.getByRole("listitem", { name: "Case 1", exact: true })).toContainText("contains 'politely'");
  expect(await cases()).toBe(20);

  // An evaluation of both versions (the latest is chosen already; v1 is added).
  await page.getByRole("tab", { name: "Evaluations" }).click();
  await expect(page.getByTestId("evaluations-empty")).toBeVisible();
  await page.getByRole("button", { name: "Run evaluation" }).click();
  const run = page.getByRole("dialog", { name: "Run evaluation" });
  await expect(run.getByRole("checkbox", { name: "v2 · latest" })).toBeChecked();
  await run.getByRole("checkbox", { name: "v1", exact: true }).check();
  // Each answer takes 1.5 s and a connection runs 20 at once: the 40 runs go in two waves, and the bar,
  // read every second, shows the first wave done before the second is (every value it takes is noted).
  await page.evaluate(() => {
    const seen: string[] = ((window as unknown as { progressSeen: string[] }).progressSeen = []);
    new MutationObserver(() => {
      const value = document.querySelector("[role=progressbar][aria-label='Evaluation progress']")?.getAttribute("aria-valuenow");
      if (value && seen.at(-1) !== value) seen.push(value);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow"] });
  });
  provider.answer.firstTokenDelayMs = 1_500;
  try {
    await run.getByRole("button", { name: "Run evaluation" }).click();
    await expect(run).toBeHidden();
    await expect(page.getByRole("progressbar", { name: "Evaluation progress" })).toBeVisible();
    await expect(page.getByTestId("evaluation-counts")).toHaveText("40 done · 0 could not run", { timeout: 20_000 });
  } finally {
    provider.answer.firstTokenDelayMs = 0;
  }
  const seen = (await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen)).map(Number);
  expect(seen[0]).toBe(0);
  expect(seen.at(-1)).toBe(40);
  expect(seen.some((value) => value > 0 && value < 40)).toBe(true);
  await expect(page.getByTestId("evaluation-view").getByText("Done", { exact: true })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Evaluation progress" })).toHaveAttribute("aria-valuenow", "40");
  const figures = page.getByRole("table", { name: "Figures per version" });
  await expect(figures.locator("[data-version='1']")).toContainText("100 %");
  await expect(figures.locator("[data-version='2']")).toContainText("50 %");
  await expect(page.getByTestId("result-row")).toHaveCount(20);
  const evaluation = await withDb(async (client) =>
    (await client.query<{ status: string; passed: number; items: number }>(
      `SELECT e.status::text AS status, count(i.id)::int AS items, (count(i.id) FILTER (WHERE i.status = 'passed'))::int AS passed
       FROM evaluations e JOIN evaluation_items i ON i.evaluation_id = e.id WHERE e.prompt_id = $1 GROUP BY e.id`, [prompt.id])).rows,
  );
  expect(evaluation).toEqual([{ status: "done", items: 40, passed: 30 }]);

  // Compare v1 with v2: the ten cases that asked for politeness flipped, each with its outputs diffed.
  await page.getByTestId("evaluation-view").getByRole("tab", { name: "Compare versions" }).click();
  await expect(page.getByRole("heading", { name: "10 cases flipped between v1 and v2" })).toBeVisible();
  await expect(page.getByTestId("flipped-case")).toHaveCount(10);
  const diff = page.getByRole("region", { name: "Case 3 output diff" });
  await expect(diff.locator("[data-diff='removed']")).toHaveText("-Removed: Echo: Answer question 3 politely.");
  await expect(diff.locator("[data-diff='added']")).toHaveText("+Added: Echo: Answer question 3.");
  await expect(page.getByRole("listitem", { name: "Case 3", exact: true })).toContainText("contains 'politely'");

  // On a phone nothing is wider than the screen: the tables and diffs scroll in their frames.
  // The screen's width changes under a page already drawn: the app's layout follows the resize in a
  // render of its own, so the width is read until it has (a read straight after it raced that render).
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 800 });

  // A Playground run saved as a case: its variables, and its answer as the expected output.
  await page.getByRole("tab", { name: "Write & try" }).click();
  await page.getByRole("tab", { name: "Playground" }).click();
  await page.getByLabel("question", { exact: true }).fill("question 21");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByRole("region", { name: "Model 1", exact: true }).getByTestId("column-output")).toContainText("Echo: Answer question 21.");
  await page.getByRole("button", { name: "Save as test case from model 1" }).click();
  const add = page.getByRole("dialog", { name: "Add test case" });
  await expect(add.getByLabel("question", { exact: true })).toHaveValue("question 21");
  await expect(add.getByLabel("Expected output (optional)")).toHaveValue("Echo: Answer question 21.");
  await add.getByRole("button", { name: "Add test case" }).click();
  await expect(toast(page, "Test case added")).toBeVisible();

  // Case 1 gets a judged assertion: a rubric, the connection and the model that judge.
  await page.getByRole("tab", { name: "Evaluate" }).click();
  await page.getByRole("tab", { name: "Test cases" }).click();
  await expect(page.getByTestId("test-case")).toHaveCount(21);
  await page.getByRole("button", { name: "Edit case 1", exact: true }).click();
  const edit = page.getByRole("dialog", { name: "Edit test case" });
  await edit.getByRole("button", { name: "Add assertion" }).click();
  await edit.getByRole("combobox", { name: "Assertion 2", exact: true }).click();
  await page.getByRole("option", { name: "Judged by a model" }).click();
  await edit.getByLabel("Rubric of assertion 2").fill("The answer is polite.");
  await edit.getByRole("combobox", { name: "Judge's connection of assertion 2" }).click();
  await page.getByRole("option", { name: connectionName }).click();
  await edit.getByLabel("Judge's model of assertion 2").fill("gpt-4o-mini");
  await edit.getByRole("button", { name: "Save test case" }).click();
  await expect(toast(page, "Test case saved")).toBeVisible();
  await expect(page.getByRole("listitem", { name: "Case 1", exact: true })).toContainText("judged by gpt-4o-mini: The answer is polite.");
  const stored = await withDb(async (client) =>
    (await client.query<{ variables: unknown; expected: string | null; assertions: { type: string; model?: string }[] }>(
      `SELECT variables, expected, assertions FROM test_cases WHERE prompt_id = $1 ORDER BY created_at, id`, [prompt.id])).rows,
  );
  expect(stored).toHaveLength(21);
  expect(stored[0]!.assertions.map((assertion) => [assertion.type, assertion.model])).toEqual([["contains", undefined], ["judge", "gpt-4o-mini"]]);
  expect(stored[20]).toEqual({ variables: { question: "question 21" }, expected: "Echo: Answer question 21.", assertions: [] });
  expect(errors).toEqual([]);
});

test("a test case over the size limit is refused in the dialog, which stays open with what was typed; made smaller, it is added", async ({ page }) => {
  const editor = await createAccount({ fullName: "Lena Limit" });
  const { organization, team } = await createTeamInNewOrganization([{ userId: editor.id, role: "admin" }]);
  await signIn(page, editor.email);
  const errors = consoleErrors(page, { allow4xx: true });
  const prompt = (await callMutation(page.request, "prompts.create", {
    teamId: team.id, name: `e2e/${randomBytes(5).toString("hex")}`, title: uniqueName("Large"), visibility: "team", type: "text", template: "Answer {{ question }}.", model: "gpt-4o-mini",
  })) as { id: string };
  await activateTeam(page, organization.id, team.id);
  await page.goto(`/prompts/${prompt.id}?tab=cases`);
  await expect(page.getByTestId("test-cases-empty")).toBeVisible();
  await page.getByRole("button", { name: "Add test case" }).click();
  const add = page.getByRole("dialog", { name: "Add test case" });

  // 100,000 characters pasted into the variable: as JSON, {"question":"…"} and the placeholders' {} take 100,017.
  const large = "x".repeat(100_000);
  await add.getByLabel("question", { exact: true }).focus();
  await page.keyboard.insertText(large);
  await add.getByLabel("Expected output (optional)").fill("An answer.");
  await add.getByRole("button", { name: "Add test case" }).click();
  await expect(add.getByRole("alert")).toHaveText(EVALUATION_MSG.valuesTooLarge(100_017));
  await expect(add).toBeVisible();
  await expect(add.getByLabel("question", { exact: true })).toHaveValue(large);
  await expect(add.getByLabel("Expected output (optional)")).toHaveValue("An answer.");

  // An expected output over its limit is said on its field.
  await add.getByLabel("question", { exact: true }).fill("a question");
  await add.getByLabel("Expected output (optional)").fill("y".repeat(100_001));
  await add.getByRole("button", { name: "Add test case" }).click();
  await expect(add.getByLabel("Expected output (optional)")).toHaveAttribute("aria-invalid", "true");
  await expect(add.getByRole("alert")).toContainText("100000");
  await expect(add).toBeVisible();
  expect(await withDb(async (client) => (await client.query(`SELECT 1 FROM test_cases WHERE prompt_id = $1`, [prompt.id])).rowCount)).toBe(0);

  // Made smaller, the case goes in.
  await add.getByLabel("Expected output (optional)").fill("An answer.");
  await add.getByRole("button", { name: "Add test case" }).click();
  await expect(toast(page, "Test case added")).toBeVisible();
  await expect(add).toBeHidden();
  await expect(page.getByTestId("test-case")).toHaveCount(1);
  expect(errors).toEqual([]);
});

test("the tab lists each case as a preview, its long texts cut; Edit loads the case whole, as stored at each opening", async ({ page }) => {
  const editor = await createAccount({ fullName: "Petra Preview" });
  const { organization, team } = await createTeamInNewOrganization([{ userId: editor.id, role: "admin" }]);
  await signIn(page, editor.email);
  const errors = consoleErrors(page);
  const prompt = (await callMutation(page.request, "prompts.create", {
    teamId: team.id, name: `e2e/${randomBytes(5).toString("hex")}`, title: uniqueName("Previews"), visibility: "team", type: "text", template: "Answer {{ question }}.", model: "gpt-4o-mini",
  })) as { id: string };
  const question = `${"q".repeat(200)}${"Q".repeat(4_800)}`;
  const expected = `${"a".repeat(200)}${"A".repeat(4_800)}`;
  const created = (await callMutation(page.request, "testCases.create", { promptId: prompt.id, variables: { question }, expected })) as { id: string };
  // A case of an older version's two variables whose long names begin alike: written straight to the table.
  const stem = "n".repeat(100);
  await withDb((client) =>
    client.query(`INSERT INTO test_cases (prompt_id, variables, created_at) VALUES ($1, $2, now() + interval '1 second')`, [prompt.id, JSON.stringify({ [`${stem}_a`]: "first", [`${stem}_b`]: "second" })]),
  );
  await activateTeam(page, organization.id, team.id);
  await page.goto(`/prompts/${prompt.id}?tab=cases`);

  const item = page.getByRole("listitem", { name: "Case 1", exact: true });
  await expect(item).toContainText(`${"q".repeat(200)}…`);
  await expect(item).toContainText(`${"a".repeat(200)}…`);
  await expect(item).not.toContainText("Q");
  // Each name cut says so; both rows are there, each with its value.
  const longNames = page.getByRole("listitem", { name: "Case 2", exact: true });
  await expect(longNames.getByText(`${stem}…`, { exact: true })).toHaveCount(2);
  await expect(longNames).toContainText("first");
  await expect(longNames).toContainText("second");

  await page.getByRole("button", { name: "Edit case 1", exact: true }).click();
  const edit = page.getByRole("dialog", { name: "Edit test case" });
  await expect(edit.getByLabel("question", { exact: true })).toHaveValue(question);
  await expect(edit.getByLabel("Expected output (optional)")).toHaveValue(expected);
  await edit.getByLabel("question", { exact: true }).fill("short now");
  await edit.getByRole("button", { name: "Save test case" }).click();
  await expect(toast(page, "Test case saved")).toBeVisible();
  await expect(item).toContainText("short now");
  // Opened again, the form has the saved case, not the one read before.
  await page.getByRole("button", { name: "Edit case 1", exact: true }).click();
  await expect(edit.getByLabel("question", { exact: true })).toHaveValue("short now");
  // Another session changes the case: Edit opened again within the cache's freshness reads it afresh,
  // so saving cannot write back the text read before.
  await edit.getByRole("button", { name: "Cancel" }).click();
  await expect(edit).toBeHidden();
  await withDb((client) => client.query(`UPDATE test_cases SET variables = $2 WHERE id = $1`, [created.id, JSON.stringify({ question: "changed elsewhere" })]));
  await page.getByRole("button", { name: "Edit case 1", exact: true }).click();
  await expect(edit.getByLabel("question", { exact: true })).toHaveValue("changed elsewhere");
  expect(errors).toEqual([]);
});

test("an evaluation under way is cancelled from its page: the calls in flight end, the rest is not run", async ({ page }) => {
  const editor = await createAccount({ fullName: "Cora Canceller" });
  const { organization, team } = await createTeamInNewOrganization([{ userId: editor.id, role: "admin" }]);
  await signIn(page, editor.email);
  const errors = consoleErrors(page);
  await callMutation(page.request, "providers.create", {
    organizationId: organization.id, kind: "openai-compatible", name: uniqueName("Local"), baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey,
  });
  const prompt = (await callMutation(page.request, "prompts.create", {
    teamId: team.id, name: `e2e/${randomBytes(5).toString("hex")}`, title: uniqueName("Slow"), visibility: "team", type: "text", template: "Answer {{ question }}.", model: "gpt-4o-mini",
  })) as { id: string };
  await withDb(async (client) => {
    for (let n = 0; n < 5; n++) await client.query(`INSERT INTO test_cases (prompt_id, variables) VALUES ($1, $2)`, [prompt.id, { question: `q${n}` }]);
  });
  await activateTeam(page, organization.id, team.id);
  await page.goto(`/prompts/${prompt.id}?tab=evaluations`);
  provider.answer.firstTokenDelayMs = 30_000;
  try {
    await page.getByRole("button", { name: "Run evaluation" }).click();
    await page.getByRole("dialog", { name: "Run evaluation" }).getByRole("button", { name: "Run evaluation" }).click();
    const view = page.getByTestId("evaluation-view");
    // The evaluation's own status, in its header (the results below badge each item, "Cancelled" too).
    const status = view.locator("header").first();
    await expect(status.getByText("Running", { exact: true })).toBeVisible();
    await expect.poll(() => provider.openAnswers + provider.openStreams).toBe(5);
    await view.getByRole("button", { name: "Cancel evaluation" }).click();
    await expect(status.getByText("Cancelled", { exact: true })).toBeVisible();
    await expect(view.getByTestId("evaluation-counts")).toHaveText("0 done · 0 could not run · 5 not run");
    await expect(view.getByRole("button", { name: "Cancel evaluation" })).toBeHidden();
    await expect.poll(() => provider.openAnswers + provider.openStreams, { timeout: 2_000 }).toBe(0);
  } finally {
    provider.answer.firstTokenDelayMs = 0;
  }
  const statuses = await withDb(async (client) =>
    (await client.query<{ status: string }>(`SELECT DISTINCT i.status::text AS status FROM evaluation_items i JOIN evaluations e ON e.id = i.evaluation_id WHERE e.prompt_id = $1`, [prompt.id])).rows,
  );
  expect(statuses).toEqual([{ status: "cancelled" }]);
  expect(errors).toEqual([]);
});

test("an evaluation whose connection cannot be reached says how many cases could not run and why; mended, the cases in error are retried and pass", async ({ page }) => {
  const editor = await createAccount({ fullName: "Rhea Retrier" });
  const { organization, team } = await createTeamInNewOrganization([{ userId: editor.id, role: "admin" }]);
  await signIn(page, editor.email);
  const errors = consoleErrors(page);
  // A base URL where nothing listens: a port a server of our own held and gave back.
  const closedPort = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  const connection = (await callMutation(page.request, "providers.create", {
    organizationId: organization.id, kind: "openai-compatible", name: uniqueName("Unreachable"), baseUrl: `http://127.0.0.1:${closedPort}/v1`, apiKey: provider.apiKey,
  })) as { id: string; name: string };
  const prompt = (await callMutation(page.request, "prompts.create", {
    teamId: team.id, name: `e2e/${randomBytes(5).toString("hex")}`, title: uniqueName("Unreachable"), visibility: "team", type: "text", template: "Answer {{ question }}.", model: "gpt-4o-mini",
  })) as { id: string };
  await withDb(async (client) => {
    for (let n = 0; n < 3; n++) await client.query(`INSERT INTO test_cases (prompt_id, variables, assertions) VALUES ($1, $2, $3)`, [prompt.id, { question: `q${n}` }, JSON.stringify([{ type: "contains", value: "Echo" }])]);
  });
  await activateTeam(page, organization.id, team.id);
  await page.goto(`/prompts/${prompt.id}?tab=evaluations`);
  await page.getByRole("button", { name: "Run evaluation" }).click();
  await page.getByRole("dialog", { name: "Run evaluation" }).getByRole("button", { name: "Run evaluation" }).click();

  // Done, with no pass rate: the three cases could not run, and the page says why.
  const view = page.getByTestId("evaluation-view");
  await expect(view.locator("header").first().getByText("Done", { exact: true })).toBeVisible();
  await expect(view.getByTestId("evaluation-counts")).toHaveText("0 done · 3 could not run");
  await expect(view.getByRole("table", { name: "Figures per version" }).locator("[data-version='1']")).toContainText(/v1\s*–\s*0\s*0\s*3/);
  await expect(view.getByTestId("cases-not-run")).toContainText(`3 cases could not run: Could not reach ${connection.name} at 127.0.0.1:${closedPort}: is the server running?`);

  // The list says it too, beside the pass rate, with the button.
  await view.getByRole("button", { name: "All evaluations" }).click();
  const row = page.getByRole("table", { name: "Evaluations" }).getByRole("row").nth(1);
  await expect(row.getByTestId("cases-not-run")).toContainText("3 cases could not run: Could not reach");

  // The connection mended, the cases in error are retried from the list (the row does not open) and pass.
  await callMutation(page.request, "providers.update", { id: connection.id, baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
  await row.getByRole("button", { name: "Retry cases in error" }).click();
  await expect(toast(page, "Running the 3 cases in error again")).toBeVisible();
  await expect(page.getByTestId("evaluation-view")).toBeHidden();
  await expect(row).toContainText("v1 100 %", { timeout: 10_000 });
  await expect(row.getByTestId("cases-not-run")).toBeHidden();
  await row.getByRole("button", { name: /^Open the evaluation of / }).click();
  await expect(view.getByTestId("evaluation-counts")).toHaveText("3 done · 0 could not run");
  await expect(view.getByTestId("cases-not-run")).toBeHidden();
  const statuses = await withDb(async (client) =>
    (await client.query<{ status: string; evaluations: number }>(
      `SELECT i.status::text AS status, count(DISTINCT e.id)::int AS evaluations FROM evaluation_items i JOIN evaluations e ON e.id = i.evaluation_id WHERE e.prompt_id = $1 GROUP BY i.status`, [prompt.id])).rows,
  );
  expect(statuses).toEqual([{ status: "passed", evaluations: 1 }]);
  expect(errors).toEqual([]);
});

let clock = Date.now() - 3_600_000;

/** A finished evaluation written as rows: per version, the first `passed[version]` of the cases passed, the rest failed. */
async function evaluationRows(organizationId: string, promptId: string, cases: string[], passed: Record<number, number>) {
  return withDb(async (client) => {
    const createdAt = new Date((clock += 60_000));
    const versions = Object.keys(passed).map(Number);
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO evaluations (organization_id, prompt_id, versions, connection_name, status, created_at, finished_at) VALUES ($1, $2, $3, 'Local', 'done', $4, $4) RETURNING id`,
      [organizationId, promptId, versions, createdAt],
    );
    for (const version of versions) {
      for (const [position, testCaseId] of cases.entries()) {
        await client.query(
          `INSERT INTO evaluation_items (evaluation_id, test_case_id, version, position, status, output, latency_ms, input_tokens, output_tokens, cost, attempts)
           VALUES ($1, $2, $3, $4, $5, 'An answer.', $6, 6, 4, 0.001, 1)`,
          [rows[0]!.id, testCaseId, version, position, position < passed[version]! ? "passed" : "failed", 100 + position],
        );
      }
    }
    return rows[0]!.id;
  });
}

test("below the team's required pass rate the reviewer sees both evaluations and cannot approve; a passing evaluation lifts it", async ({ page, browser }) => {
  const reviewer = await createAccount({ fullName: "Rita Reviewer", role: "administrator" });
  const author = await createAccount({ fullName: "Aldo Author" });
  const { organization, team } = await createTeamInNewOrganization([
    { userId: reviewer.id, role: "admin" },
    { userId: author.id, role: "editor" },
  ]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: author.id, template: "Version 1 answers {{ question }}." });
  const cases = await withDb(async (client) => {
    await client.query(`INSERT INTO prompt_versions (prompt_id, version, type, template, author_id) VALUES ($1, 2, 'text', 'Version 2 answers {{ question }}.', $2)`, [prompt.id, author.id]);
    await client.query(`UPDATE prompts SET latest_version = 2 WHERE id = $1`, [prompt.id]);
    await client.query(`INSERT INTO prompt_labels (prompt_id, name, version) VALUES ($1, 'production', 1)`, [prompt.id]);
    await client.query(`UPDATE teams SET required_approvals = 1 WHERE id = $1`, [team.id]);
    const ids: string[] = [];
    for (let n = 0; n < 10; n++) {
      ids.push((await client.query<{ id: string }>(`INSERT INTO test_cases (prompt_id, variables, created_at) VALUES ($1, $2, now() + $3 * interval '1 ms') RETURNING id`, [prompt.id, { question: `q${n}` }, n])).rows[0]!.id);
    }
    return ids;
  });
  await evaluationRows(organization.id, prompt.id, cases, { 1: 10, 2: 7 });
  const request = await createChangeRequestWith({ promptId: prompt.id, authorId: author.id, version: 2 });

  // The team admin requires 90 % on the Teams page.
  const errors = consoleErrors(page, { allow4xx: true });
  await signIn(page, reviewer.email);
  await activateTeam(page, organization.id, team.id);
  await page.goto("/teams");
  const card = page.getByTestId("team-reviews-card");
  await card.getByLabel("Required pass rate for production (%)").fill("90");
  await card.getByRole("button", { name: "Save pass rate" }).click();
  await expect(toast(page, REVIEW_MSG.settingsSavedToast)).toBeVisible();
  await expect(card).toContainText("must pass 90 % of its cases");
  expect((await withDb((client) => client.query<{ rate: number }>(`SELECT required_pass_rate AS rate FROM teams WHERE id = $1`, [team.id]))).rows[0]!.rate).toBe(90);

  // On the request: both evaluations side by side, and Approve refused with the figures.
  await page.goto(`/reviews/${request.id}`);
  const evidence = page.getByTestId("evidence-panel");
  await expect(evidence).toContainText("pass 90 % of its cases");
  await expect(evidence.locator("[data-role='proposed']")).toContainText(/Proposed v2\s*70 %\s*7 of 10/);
  await expect(evidence.locator("[data-role='production']")).toContainText(/Production v1\s*100 %\s*10 of 10/);
  const refusal = EVALUATION_MSG.passRateTooLow(70, 90);
  await expect(page.getByTestId("approve-blocked-reason")).toHaveText(refusal);
  const approve = page.getByRole("button", { name: "Approve" });
  await expect(approve).toBeDisabled();
  await expect(approve).toHaveAccessibleDescription(refusal);
  // The server says the same to a direct call, and nothing moves.
  await expect(callMutation(page.request, "changeRequests.approve", { id: request.id })).rejects.toThrow(refusal);

  // A new evaluation of v2 passes 9 of 10: the block is lifted and the approval moves production.
  await evaluationRows(organization.id, prompt.id, cases, { 2: 9 });
  await page.reload();
  await expect(evidence.locator("[data-role='proposed']")).toContainText(/Proposed v2\s*90 %\s*9 of 10/);
  await expect(page.getByTestId("approve-blocked-reason")).toBeHidden();
  await approve.click();
  await expect(toast(page, REVIEW_MSG.mergedToast)).toBeVisible();
  const production = await withDb(async (client) => (await client.query<{ version: number }>(`SELECT version FROM prompt_labels WHERE prompt_id = $1 AND name = 'production'`, [prompt.id])).rows[0]!.version);
  expect(production).toBe(2);
  // The evidence links to the evaluation it reads.
  await evidence.getByRole("link", { name: /the evaluation of proposed v2$/ }).click();
  await expect(page.getByRole("heading", { name: "Evaluation of v2" })).toBeVisible();
  expect(errors).toEqual([]);
});

test("the results and the comparison show a page of cases with their outputs cut short; one output opens whole, and two cut outputs are diffed whole", async ({ page }) => {
  const editor = await createAccount({ fullName: "Rita Results" });
  const { organization, team } = await createTeamInNewOrganization([{ userId: editor.id, role: "admin" }]);
  await signIn(page, editor.email);
  const errors = consoleErrors(page);
  const prompt = (await callMutation(page.request, "prompts.create", {
    teamId: team.id, name: `e2e/${randomBytes(5).toString("hex")}`, title: uniqueName("Long answers"), visibility: "team", type: "text", template: "Answer {{ question }}.", model: "gpt-4o-mini",
  })) as { id: string };
  await callMutation(page.request, "promptVersions.create", { promptId: prompt.id, type: "text", template: "Answer {{ question }} at length.", model: "gpt-4o-mini" });
  // An evaluation of 60 cases written straight to the tables: v1 passed each, v2 failed each; case 1's
  // outputs are long (their first 300 characters alike, their ends not); case 2's judge on v2 gave a long reason.
  const long = (version: number) => `${"x".repeat(300)}\nthe end of v${version}: ${"y".repeat(5_000)}`;
  const evaluationId = await withDb(async (client) => {
    const { id } = (await client.query<{ id: string }>(
      `INSERT INTO evaluations (organization_id, prompt_id, versions, connection_name, status, finished_at) VALUES ($1, $2, '{1,2}', 'Local', 'done', now()) RETURNING id::text`,
      [organization.id, prompt.id],
    )).rows[0]!;
    await client.query(
      `INSERT INTO evaluation_items (evaluation_id, version, position, variables, status, output, results, latency_ms, attempts)
       SELECT $1, v, p, jsonb_build_object('question', 'question ' || (p + 1)), (CASE WHEN v = 1 THEN 'passed' ELSE 'failed' END)::evaluation_item_status,
              CASE WHEN p = 0 THEN (CASE WHEN v = 1 THEN $2 ELSE $3 END) ELSE 'answer ' || (p + 1) || ' on v' || v END,
              CASE WHEN p = 1 AND v = 2 THEN jsonb_build_array(jsonb_build_object('type', 'judge', 'value', 'polite', 'pass', false, 'reason', repeat('r', 600))) END, 5, 1
       FROM generate_series(1, 2) v, generate_series(0, 59) p`,
      [id, long(1), long(2)],
    );
    return id;
  });
  await activateTeam(page, organization.id, team.id);
  await page.goto(`/prompts/${prompt.id}?tab=evaluations&evaluation=${evaluationId}`);

  // The first 50 cases, then the rest on request; case 1's outputs cut short, opened whole in a dialog.
  await expect(page.getByTestId("result-row")).toHaveCount(50);
  const first = page.getByTestId("result-row").first();
  await expect(first.locator("[data-version='2']")).toContainText(`${"x".repeat(300)}…`);
  await expect(first).not.toContainText("the end of");
  // Nothing of a case cut short: no whole case to show.
  await expect(page.getByRole("button", { name: /^Show the whole case/ })).toHaveCount(0);
  await first.locator("[data-version='2']").getByRole("button", { name: "Show the whole output of case 1 on v2", exact: true }).click();
  const whole = page.getByRole("dialog", { name: "Case 1 on v2" });
  await expect(whole.getByTestId("whole-output")).toHaveText(long(2));
  await whole.getByRole("button", { name: "Close" }).click();
  await expect(whole).toBeHidden();
  // A judge's reason cut short says so.
  await expect(page.getByTestId("result-row").nth(1).locator("[data-version='2']")).toContainText(`${"r".repeat(500)}…`);
  await expect(page.getByTestId("result-row").nth(1).locator("[data-version='2']")).not.toContainText("r".repeat(501));
  await page.getByTestId("result-row").nth(1).locator("[data-version='2']").getByRole("button", { name: "Show the whole reason of case 2 on v2 (judged: polite)", exact: true }).click();
  const reason = page.getByRole("dialog", { name: "Case 2 on v2" });
  await expect(reason).toHaveAccessibleDescription("The whole reason for the assertion “judged: polite”.");
  await expect(reason.getByTestId("whole-reason")).toHaveText("r".repeat(600));
  await reason.getByRole("button", { name: "Close" }).click();
  await expect(reason).toBeHidden();
  await page.getByRole("button", { name: "Show more cases" }).click();
  await expect(page.getByTestId("result-row")).toHaveCount(60);
  await expect(page.getByRole("button", { name: "Show more cases" })).toBeHidden();

  // Compare: all 60 counted, 50 shown; case 1's cut outputs look alike until diffed whole.
  await page.getByTestId("evaluation-view").getByRole("tab", { name: "Compare versions" }).click();
  await expect(page.getByRole("heading", { name: "60 cases flipped between v1 and v2" })).toBeVisible();
  await expect(page.getByTestId("flipped-case")).toHaveCount(50);
  const diff = page.getByRole("region", { name: "Case 1 output diff" });
  await expect(diff.locator("[data-diff='removed']")).toHaveCount(0);
  await page.getByRole("listitem", { name: "Case 1", exact: true }).getByRole("button", { name: "The outputs are cut short: compare them whole" }).click();
  await expect(diff.locator("[data-diff='removed']")).toContainText("the end of v1");
  await expect(diff.locator("[data-diff='added']")).toContainText("the end of v2");
  // Case 2's reason cut short opens whole from the comparison too.
  await page.getByRole("listitem", { name: "Case 2", exact: true }).getByRole("button", { name: "Show the whole reason of case 2 on v2 (judged: polite)", exact: true }).click();
  await expect(reason.getByTestId("whole-reason")).toHaveText("r".repeat(600));
  await reason.getByRole("button", { name: "Close" }).click();
  await expect(reason).toBeHidden();
  await page.getByRole("button", { name: "Show more cases" }).click();
  await expect(page.getByTestId("flipped-case")).toHaveCount(60);
  expect(errors).toEqual([]);
});

test("a case's error and its expected output cut short open whole", async ({ page }) => {
  const editor = await createAccount({ fullName: "Wanda Whole" });
  const { organization, team } = await createTeamInNewOrganization([{ userId: editor.id, role: "admin" }]);
  await signIn(page, editor.email);
  const errors = consoleErrors(page);
  const prompt = (await callMutation(page.request, "prompts.create", {
    teamId: team.id, name: `e2e/${randomBytes(5).toString("hex")}`, title: uniqueName("Refusals"), visibility: "team", type: "text", template: "Answer {{ question }}.", model: "gpt-4o-mini",
  })) as { id: string };
  // Cases written straight to the tables: an error past its 2,000-character preview, an expected output past its 300;
  // a second case's error as long, gone from the item after the page loaded.
  const error = `${"E".repeat(2_000)} the error's end`;
  const expected = `${"e".repeat(300)} the expected end`;
  const evaluationId = await withDb(async (client) => {
    const { id } = (await client.query<{ id: string }>(
      `INSERT INTO evaluations (organization_id, prompt_id, versions, connection_name, status, finished_at) VALUES ($1, $2, '{1}', 'Local', 'done', now()) RETURNING id::text`,
      [organization.id, prompt.id],
    )).rows[0]!;
    await client.query(
      `INSERT INTO evaluation_items (evaluation_id, version, position, variables, expected, status, error, attempts) VALUES ($1, 1, 0, '{"question": "why"}', $2, 'error', $3, 1)`,
      [id, expected, error],
    );
    await client.query(`INSERT INTO evaluation_items (evaluation_id, version, position, variables, status, error, attempts) VALUES ($1, 1, 1, '{"question": "how"}', 'error', $2, 1)`, [id, error]);
    return id;
  });
  await activateTeam(page, organization.id, team.id);
  await page.goto(`/prompts/${prompt.id}?tab=evaluations&evaluation=${evaluationId}`);

  const row = page.getByTestId("result-row").first();
  await expect(row).toContainText(`${"E".repeat(2_000)}…`);
  await expect(row).not.toContainText("the error's end");
  await expect(row).toContainText(`Expected: ${"e".repeat(79)}…`);
  await row.locator("[data-version='1']").getByRole("button", { name: "Show the whole error of case 1 on v1", exact: true }).click();
  const wholeError = page.getByRole("dialog", { name: "Case 1 on v1" });
  await expect(wholeError.getByTestId("whole-error")).toHaveText(error);
  await expect(wholeError.getByText("the error's end")).toBeVisible();
  await wholeError.getByRole("button", { name: "Close" }).click();
  await expect(wholeError).toBeHidden();

  await row.getByRole("button", { name: "Show the whole case 1", exact: true }).click();
  const wholeCase = page.getByRole("dialog", { name: "Case 1", exact: true });
  await expect(wholeCase.getByTestId("whole-expected")).toHaveText(expected);
  await expect(wholeCase.getByText("the expected end")).toBeVisible();
  await expect(wholeCase.getByRole("term").first()).toHaveText("question");
  await expect(wholeCase.getByRole("definition").first()).toHaveText("why");
  await wholeCase.getByRole("button", { name: "Close" }).click();
  await expect(wholeCase).toBeHidden();

  // Case 2's error, gone from its item since the page loaded (as a retry leaves it: pending again, its error cleared;
  // the evaluation left done so the page does not poll it back): said so, not an empty box.
  await withDb((client) =>
    client.query(`UPDATE evaluation_items SET status = 'pending', error = NULL, attempts = 0, finished_at = NULL WHERE evaluation_id = $1 AND position = 1`, [evaluationId]));
  await page.getByRole("button", { name: "Show the whole error of case 2 on v1", exact: true }).click();
  const goneError = page.getByRole("dialog", { name: "Case 2 on v1" });
  await expect(goneError.getByText("No longer on this item.")).toBeVisible();
  await expect(goneError.getByTestId("whole-error")).toHaveCount(0);
  expect(errors).toEqual([]);
});
