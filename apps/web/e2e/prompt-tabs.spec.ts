// The prompt page's tabs, grouped as the work goes: Write & try (Template, Try it, Playground),
// Evaluate (Test cases, Evaluations, Runs), Versions (History, Compare, Activity), Comments, Usage,
// Production.
// Every group shows at 375 px; the URL keeps the open tab; every `?tab=` link of before still opens
// its tab; axe finds nothing serious or critical with each group open, wide and narrow.
import { expect, test, type Page } from "@playwright/test";
import { createAccount, createOrganizationWith, createTeamWith, signIn, uniqueName } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { networkSettled, watchTraffic } from "./support/network.ts";
import { activateTeam } from "./support/organizations.ts";
import { createPromptWith } from "./support/prompts.ts";

const GROUPS = [
  { name: "Write & try", tabs: ["Template", "Try it", "Playground"] },
  { name: "Evaluate", tabs: ["Test cases", "Evaluations", "Runs"] },
  { name: "Versions", tabs: ["History", "Compare", "Activity"] },
  { name: "Comments", tabs: [] },
  { name: "Usage", tabs: [] },
  { name: "Production", tabs: [] },
] as const;

/** Every `?tab=` value links have used, the group it now opens in, and the tab's own name there. */
const DEEP_LINKS = [
  ["template", "Write & try", "Template"],
  ["try", "Write & try", "Try it"],
  ["playground", "Write & try", "Playground"],
  ["cases", "Evaluate", "Test cases"],
  ["evaluations", "Evaluate", "Evaluations"],
  ["runs", "Evaluate", "Runs"],
  ["history", "Versions", "History"],
  ["compare", "Versions", "Compare"],
  ["activity", "Versions", "Activity"],
  ["comments", "Comments", null],
  ["usage", "Usage", null],
  ["production", "Production", null],
] as const;

const sections = (page: Page) => page.getByRole("tablist", { name: "Prompt sections" });
const group = (page: Page, name: string) => sections(page).getByRole("tab", { name, exact: true });
const subTabs = (page: Page, groupName: string) => page.getByRole("tablist", { name: groupName, exact: true });

/** An editor of a team (who may run the prompt, so the Playground is offered) and a prompt of the team. */
async function editorWithPrompt() {
  const editor = await createAccount({ fullName: "Tabs Editor", role: "team_lead" });
  const organization = await createOrganizationWith([{ userId: editor.id, role: "member" }]);
  const team = await createTeamWith(organization.id, [{ userId: editor.id, role: "editor" }]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: editor.id, title: uniqueName("Tabbed prompt") });
  return { editor, organization, team, prompt };
}

test("at 375 px every group shows; a group opens its first tab, the URL keeps the tab, and each old ?tab= link opens its tab", async ({ page }) => {
  test.setTimeout(90_000);
  const { editor, organization, team, prompt } = await editorWithPrompt();
  await activateTeam(page, organization.id, team.id);
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, editor.email);
  await page.goto(`/prompts/${prompt.id}`);

  // The six groups, in the work's order, all in sight on a phone (no scrolling the list sideways).
  await expect(sections(page).getByRole("tab")).toHaveText(GROUPS.map((entry) => entry.name));
  for (const entry of GROUPS) await expect(group(page, entry.name)).toBeInViewport({ ratio: 1 });
  await expect(group(page, "Write & try")).toHaveAttribute("aria-selected", "true");
  await expect(subTabs(page, "Write & try").getByRole("tab")).toHaveText(["Template", "Try it", "Playground"]);
  for (const name of ["Template", "Try it", "Playground"]) await expect(subTabs(page, "Write & try").getByRole("tab", { name })).toBeInViewport({ ratio: 1 });

  // A group opens on its first tab, and the URL says which tab is open.
  await group(page, "Evaluate").click();
  await expect(page).toHaveURL(/[?&]tab=cases(&|$)/);
  await expect(subTabs(page, "Evaluate").getByRole("tab", { name: "Test cases" })).toHaveAttribute("aria-selected", "true");
  await subTabs(page, "Evaluate").getByRole("tab", { name: "Runs" }).click();
  await expect(page).toHaveURL(/[?&]tab=runs(&|$)/);
  // Back to a group opens the tab last open in it.
  await group(page, "Versions").click();
  await expect(page).toHaveURL(/[?&]tab=history(&|$)/);
  await group(page, "Evaluate").click();
  await expect(page).toHaveURL(/[?&]tab=runs(&|$)/);
  // The open tab survives a reload.
  await page.reload();
  await expect(subTabs(page, "Evaluate").getByRole("tab", { name: "Runs" })).toHaveAttribute("aria-selected", "true");

  for (const [tab, groupName, tabName] of DEEP_LINKS) {
    await page.goto(`/prompts/${prompt.id}?tab=${tab}`);
    await expect(group(page, groupName), `?tab=${tab}`).toHaveAttribute("aria-selected", "true");
    if (tabName) await expect(subTabs(page, groupName).getByRole("tab", { name: tabName, exact: true }), `?tab=${tab}`).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel").last()).toBeVisible();
  }
  // A link that names no tab opens the one its other parameters belong to (two versions: Compare).
  await page.goto(`/prompts/${prompt.id}?from=1&to=1`);
  await expect(subTabs(page, "Versions").getByRole("tab", { name: "Compare", exact: true })).toHaveAttribute("aria-selected", "true");
});

for (const width of [1400, 375] as const) {
  test(`axe finds nothing serious or critical on the prompt page at ${width} px with each group and each of its tabs open`, async ({ page }) => {
    test.setTimeout(90_000);
    const { editor, organization, team, prompt } = await editorWithPrompt();
    await activateTeam(page, organization.id, team.id);
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, editor.email);
    watchTraffic(page);
    await page.goto(`/prompts/${prompt.id}`);
    const found: string[] = [];
    const check = async (where: string) => {
      // Judged once the open tab's reads are answered (its content drawn, not its skeleton).
      await networkSettled(page);
      found.push(...(await seriousViolations(page)).map((finding) => `${where}: ${finding}`));
    };
    for (const entry of GROUPS) {
      await group(page, entry.name).click();
      await expect(page.getByRole("tabpanel", { name: entry.name })).toBeVisible();
      await check(entry.name);
      for (const name of entry.tabs.slice(1)) {
        await subTabs(page, entry.name).getByRole("tab", { name, exact: true }).click();
        await expect(page.getByRole("tabpanel", { name, exact: true })).toBeVisible();
        await check(`${entry.name} > ${name}`);
      }
    }
    expect(found, found.join("\n")).toEqual([]);
  });
}
