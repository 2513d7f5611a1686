// The Production tab end to end, at a desktop width (1400 px) and a phone's (375 px): first the empty
// state and its hint; then, with rollups and generations written for two versions over the last hours,
// the figures per version with their charts and scores (a name sent with two types shows each type; with
// a model chosen, a note there and in the comparison says the scores are every model's), the two
// versions compared with their sentences, the generations list, and one generation opened (its trace id,
// its kept text) and given a thumbs up; then the generations exported as CSV (REST /api/v1's columns)
// and JSON Lines from the phone; last, over 7 days, the charts' hidden figures per UTC day with an empty
// day in its place; and with the figures failing, the comparison and the generations still shown.
// No serious axe finding at either width, and the page never scrolls sideways on the phone.
import { readFile } from "node:fs/promises";
import { expect, test, type Download, type Page } from "@playwright/test";
import { histOf, parseCsv } from "@promptly/shared";
import { createAccount, createOrganizationWith, createTeamWith, signIn, uniqueName, withDb } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { E2E } from "./support/env.ts";
import { consoleErrors } from "./support/console.ts";
import { createPromptWith } from "./support/prompts.ts";

/** Chooses a format in the generations' Export menu and waits for the file it saves. */
async function exportGenerations(page: Page, format: "CSV" | "JSON Lines"): Promise<{ download: Download; text: string }> {
  await page.getByRole("button", { name: "Export generations" }).click();
  const downloading = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: format, exact: true }).click();
  const download = await downloading;
  return { download, text: await readFile((await download.path())!, "utf8") };
}

/** Whether the page is wider than its window (something scrolls the whole page sideways). */
// Polled where it is asserted: after a viewport change the charts measure their box again (a ResizeObserver), a moment later.
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

