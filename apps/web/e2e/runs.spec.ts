// Recorded runs end to end: an application runs two versions of a prompt through the runtime API
// (POST /api/v1/prompts/<name>/run with a `run` key, against a fake provider on the loopback address);
// the provider then fails twice (401, then 429). The Runs tab lists every run, newest first, with the
// provider's reason on the failed ones, filters them, and opens one with its input and error; the
// figures per version agree on the Runs tab, in the History tab and on /analytics; the failed runs are
// recorded as failed. The provider key and the API key are recorded, so the global teardown proves
// neither reached the server's log.
import { randomBytes } from "node:crypto";
import { expect, test, type Locator } from "@playwright/test";
import { startFakeProvider, type FakeProvider } from "../../../packages/api/testing/fake-provider.ts";
import { callMutation, createAccount, createOrganizationWith, createTeamWith, signIn, uniqueName, withDb } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import { createPromptWith } from "./support/prompts.ts";
import { recordSecret } from "./support/secrets.ts";

const REFUSED_KEY = "Local models refused the key: update it under Model Providers";
const RATE_LIMITED = "Local models is rate limiting requests (429): retry in a moment";

let provider: FakeProvider;
test.beforeAll(async () => {
  provider = await startFakeProvider({ apiKey: `sk-e2e-${randomBytes(16).toString("hex")}` });
  recordSecret("provider key", provider.apiKey);
});
test.afterAll(() => provider?.close());

/** The cells of the table row whose row header is `header`, as text. */
async function cellsOf(table: Locator, header: string): Promise<string[]> {
  const row = table.getByRole("row").filter({ has: table.page().getByRole("rowheader", { name: header, exact: true }) });
  await expect(row).toHaveCount(1);
  return (await row.getByRole("cell").allTextContents()).map((text) => text.trim());
}

