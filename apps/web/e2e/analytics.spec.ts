// Analytics: after real runtime fetches (GET /api/v1/prompts/<name> with keys
// created here, counted by the server and flushed to prompt_usage within seconds) and one older day
// seeded in the database, /analytics shows them by day for a chosen team and range, the prompt's
// Usage tab agrees with the counts, and the CSV download holds the same numbers.
import { readFile } from "node:fs/promises";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { callMutation, createAccount, createOrganizationWith, createTeamWith, signIn, withDb } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import { createPromptWith } from "./support/prompts.ts";

const utcDay = (daysAgo: number) => new Date(Date.parse(new Date().toISOString().slice(0, 10)) - daysAgo * 86_400_000).toISOString().slice(0, 10);

async function fetchTimes(times: number, path: string, key: string) {
  for (let i = 0; i < times; i++) {
    const response = await fetch(`${E2E.appUrl}/api/v1/prompts/${path}`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status, path).toBe(200);
  }
}

/** The cells of a table row whose row header is `header`, as text. */
async function rowOf(table: Locator, header: string): Promise<string[]> {
  const row = table.getByRole("row").filter({ has: table.page().getByRole("rowheader", { name: header, exact: true }) });
  await expect(row).toHaveCount(1);
  return (await row.getByRole("cell").allTextContents()).map((text) => text.trim());
}

/** The CSV (RFC 4180, no quoted commas in these names) as objects by column. */
function parseCsv(text: string): Record<string, string>[] {
  const [head, ...lines] = text.trim().split(/\r\n/).map((line) => line.split(","));
  return lines.map((cells) => Object.fromEntries(head!.map((name, i) => [name, cells[i] ?? ""])));
}

