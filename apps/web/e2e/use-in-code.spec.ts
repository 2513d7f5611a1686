// From the page to the code: the prompt page's Use in code gives a curl snippet whose URL, fetched with
// a key of the prompt's team, answers this prompt under the chosen label; the API reference at
// /api/docs has nothing serious or critical under axe and no sideways overflow, wide or narrow.
import { expect, test } from "@playwright/test";
import { callMutation, createAccount, createOrganizationWith, createTeamWith, signIn } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { E2E } from "./support/env.ts";
import { createPromptWith } from "./support/prompts.ts";
import { recordSecret } from "./support/secrets.ts";

test("Use in code: the curl snippet's URL fetches this prompt with a key of its team, production by default", async ({ page }) => {
  const admin = await createAccount({ fullName: "Cody Coder" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "member" }]);
  const team = await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: admin.id, title: "Code prompt", template: "Hello {{ name }}" });
  await signIn(page, admin.email);
  await callMutation(page.request, "promptLabels.set", { promptId: prompt.id, label: "production", version: 1 });
  const created = (await callMutation(page.request, "apiKeys.create", { teamId: team.id, name: "snippet" })) as { key: string };
  recordSecret("API key", created.key);

  await page.goto(`/prompts/${prompt.id}`);
  await page.getByRole("button", { name: "Use in code" }).click();
  const dialog = page.getByRole("dialog", { name: "Use in code" });
  await expect(dialog.getByTestId("snippet-curl")).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Teams page" })).toHaveAttribute("href", `/teams?organizationId=${organization.id}&teamId=${team.id}&newKey=true`);
  await expect(dialog.getByTestId("snippet-mcp")).toContainText(`${E2E.appUrl}/api/mcp`);
  expect(await seriousViolations(page)).toEqual([]);

  const curl = await dialog.getByTestId("snippet-curl").locator("pre").innerText();
  const url = /"(http[^"]+)"/.exec(curl)![1]!;
  expect(url).toBe(`${E2E.appUrl}/api/v1/prompts/${prompt.name}?label=production`);
  const answer = await fetch(url, { headers: { authorization: `Bearer ${created.key}` } });
  expect(answer.status).toBe(200);
  expect(await answer.json()).toMatchObject({ name: prompt.name, version: 1, template: "Hello {{ name }}" });

  // The key link opens the team's Create API key on the Teams page.
  await dialog.getByRole("link", { name: "Teams page" }).click();
  await expect(page).toHaveURL(/\/teams\?newKey=true$/);
  await expect(page.getByRole("dialog", { name: "Create API key" })).toBeVisible();
});

for (const width of [1400, 768, 375]) {
  test(`/api/docs at ${width} px: nothing serious or critical under axe, no sideways overflow`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/api/docs");
    await expect(page.getByRole("heading", { level: 1, name: "Promptly API reference" })).toBeVisible();
    for (const section of ["Runtime API: /api/v1", "Langfuse-compatible API: /api/public", "MCP for agents: /api/mcp"]) {
      await expect(page.getByRole("heading", { level: 2, name: section })).toBeVisible();
    }
    await expect(page.getByRole("heading", { name: "getPrompt", exact: true })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  });
}