test("API runs show in the Runs tab and the figures per version; a provider's 401 and 429 show their reason and are recorded as failed", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = consoleErrors(page);
  const admin = await createAccount({ fullName: "Rhea Runner" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "admin" }]);
  const team = await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }], uniqueName("Runs"));
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: admin.id, template: "Write about {{ topic }}." });
  await withDb(async (client) => {
    await client.query(`INSERT INTO prompt_versions (prompt_id, version, type, template, author_id) VALUES ($1, 2, 'text', 'Write briefly about {{ topic }}.', $2)`, [prompt.id, admin.id]);
    await client.query(`UPDATE prompts SET latest_version = 2 WHERE id = $1`, [prompt.id]);
  });

  // The connection and a `run` key, made through the API the Providers and Teams pages use.
  await signIn(page, admin.email);
  const connection = (await callMutation(page.request, "providers.create", {
    organizationId: organization.id, kind: "openai-compatible", name: "Local models", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey,
  })) as { id: string };
  // Tested, it is the one a run naming no connection uses.
  await callMutation(page.request, "providers.test", { id: connection.id });
  const key = (await callMutation(page.request, "apiKeys.create", { teamId: team.id, name: "Writer service", scopes: ["run"] })) as { key: string };
  recordSecret("API key", key.key);
  const run = async (version: number, topic: string) => {
    const response = await fetch(`${E2E.appUrl}/api/v1/prompts/${prompt.name}/run`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
      body: JSON.stringify({ version, model: "gpt-4o-mini", variables: { topic } }),
    });
    return { status: response.status, body: (await response.json()) as { error?: { message: string; providerStatus: number } } };
  };
  expect((await run(1, "owls")).status).toBe(200);
  expect((await run(1, "bees")).status).toBe(200);
  expect((await run(2, "cats")).status).toBe(200);
  provider.failWith = 401;
  try {
    expect(await run(2, "dogs")).toEqual({ status: 502, body: { error: expect.objectContaining({ message: REFUSED_KEY, providerStatus: 401 }) } });
    provider.failWith = 429;
    expect(await run(2, "eels")).toEqual({ status: 502, body: { error: expect.objectContaining({ message: RATE_LIMITED, providerStatus: 429 }) } });
  } finally {
    provider.failWith = null;
  }
  const recorded = await withDb(async (client) =>
    (await client.query<{ status: string; error: string | null }>(`SELECT status, error FROM prompt_runs WHERE prompt_id = $1 ORDER BY created_at`, [prompt.id])).rows,
  );
  expect(recorded).toEqual([
    { status: "succeeded", error: null },
    { status: "succeeded", error: null },
    { status: "succeeded", error: null },
    { status: "failed", error: REFUSED_KEY },
    { status: "failed", error: RATE_LIMITED },
  ]);

  // The Runs tab: newest first, who (the key, named to its team's admin), the provider's reason on the failures.
  await page.goto(`/prompts/${prompt.id}`);
  await page.getByRole("tab", { name: "Evaluate" }).click();
  await page.getByRole("tab", { name: "Runs" }).click();
  await expect(page).toHaveURL(/tab=runs/);
  const runs = page.getByRole("table", { name: "Runs" });
  await expect(runs.locator("tbody tr")).toHaveCount(5);
  await expect(runs.locator("tbody tr").nth(0)).toContainText(RATE_LIMITED);
  await expect(runs.locator("tbody tr").nth(1)).toContainText(REFUSED_KEY);
  await expect(runs.locator("tbody tr[data-status=failed]")).toHaveCount(2);
  const newest = (await runs.locator("tbody tr").nth(2).getByRole("cell").allTextContents()).map((text) => text.trim());
  expect(newest.slice(1, 6)).toEqual(["API key: Writer service", "v2", "Local models", "gpt-4o-mini", "Succeeded"]);
  // The fake provider reports usage and gpt-4o-mini has a built-in price: tokens and a cost are shown.
  expect(newest[6]).toMatch(/^\d+ \/ \d+$/);
  expect(newest[9]).toMatch(/^\$\d/);

  // The figures per version: v2 ran 3 times, 2 failed; v1 twice, none failed.
  const figures = page.getByRole("table", { name: "Figures per version" });
  expect((await cellsOf(figures, "v2")).slice(0, 2)).toEqual(["3", "67%"]);
  expect((await cellsOf(figures, "v1")).slice(0, 2)).toEqual(["2", "0%"]);

  // Filters: the failed runs only; then one opens with its input and the provider's reason.
  await page.getByRole("form", { name: "Filter the runs" }).getByRole("combobox", { name: "Status" }).click();
  await page.getByRole("option", { name: "Failed", exact: true }).click();
  await expect(page).toHaveURL(/runStatus=failed/);
  await expect(runs.locator("tbody tr")).toHaveCount(2);
  await runs.locator("tbody tr").nth(1).getByRole("button", { name: /^Open the run of / }).click();
  const dialog = page.getByRole("dialog", { name: /^Run of v2/ });
  await expect(dialog.getByRole("alert")).toContainText(REFUSED_KEY);
  await expect(dialog.getByRole("region", { name: "Input" })).toContainText("Write briefly about dogs.");
  await expect(dialog.getByRole("region", { name: "Variables" })).toContainText('"topic": "dogs"');
  await expect(dialog.getByRole("region", { name: "Output" })).toContainText("No output.");
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/[?&]run=/);

  // The History tab names the same figures beside each version.
  await page.getByRole("tab", { name: "Versions" }).click();
  await page.getByRole("tab", { name: "History" }).click();
  const versions = page.getByRole("list", { name: "Versions" });
  await expect(versions.locator("[data-version='2']").getByTestId("version-run-figures")).toContainText("3 runs · 67% errors");
  await expect(versions.locator("[data-version='1']").getByTestId("version-run-figures")).toContainText("2 runs · 0% errors");

  // /analytics: beside the fetches, the runs per prompt and version.
  await page.goto("/analytics");
  await expect(page.getByTestId("analytics-runs-total")).toHaveText("5 runs in the last 30 days, of 1 prompt.");
  const byVersion = page.getByRole("table", { name: "Runs per prompt and version" });
  expect(await cellsOf(byVersion, "v2")).toEqual(expect.arrayContaining([prompt.name, "3", "67%"]));
  expect(await cellsOf(byVersion, "v1")).toEqual(expect.arrayContaining([prompt.name, "2", "0%"]));
  // A version's row leads to its runs.
  await byVersion.getByRole("link", { name: `${prompt.name} v2: its runs` }).click();
  await expect(page).toHaveURL(/tab=runs/);
  await expect(page).toHaveURL(/runVersion=2/);
  await expect(page.getByRole("form", { name: "Filter the runs" }).getByRole("combobox", { name: "Version" })).toHaveText("v2");
  await expect(page.getByRole("table", { name: "Runs" }).locator("tbody tr")).toHaveCount(3);
  expect(errors).toEqual([]);
});