async function choose(page: Page, combobox: string, option: string) {
  await page.getByRole("main").getByRole("combobox", { name: combobox }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

test("runtime fetches show by day on Analytics for a team and range, agree with the Usage tab and the CSV", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = consoleErrors(page);
  const admin = await createAccount({ fullName: "Ana Lytics", role: "team_lead" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "member" }]);
  const core = await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }], "Core analytics");
  const other = await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }], "Other analytics");
  const reply = await createPromptWith({ organizationId: organization.id, teamId: core.id, authorId: admin.id, name: "support/reply", template: "One" });
  const faq = await createPromptWith({ organizationId: organization.id, teamId: core.id, authorId: admin.id, name: "billing/faq", template: "FAQ" });
  const greeter = await createPromptWith({ organizationId: organization.id, teamId: other.id, authorId: admin.id, name: "greeter", template: "Hi" });
  await withDb(async (client) => {
    await client.query(`INSERT INTO prompt_versions (prompt_id, version, type, template, author_id) VALUES ($1, 2, 'text', 'Two', $2)`, [reply.id, admin.id]);
    await client.query(`UPDATE prompts SET latest_version = 2 WHERE id = $1`, [reply.id]);
    await client.query(
      `INSERT INTO prompt_labels (prompt_id, name, version) VALUES ($1, 'production', 1), ($1, 'staging', 2), ($2, 'production', 1), ($3, 'production', 1)`,
      [reply.id, faq.id, greeter.id],
    );
  });

  // Keys created here, by the team admin, through the API the Teams page uses.
  await signIn(page, admin.email);
  const coreKey = (await callMutation(page.request, "apiKeys.create", { teamId: core.id, name: "Core service" })) as { id: string; key: string };
  const otherKey = (await callMutation(page.request, "apiKeys.create", { teamId: other.id, name: "Other service" })) as { id: string; key: string };

  // Real fetches today: reply 3× production, 2× staging, 1× version 2; faq 4×; the other team's greeter 5×.
  await fetchTimes(3, "support/reply", coreKey.key);
  await fetchTimes(2, "support/reply?label=staging", coreKey.key);
  await fetchTimes(1, "support/reply?version=2", coreKey.key);
  await fetchTimes(4, "billing/faq", coreKey.key);
  await fetchTimes(5, "greeter", otherKey.key);
  const counted = () =>
    withDb(async (client) => Number((await client.query<{ n: string }>(`SELECT COALESCE(sum(count), 0) AS n FROM prompt_usage WHERE prompt_id = ANY($1::uuid[])`, [[reply.id, faq.id, greeter.id]])).rows[0]!.n));
  // The server adds its counts to prompt_usage every few seconds.
  await expect.poll(counted, { timeout: 20_000 }).toBe(15);
  // An older day, 10 days ago (UTC): inside 30 days, outside 7.
  await withDb((client) =>
    client.query(`INSERT INTO prompt_usage (prompt_id, version, api_key_id, day, label, count) VALUES ($1, 1, $2, $3, 'production', 7)`, [reply.id, coreKey.id, utcDay(10)]),
  );

  await page.addInitScript((organizationId) => localStorage.setItem("promptly.activeOrganizationId", organizationId), organization.id);
  await page.goto("/analytics");
  await expect(page.getByRole("heading", { level: 1, name: "Analytics" })).toBeVisible();
  await choose(page, "Team", core.name);
  await choose(page, "Range", "Last 7 days");
  await expect(page).toHaveURL(new RegExp(`days=7.*teamId=${core.id}|teamId=${core.id}.*days=7`));

  // By day: today holds the fetches of this team's prompts only.
  const today = utcDay(0);
  await expect(page.getByTestId("analytics-total")).toHaveText("10 runtime fetches in the last 7 days, of 2 prompts.");
  const byPrompt = page.getByRole("table", { name: "Fetches per day by prompt" });
  await expect(byPrompt.getByRole("columnheader")).toHaveText(["Day (UTC)", "support/reply", "billing/faq"]);
  expect(await rowOf(byPrompt, today)).toEqual(["6", "4"]);
  expect(await rowOf(byPrompt, utcDay(1))).toEqual(["0", "0"]);
  const byLabel = page.getByRole("table", { name: "Fetches per day by label" });
  await expect(byLabel.getByRole("columnheader")).toHaveText(["Day (UTC)", "(by version)", "production", "staging"]);
  expect(await rowOf(byLabel, today)).toEqual(["1", "7", "2"]);
  const prompts = page.getByRole("table", { name: "Prompts" });
  await expect(prompts.getByRole("row")).toHaveCount(3);
  await expect(prompts.getByRole("row").nth(1)).toContainText("support/reply");
  await expect(prompts.getByRole("row").nth(1).getByRole("cell").nth(1)).toHaveText("6");
  await expect(prompts).not.toContainText("greeter");
  expect(await seriousViolations(page)).toEqual([]);

  // 30 days takes in the older day.
  await choose(page, "Range", "Last 30 days");
  await expect(page.getByTestId("analytics-total")).toHaveText("17 runtime fetches in the last 30 days, of 2 prompts.");
  expect(await rowOf(byPrompt, utcDay(10))).toEqual(["7", "0"]);
  await expect(prompts.getByRole("row").nth(1).getByRole("cell").nth(1)).toHaveText("13");
  // Sortable: by name, ascending.
  await prompts.getByRole("button", { name: "Prompt", exact: true }).click();
  await expect(prompts.getByRole("row").nth(1)).toContainText("billing/faq");

  // The CSV: the same numbers, one column per day.
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("promptly-analytics-30-days.csv");
  const csv = parseCsv(await readFile((await download.path())!, "utf8"));
  expect(csv.map((row) => [row.Prompt, row.Team, row.Fetches, row["Production version"], row[today], row[utcDay(10)]])).toEqual([
    ["billing/faq", core.name, "4", "1", "4", "0"],
    ["support/reply", core.name, "13", "1", "6", "7"],
  ]);
  expect(csv[1]!["Last fetched"]).toBe(today);

  // The prompt's Usage tab agrees: by version, by label and by key (its name: the viewer manages keys).
  await page.goto(`/prompts/${reply.id}?tab=usage`);
  await expect(page.getByTestId("usage-total")).toHaveText("13 fetches in the last 30 days (UTC days).");
  const versions = page.getByRole("table", { name: "Fetches per day by version" });
  await expect(versions.getByRole("columnheader")).toHaveText(["Day (UTC)", "v2", "v1"]);
  expect(await rowOf(versions, "Total")).toEqual(["3", "10"]);
  const labels = page.getByRole("table", { name: "Fetches per day by label" });
  expect(await rowOf(labels, "Total")).toEqual(["1", "10", "2"]);
  const keys = page.getByRole("table", { name: "Fetches per day by API key" });
  await expect(keys.getByRole("columnheader")).toHaveText(["Day (UTC)", "Core service"]);
  expect(await rowOf(keys, "Total")).toEqual(["13"]);
  await choose(page, "Range", "Last 7 days");
  await expect(page.getByTestId("usage-total")).toHaveText("6 fetches in the last 7 days (UTC days).");
  await expect(versions.getByRole("row")).toHaveCount(3);
  expect(await seriousViolations(page)).toEqual([]);

  // At 375 px, with figures, neither page scrolls sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  for (const path of [`/analytics?days=30&teamId=${core.id}`, `/prompts/${reply.id}?tab=usage`]) {
    await page.goto(path);
    await expect(page.getByTestId(path.startsWith("/analytics") ? "analytics-total" : "usage-total")).toBeVisible();
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth, path).toBeLessThanOrEqual(innerWidth);
    expect(await seriousViolations(page), path).toEqual([]);
  }
  expect(errors).toEqual([]);
});
