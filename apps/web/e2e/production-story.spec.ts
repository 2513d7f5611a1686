// Learning from production, the whole story in one test. In a team that reviews production, an admin
// splits production (v1 80%, v2 20%) from the prompt page through a change request that another admin
// approves. The team's code then reports generations and thumbs of both versions through Langfuse's
// batch ingestion with an `ingest` key. A person scores one generation in the app, reads the split's
// comparison on the Production tab at 1400 and 375 px (no sideways scrolling, no serious axe finding),
// and promotes the winner: the change request shows the same evidence, the other admin approves, and
// production serves v2 alone.
import { expect, test, type Page } from "@playwright/test";
import { REVIEW_MSG } from "@promptly/shared";
import { addOrganizationMember, callMutation, createAccount, createOrganizationWith, createTeamWith, signIn, signedInPage, withDb } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import { createPromptWith } from "./support/prompts.ts";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** Whether the page is wider than its window (something scrolls the whole page sideways). */
// Polled where it is asserted: after a viewport change the charts measure their box again (a ResizeObserver), a moment later.
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

const production = (promptId: string) =>
  withDb(async (client) =>
    (
      await client.query<{ version: number; candidate: number | null; weight: number | null }>(
        `SELECT version, candidate_version AS candidate, candidate_weight AS weight FROM prompt_labels WHERE prompt_id = $1 AND name = 'production'`,
        [promptId],
      )
    ).rows[0],
  );

/** One generation of `version` with its thumbs, as the `langfuse` SDK batches them: started `minutesAgo`, taking `latencyMs`. */
function reported(name: string, version: number, index: number, minutesAgo: number, latencyMs: number, thumbsUp: boolean) {
  const id = `gen-v${version}-${index}`;
  const traceId = `trace-v${version}-${index}`;
  const start = new Date(Date.now() - minutesAgo * 60_000);
  const at = start.toISOString();
  return [
    {
      id: `create-${id}`, type: "generation-create", timestamp: at,
      body: { id, traceId, name: "reply", startTime: at, endTime: new Date(start.getTime() + latencyMs).toISOString(), model: "gpt-4o-mini", environment: "production",
        promptName: name, promptVersion: version, usageDetails: { input: 120, output: 40 } },
    },
    { id: `score-${id}`, type: "score-create", timestamp: at, body: { id: `thumbs-${id}`, name: "thumbs", value: thumbsUp ? 1 : 0, dataType: "BOOLEAN", traceId, observationId: id } },
  ];
}