test("the Production tab shows the figures per version, compares two versions, opens a generation and exports the generations, at 1400 and 375 px", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = consoleErrors(page);
  const admin = await createAccount({ fullName: "Paz Production" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "admin" }]);
  const team = await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }], uniqueName("Prod"));
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: admin.id, template: "Answer {{ question }}." });
  await withDb(async (client) => {
    await client.query(`INSERT INTO prompt_versions (prompt_id, version, type, template, author_id) VALUES ($1, 2, 'text', 'Answer {{ question }} briefly.', $2)`, [prompt.id, admin.id]);
    await client.query(`UPDATE prompts SET latest_version = 2 WHERE id = $1`, [prompt.id]);
  });
  await signIn(page, admin.email);
  await page.setViewportSize({ width: 1400, height: 900 });

  // Nothing sent yet: the empty state says how to send it.
  await page.goto(`/prompts/${prompt.id}?tab=production`);
  await expect(page.getByTestId("production-empty")).toContainText("No production data yet");
  await expect(page.getByTestId("production-empty").getByRole("link", { name: "the API reference" })).toHaveAttribute("href", "/api/docs");
  expect(await seriousViolations(page)).toEqual([]);

  // Two hours of each version: v1 slower with errors and half thumbs up, v2 faster and liked.
  const latencies = (n: number, step: number) => Array.from({ length: n }, (_, i) => (i + 1) * step);
  await withDb(async (client) => {
    await client.query(`UPDATE teams SET keep_generation_text = true WHERE id = $1`, [team.id]);
    // Production has served v1 and, to a fifth of fetches, v2 for three hours: the comparison starts on that split, and from when it began.
    await client.query(
      `INSERT INTO prompt_labels (prompt_id, name, version, candidate_version, candidate_weight, moved_at) VALUES ($1, 'production', 1, 2, 20, date_trunc('hour', now()) - interval '3 hours')`,
      [prompt.id],
    );
    for (const [version, hoursAgo, generations, errors, step] of [
      [1, 3, 40, 6, 60],
      [1, 2, 40, 4, 60],
      [2, 2, 40, 0, 20],
      [2, 1, 40, 1, 20],
    ] as const) {
      const values = latencies(generations, step);
      await client.query(
        `INSERT INTO generation_rollups (prompt_id, version, environment, model, hour, generations, errors, latency_sum, latency_count, ttft_sum, ttft_count,
                                         latency_hist, ttft_hist, input_tokens, output_tokens, token_count, cost)
         VALUES ($1, $2, 'production', 'gpt-4o-mini', date_trunc('hour', now()) - make_interval(hours => $3), $4, $5, $6, $7, 0, 0, $8, $9, $10, $11, $4, $12)`,
        [prompt.id, version, hoursAgo, generations, errors, values.reduce((a, b) => a + b, 0), values.length, histOf(values), histOf([]), generations * 100, generations * 40, generations * 0.001],
      );
    }
    for (const [version, up, down] of [[1, 30, 30], [2, 70, 10]] as const) {
      await client.query(
        `INSERT INTO score_rollups (prompt_id, version, environment, hour, name, data_type, count, sum, sum_squares, categories)
         VALUES ($1, $2, 'production', date_trunc('hour', now()) - interval '2 hours', 'thumbs', 'boolean', $3, $4, $4, $5)`,
        [prompt.id, version, up + down, up, JSON.stringify({ True: up, False: down })],
      );
    }
    // v2's "quality" was sent both as yes/no and as a number: two series of one name, each its own rollup row.
    for (const [dataType, count, sum, sumSquares, categories] of [
      ["boolean", 4, 3, 3, { True: 3, False: 1 }],
      ["numeric", 2, 9, 41, {}],
    ] as const) {
      await client.query(
        `INSERT INTO score_rollups (prompt_id, version, environment, hour, name, data_type, count, sum, sum_squares, categories)
         VALUES ($1, 2, 'production', date_trunc('hour', now()) - interval '2 hours', 'quality', $2, $3, $4, $5, $6)`,
        [prompt.id, dataType, count, sum, sumSquares, JSON.stringify(categories)],
      );
    }
    for (const [i, version, status] of [[0, 1, "error"], [1, 2, "ok"]] as const) {
      await client.query(
        `INSERT INTO generations (organization_id, team_id, prompt_id, prompt_name, version, trace_id, observation_id, source, model, environment, started_at,
                                  latency_ms, input_tokens, output_tokens, cost, status, error_message, input, output)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'langfuse', 'gpt-4o-mini', 'production', now() - make_interval(mins => $8), 420, 100, 40, 0.001, $9, $10, $11, $12)`,
        [organization.id, team.id, prompt.id, prompt.name, version, `trace-e2e-${i}`, `obs-${i}`, 30 - i * 10, status, status === "error" ? "upstream timeout" : null,
          `What is ${i}?`, `It is ${i}.`],
      );
    }
  });

  for (const width of [1400, 375]) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 800 });
    await page.goto(`/prompts/${prompt.id}?tab=production&prodRange=24h`);
    const figures = page.getByRole("table", { name: "Production figures per version" });
    await expect(figures.locator("tbody tr")).toHaveCount(2);
    await expect(figures.locator("tbody tr").nth(0).getByRole("rowheader")).toHaveText("v2");
    await expect(figures.locator("tbody tr").nth(0)).toContainText("80");
    await expect(figures.locator("tbody tr").nth(1)).toContainText("13%");
    // Tokens (mean), the row's fifth cell: 100 in and 40 out for each generation, every one of which reported its usage.
    await expect(figures.locator("tbody tr").nth(0).getByRole("cell").nth(4)).toHaveText("140");
    await expect(figures.locator("tbody tr").nth(0).getByRole("img", { name: /^v2: generations per hour/ })).toBeVisible();
    // The name sent with two types is two figures, each with its type; a name with one type has none.
    await expect(figures.getByRole("list", { name: "v2: scores" }).getByRole("listitem")).toHaveText([
      "quality (boolean) 75% true (4 scored)",
      "quality (numeric) mean 4.5 (2 scored)",
      "thumbs 88% true (80 scored)",
    ]);
    await expect(figures.getByRole("list", { name: "v1: scores" }).getByRole("listitem")).toHaveText(["thumbs 50% true (60 scored)"]);
    // No model chosen: the scores are as filtered as the rest, and nothing says otherwise.
    await expect(page.getByTestId("production-scores-all-models")).toHaveCount(0);
    await expect(figures.getByRole("columnheader", { name: "Scores", exact: true })).toBeVisible();

    const comparison = page.getByRole("region", { name: "Compare two versions" });
    await expect(comparison.getByTestId("production-compare-scores-all-models")).toHaveCount(0);
    await expect(comparison).toContainText("The production label is split: v1 serves 80% of fetches, v2 20%.");
    await expect(comparison.getByTestId("comparison-since")).toHaveText(/^Since the split began .+\.$/);
    await expect(comparison.getByRole("combobox", { name: "Baseline" })).toHaveText("v1");
    await expect(comparison.getByRole("combobox", { name: "Candidate" })).toHaveText("v2");
    await expect(comparison.locator("[data-metric=thumbs]")).toContainText(/^v2 is better on thumbs \(\+37\.5 points, 95% CI/);
    await expect(comparison.locator("[data-metric=latency]")).toContainText(/^v2 is better on latency \(-/);

    const generations = page.getByRole("table", { name: "Generations" });
    await expect(generations.locator("tbody tr")).toHaveCount(2);
    await expect.poll(() => scrollsSideways(page), { message: "the page scrolls sideways once laid out at this width" }).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
  }

  // A model chosen: the generation figures are that model's, but the scores carry no model, and the figures and the comparison say so.
  await page.goto(`/prompts/${prompt.id}?tab=production&prodRange=24h&prodModel=gpt-4o-mini`);
  const byModel = page.getByRole("table", { name: "Production figures per version" });
  await expect(byModel.locator("tbody tr")).toHaveCount(2);
  const scoresAllModels = "Scores are for all models: they carry no model, so the model filter does not apply to them.";
  await expect(page.getByTestId("production-scores-all-models")).toHaveText(scoresAllModels);
  await expect(page.getByTestId("production-scores-all-models")).toBeVisible();
  await expect(byModel.getByRole("columnheader", { name: "Scores (all models)" })).toHaveAccessibleDescription(scoresAllModels);
  const comparisonByModel = page.getByRole("region", { name: "Compare two versions" });
  await expect(comparisonByModel.locator("[data-metric=thumbs]")).toBeVisible();
  await expect(comparisonByModel.getByTestId("production-compare-scores-all-models")).toHaveText(scoresAllModels);
  await expect(comparisonByModel.getByTestId("production-compare-scores-all-models")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto(`/prompts/${prompt.id}?tab=production&prodRange=24h`);
  await expect(page.getByRole("table", { name: "Production figures per version" }).locator("tbody tr")).toHaveCount(2);

  // One generation opened from the keyboard: its trace id to copy, its text, and a thumbs up saved.
  const generations = page.getByRole("table", { name: "Generations" });
  await generations.locator("tbody tr").nth(0).getByRole("button", { name: /^Open the generation of / }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: /^Generation of v2/ });
  await expect(dialog).toContainText("trace-e2e-1");
  await expect(dialog.getByRole("button", { name: "Copy the trace id" })).toBeVisible();
  await expect(dialog.getByRole("region", { name: "Input" })).toContainText("What is 1?");
  await expect(dialog.getByRole("region", { name: "Output" })).toContainText("It is 1.");
  expect(await seriousViolations(page)).toEqual([]);
  // The buttons show the person's own thumbs: the other one changes it, the pressed one removes it.
  const thumbsUp = dialog.getByRole("button", { name: "Thumbs up" });
  const thumbsDown = dialog.getByRole("button", { name: "Thumbs down" });
  const scores = dialog.getByRole("region", { name: "Scores" });
  await expect(thumbsUp).toHaveAttribute("aria-pressed", "false");
  await thumbsUp.click();
  await expect(thumbsUp).toHaveAttribute("aria-pressed", "true");
  await expect(scores.getByRole("listitem")).toHaveText(["thumbs: True (annotation)"]);
  await thumbsDown.click();
  await expect(thumbsDown).toHaveAttribute("aria-pressed", "true");
  await expect(thumbsUp).toHaveAttribute("aria-pressed", "false");
  await expect(scores.getByRole("listitem")).toHaveText(["thumbs: False (annotation)"]);
  await thumbsDown.click();
  await expect(thumbsDown).toHaveAttribute("aria-pressed", "false");
  await expect(scores).toContainText("No scores yet.");
  await thumbsUp.click();
  await expect(thumbsUp).toHaveAttribute("aria-pressed", "true");
  await dialog.getByLabel("Comment (optional)").fill("Short and right");
  await dialog.getByRole("button", { name: "Save score" }).click();
  await expect(scores).toContainText("Short and right");
  await expect(scores.getByRole("listitem")).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/[?&]generation=/);

  // Both generations exported on the phone, the thumbs up with its generation.
  await page.setViewportSize({ width: 375, height: 800 });
  const [ok, failed] = await withDb(async (client) => {
    const { rows } = await client.query<{ id: string }>(`SELECT id FROM generations WHERE prompt_id = $1 ORDER BY observation_id DESC`, [prompt.id]);
    return rows.map((row) => row.id);
  });
  // The shared rule (generationExportFileName): each run of other characters than letters of either case, digits, '.', '_' and '-' is one '_'.
  const fileName = prompt.name.replace(/[^A-Za-z0-9._-]+/g, "_");
  const startedAt = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const csv = await exportGenerations(page, "CSV");
  expect(csv.download.suggestedFilename()).toBe(`${fileName}-generations.csv`);
  expect(parseCsv(csv.text).records.map((record) => record.cells)).toEqual([
    ["id", "version", "model", "startedAt", "latencyMs", "ttftMs", "inputTokens", "outputTokens", "cost", "status", "error", "traceId", "observationId", "userRef", "sessionRef", "environment", "scores"],
    [ok, "2", "gpt-4o-mini", startedAt, "420", "", "100", "40", "0.001", "ok", "", "trace-e2e-1", "obs-1", "", "", "production", "thumbs=True"],
    [failed, "1", "gpt-4o-mini", startedAt, "420", "", "100", "40", "0.001", "error", "upstream timeout", "trace-e2e-0", "obs-0", "", "", "production", ""],
  ]);
  await expect(page.getByRole("button", { name: "Export generations" })).toBeEnabled();
  const jsonl = await exportGenerations(page, "JSON Lines");
  expect(jsonl.download.suggestedFilename()).toBe(`${fileName}-generations.jsonl`);
  const lines = jsonl.text.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatchObject({
    id: ok, version: 2, model: "gpt-4o-mini", latencyMs: 420, tokens: { input: 100, output: 40 }, status: "ok", traceId: "trace-e2e-1", environment: "production",
    scores: [expect.objectContaining({ name: "thumbs", dataType: "boolean", stringValue: "True", comment: "Short and right" })],
  });
  expect(lines[1]).toMatchObject({ id: failed, status: "error", error: "upstream timeout", scores: [] });
  await expect.poll(() => scrollsSideways(page), { message: "the page scrolls sideways once laid out at this width" }).toBe(false);

  // Over 7 days the charts are per UTC day, every day of the range, the empty ones too: v1 also ran three
  // days ago, so the day after that reads "no generations" in the charts' hidden figures, in its place.
  const gapDay = await withDb(async (client) => {
    const values = latencies(40, 60);
    const { rows } = await client.query<{ hour: Date }>(
      `INSERT INTO generation_rollups (prompt_id, version, environment, model, hour, generations, errors, latency_sum, latency_count, ttft_sum, ttft_count,
                                       latency_hist, ttft_hist, input_tokens, output_tokens, token_count, cost)
       VALUES ($1, 1, 'production', 'gpt-4o-mini', date_trunc('hour', now()) - interval '72 hours', 40, 5, $2, $3, 0, 0, $4, $5, 4000, 1600, 40, 0.04) RETURNING hour`,
      [prompt.id, values.reduce((a, b) => a + b, 0), values.length, histOf(values), histOf([])],
    );
    return rows[0]!.hour;
  });
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`/prompts/${prompt.id}?tab=production&prodRange=7d`);
  await expect(page.getByTestId("production-chart-legend")).toContainText("every UTC day of the range");
  const v1 = page.getByRole("table", { name: "Production figures per version" }).locator("tbody tr[data-version='1']");
  await expect(v1.getByRole("img", { name: /^v1: generations per day \(UTC\), errors darker, [23] days of [78] with generations$/ })).toBeVisible();
  // v2 ran on one UTC day, two when its hours straddle midnight.
  await expect(page.getByRole("img", { name: /^v2: generations per day \(UTC\), errors darker, (1 day|2 days) of [78] with generations$/ })).toBeVisible();
  // The days as the reader's locale writes them, in UTC.
  const [ran, empty] = await page.evaluate(
    (at) => [at, at + 86_400_000].map((time) => new Intl.DateTimeFormat(undefined, { timeZone: "UTC", dateStyle: "medium" }).format(new Date(Math.floor(time / 86_400_000) * 86_400_000))),
    gapDay.getTime(),
  );
  const generationsPerDay = v1.getByRole("list", { name: "v1: generations and errors per day (UTC)" });
  await expect(generationsPerDay).toContainText(`${ran} (UTC): 40 generations, 5 errors`);
  const days = await generationsPerDay.getByRole("listitem").allTextContents();
  expect(days.length === 7 || days.length === 8).toBe(true);
  expect(days[days.indexOf(`${ran} (UTC): 40 generations, 5 errors`) + 1]).toBe(`${empty} (UTC): no generations`);
  const latencyPerDay = v1.getByRole("list", { name: "v1: median latency per day (UTC), each day" });
  await expect(latencyPerDay.getByRole("listitem")).toHaveCount(days.length);
  await expect(latencyPerDay).toContainText(`${empty} (UTC): no generations`);
  // The day three days ago has empty days on both sides: its latency shows as a dot, not as nothing.
  expect(await v1.getByRole("img", { name: "v1: median latency per day (UTC)" }).locator("circle").count()).toBeGreaterThanOrEqual(1);
  expect(await seriousViolations(page)).toEqual([]);
  expect(errors).toEqual([]);

  // The figures failing (a real 500, TEST_FAULTS' cookie) leave the comparison and the generations be:
  // each has its own query and its own error state.
  await page.context().addCookies([{ name: "promptly-test-faults", value: "production.metrics", url: E2E.appUrl }]);
  await page.goto(`/prompts/${prompt.id}?tab=production&prodRange=24h`);
  await expect(page.getByText("The production figures could not be loaded")).toBeVisible({ timeout: 25_000 });
  await expect(page.getByRole("table", { name: "Generations" }).locator("tbody tr")).toHaveCount(2);
  await expect(page.getByRole("region", { name: "Compare two versions" }).locator("[data-metric=thumbs]")).toContainText(/^v2 is better on thumbs/);
  await page.context().clearCookies({ name: "promptly-test-faults" });
});