test("a split is started, measured, scored by a person, compared and its winner promoted through review", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const errors = consoleErrors(page);
  const alice = await createAccount({ fullName: "Alma Author" });
  const bob = await createAccount({ fullName: "Bea Approver" });
  const organization = await createOrganizationWith([{ userId: alice.id, role: "member" }]);
  await addOrganizationMember(organization.id, bob.id);
  const team = await createTeamWith(organization.id, [{ userId: alice.id, role: "admin" }, { userId: bob.id, role: "admin" }]);
  const name = "support/story-reply";
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: alice.id, name, template: "Reply to {{ question }}." });
  await withDb(async (client) => {
    await client.query(`INSERT INTO prompt_versions (prompt_id, version, type, template, author_id) VALUES ($1, 2, 'text', 'Reply kindly to {{ question }}.', $2)`, [prompt.id, alice.id]);
    await client.query(`UPDATE prompts SET latest_version = 2 WHERE id = $1`, [prompt.id]);
    await client.query(`INSERT INTO prompt_labels (prompt_id, name, version) VALUES ($1, 'production', 1)`, [prompt.id]);
    await client.query(`UPDATE teams SET required_approvals = 1 WHERE id = $1`, [team.id]);
  });
  await signIn(page, alice.email);
  await page.setViewportSize({ width: 1400, height: 900 });

  // Alice splits production from the prompt page: the team reviews production, so it is a request.
  await page.goto(`/prompts/${prompt.id}`);
  await page.getByRole("button", { name: "Split production" }).click();
  const dialog = page.getByRole("dialog", { name: "Split production" });
  await expect(dialog.getByRole("combobox", { name: "Candidate version" })).toHaveText(/^v2/);
  await dialog.getByRole("spinbutton", { name: "Candidate's share of fetches (%)" }).fill("20");
  await expect(dialog.getByTestId("split-change")).toHaveText("Once approved, production keeps v1 for 80% of fetches and serves v2 to 20%.");
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Request review" }).click();
  await expect(toast(page, REVIEW_MSG.requestedToast)).toBeVisible();
  await page.waitForURL(/\/reviews\/[0-9a-f-]{36}$/);
  const splitRequest = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { level: 1, name: "v2 at 20% of production" })).toBeVisible();
  // Nothing of v2 has run in production yet: the evidence says how much more it needs.
  await expect(page.getByRole("region", { name: "Production", exact: true })).toContainText("not enough data yet");
  expect((await production(prompt.id))?.candidate).toBeNull();

  // Bob approves: production serves both.
  const bobPage = await signedInPage(browser, bob.email);
  await bobPage.setViewportSize({ width: 1400, height: 900 });
  await bobPage.goto(splitRequest);
  await bobPage.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(toast(bobPage, REVIEW_MSG.mergedToast)).toBeVisible();
  expect(await production(prompt.id)).toEqual({ version: 1, candidate: 2, weight: 20 });
  // The comparison counts from the split's start: as if approved two hours ago, before the generations reported below.
  await withDb((client) => client.query(`UPDATE prompt_labels SET moved_at = now() - interval '2 hours' WHERE prompt_id = $1 AND name = 'production'`, [prompt.id]));

  // The team's code reports what happened, with an ingest key: v1 slower and liked by 40%, v2 faster and liked by 80%.
  const key = (await callMutation(page.request, "apiKeys.create", { teamId: team.id, name: "Support tracing", scopes: ["ingest"] })) as { key: string };
  const batch = [
    ...Array.from({ length: 60 }, (_, i) => reported(name, 1, i, 90 - i, 800 + (i % 10) * 20, i % 5 < 2)),
    ...Array.from({ length: 60 }, (_, i) => reported(name, 2, i, 90 - i, 400 + (i % 10) * 20, i % 5 < 4)),
  ].flat();
  const ingested = await fetch(`${E2E.appUrl}/api/public/ingestion`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
    body: JSON.stringify({ batch }),
  });
  expect(ingested.status).toBe(207);
  expect(await ingested.json()).toMatchObject({ errors: [] });
  // Answered once appended: the server merges it right after.
  await expect.poll(() => withDb(async (client) => (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ingest_pending WHERE team_id = $1`, [team.id])).rows[0]!.n)).toBe(0);

  // Alice scores the newest generation herself: thumbs up with a comment.
  await page.goto(`/prompts/${prompt.id}?tab=production`);
  const generations = page.getByRole("table", { name: "Generations" });
  await generations.locator("tbody tr").nth(0).getByRole("button", { name: /^Open the generation of / }).click();
  const generation = page.getByRole("dialog", { name: /^Generation of v\d/ });
  await expect(generation).toContainText(/trace-v\d-59/);
  await generation.getByRole("button", { name: "Thumbs up" }).click();
  await expect(generation.getByRole("button", { name: "Thumbs up" })).toHaveAttribute("aria-pressed", "true");
  await generation.getByLabel("Comment (optional)").fill("Warm and correct");
  await generation.getByRole("button", { name: "Save score" }).click();
  await expect(generation.getByRole("region", { name: "Scores" })).toContainText("Warm and correct");
  await page.keyboard.press("Escape");
  await expect(generation).toBeHidden();

  // The Production tab at a desktop's width and a phone's: the split's comparison says v2 wins on thumbs.
  for (const width of [1400, 375]) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 800 });
    await page.goto(`/prompts/${prompt.id}?tab=production`);
    const comparison = page.getByRole("region", { name: "Compare two versions" });
    await expect(comparison).toContainText("The production label is split: v1 serves 80% of fetches, v2 20%.");
    await expect(comparison.locator("[data-metric=thumbs]")).toContainText(/^v2 is better on thumbs \(\+\d+(\.\d)? points, 95% CI \+\d+(\.\d)? to \+\d+(\.\d)?, 6\d vs 6\d scored\)/);
    await expect(comparison.locator("[data-metric=latency]")).toContainText(/^v2 is better on latency/);
    await expect(page.getByRole("table", { name: "Production figures per version" }).locator("tbody tr")).toHaveCount(2);
    await expect.poll(() => scrollsSideways(page), { message: "the page scrolls sideways once laid out at this width" }).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
  }

  // Alice promotes the winner: a change request showing the same evidence beside the evaluations.
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`/prompts/${prompt.id}`);
  await page.getByTestId("split-production").getByRole("button", { name: "Promote v2" }).click();
  await expect(toast(page, REVIEW_MSG.requestedToast)).toBeVisible();
  await page.waitForURL((url) => /\/reviews\/[0-9a-f-]{36}$/.test(url.pathname) && url.pathname !== splitRequest);
  const promoteRequest = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { level: 1, name: "v2 to production" })).toBeVisible();
  await expect(page.getByTestId("evidence-panel")).toBeVisible();
  const evidence = page.getByRole("region", { name: "Production", exact: true });
  await expect(evidence.locator("[data-metric=thumbs]")).toContainText(/^v2 is better on thumbs \(\+\d+(\.\d)? points, 95% CI/);
  await expect.poll(() => scrollsSideways(page), { message: "the page scrolls sideways once laid out at this width" }).toBe(false);
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(evidence.locator("[data-metric=thumbs]")).toBeVisible();
  await expect.poll(() => scrollsSideways(page), { message: "the page scrolls sideways once laid out at this width" }).toBe(false);
  expect(await seriousViolations(page)).toEqual([]);

  // Bob approves: production moves to v2 alone.
  await bobPage.goto(promoteRequest);
  await expect(bobPage.getByRole("region", { name: "Production", exact: true }).locator("[data-metric=thumbs]")).toContainText(/^v2 is better on thumbs/);
  await bobPage.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(toast(bobPage, REVIEW_MSG.mergedToast)).toBeVisible();
  expect(await production(prompt.id)).toEqual({ version: 2, candidate: null, weight: null });
  await page.goto(`/prompts/${prompt.id}`);
  await expect(page.getByRole("list", { name: "Labels" })).toContainText("production → v2");
  await expect(page.getByTestId("split-production")).toBeHidden();
  // The Activity tab names the split each request started or ended, as their titles do.
  await page.goto(`/prompts/${prompt.id}?tab=activity`);
  await expect(page.getByRole("list", { name: "Activity" })).toContainText(
    "Change request approved: production: v1 80% · v2 20% → v2 (split promoted)",
  );
  await bobPage.context().close();
  expect(errors).toEqual([]);
});
