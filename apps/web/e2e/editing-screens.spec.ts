// Editing on every screen: a new, untouched form shows no "The template is empty"; Ctrl/Cmd+S saves; Save
// sits in a bar that stays on screen, at 375 px too. At 375 px the prompt filters fold behind 'Filters',
// the editor's variable list is compact and the switchers show enough of a name to tell two apart; at
// 768 px a marked variable never breaks across lines.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { PROMPT_MSG } from "@promptly/shared";
import { createAccount, createOrganizationWith, createTeamWith, signIn, uniqueName } from "./support/accounts.ts";
import { createPromptWith } from "./support/prompts.ts";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

async function world(teamNames?: [string, string], organizationName?: string) {
  const person = await createAccount({ fullName: "Eddie Editor", role: "team_lead" });
  const organization = await createOrganizationWith([{ userId: person.id, role: "admin" }], organizationName);
  const [first, second] = teamNames ?? [uniqueName("Team"), uniqueName("Team")];
  const team = await createTeamWith(organization.id, [{ userId: person.id, role: "admin" }], first);
  const other = await createTeamWith(organization.id, [{ userId: person.id, role: "admin" }], second);
  return { person, organization, team, other };
}

async function activate(page: Page, organizationId: string, teamId: string) {
  await page.addInitScript(
    (ids) => {
      if (sessionStorage.getItem("activated")) return;
      sessionStorage.setItem("activated", "1");
      localStorage.setItem("promptly.activeOrganizationId", ids.organizationId);
      localStorage.setItem("promptly.activeTeamId", ids.teamId);
    },
    { organizationId, teamId },
  );
}

/** Each marked variable is on one line: one box, not two halves. */
async function variablesSplitAcrossLines(marks: Locator) {
  return marks.evaluateAll((elements) => elements.filter((element) => element.getClientRects().length > 1).map((element) => element.textContent));
}

test("a new prompt form: no empty-template error untouched, Save on screen at 375 px while it scrolls, Ctrl/Cmd+S saves", async ({ page }) => {
  const { person, organization, team } = await world();
  await signIn(page, person.email);
  await activate(page, organization.id, team.id);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/prompts/new");
  await expect(page.getByRole("heading", { level: 1, name: "New Prompt" })).toBeVisible();
  const lint = page.getByRole("region", { name: "Lint results" });
  await expect(lint).toContainText("No problems found");
  await expect(page.getByText("The template is empty")).toHaveCount(0);

  // The save bar stays on screen at the top of the form, in its middle and at its end.
  const create = page.getByRole("button", { name: "Create prompt" });
  await expect(create).toBeEnabled();
  await expect(create).toBeInViewport();
  await page.getByLabel("Title", { exact: true }).focus();
  await expect(create).toBeInViewport();
  await page.getByRole("textbox", { name: "Template" }).scrollIntoViewIfNeeded();
  await expect(create).toBeInViewport();

  // Ctrl+S on the untouched form tries to save: now it says what is missing (and sends nothing).
  await page.getByLabel("Title", { exact: true }).focus();
  await page.keyboard.press("Control+s");
  await expect(lint).toContainText("The template is empty");
  await expect(page).toHaveURL(/\/prompts\/new/);

  const title = uniqueName("Shortcut prompt");
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByRole("textbox", { name: "Template" }).fill("Write about {{ topic }}.");
  await expect(lint).toContainText("No problems found");
  await page.keyboard.press("Control+s");
  await expect(toast(page, PROMPT_MSG.createdToast)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  // Cmd+S (Meta) saves a new version the same way.
  await page.getByRole("link", { name: "New version" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `New version of ${title}` })).toBeVisible();
  await expect(page.getByRole("button", { name: "Save version" })).toBeInViewport();
  await page.getByRole("textbox", { name: "Template" }).fill("Write two lines about {{ topic }}.");
  await page.keyboard.press("Meta+s");
  await expect(toast(page, PROMPT_MSG.versionSavedToast)).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Version" })).toContainText("v2");
});

test("at 375 px the filters fold behind 'Filters', the variable list is compact and the switchers tell two similar names apart", async ({ page }) => {
  const { person, organization, team, other } = await world(["Customer Success Operations Alpha", "Customer Success Operations Beta"], "Northwind Traders Worldwide America");
  // A second organization of a name alike at the start: the organization switcher shows.
  await createOrganizationWith([{ userId: person.id, role: "admin" }], "Northwind Traders Worldwide Europe");
  await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: person.id, title: "Folded filters prompt" });
  await signIn(page, person.email);
  await activate(page, organization.id, team.id);
  await page.setViewportSize({ width: 375, height: 740 });

  await page.goto("/prompts");
  await expect(page.getByRole("link", { name: "Folded filters prompt" })).toBeVisible();
  const fold = page.getByRole("button", { name: "Filters", exact: true });
  await expect(fold).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("complementary", { name: "Filters" })).toBeHidden();
  await fold.click();
  await expect(fold).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("complementary", { name: "Filters" }).getByRole("combobox", { name: "Team" })).toBeVisible();

  // Two teams alike at the start: the end of the name stays in sight.
  const selector = page.getByTestId("team-selector");
  const tail = selector.locator("[data-part=tail]");
  await expect(tail).toHaveText(" Alpha");
  await expect(tail).toBeInViewport({ ratio: 1 });
  const button = (await selector.boundingBox())!;
  const tailBox = (await tail.boundingBox())!;
  expect(tailBox.x + tailBox.width).toBeLessThanOrEqual(button.x + button.width);
  await selector.click();
  await page.getByRole("option", { name: other.name }).click();
  await expect(tail).toHaveText(" Beta");
  await expect(tail).toBeInViewport({ ratio: 1 });
  // The organization switcher does the same.
  await expect(page.getByTestId("organization-switcher").locator("[data-part=tail]")).toHaveText(" America");

  // The editor's variable list: two fields a line, Options only for an enum.
  await page.goto("/prompts/new");
  await page.getByRole("textbox", { name: "Template" }).fill("Dear {{ customer_name }}, about {{ order_number }} and {{ refund_reason }}.");
  const rows = page.getByTestId("variable-row");
  await expect(rows).toHaveCount(3);
  for (const row of await rows.all()) expect((await row.boundingBox())!.height).toBeLessThanOrEqual(200);
  await expect(page.getByLabel("Options of customer_name")).toHaveCount(0);
  await expect(rows.first().getByText("Only for enum")).toBeHidden();
});

test("at 768 px a marked variable never breaks across lines, on the prompt's page and in the editor", async ({ page }) => {
  const { person, organization, team } = await world();
  const template = Array.from({ length: 40 }, (_, index) => `${"word ".repeat(index % 7)}{{ customer_name_${index % 5} }}`).join(" ");
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: person.id, title: "Many variables", template });
  await signIn(page, person.email);
  await activate(page, organization.id, team.id);
  await page.setViewportSize({ width: 768, height: 900 });

  await page.goto(`/prompts/${prompt.id}`);
  const marks = page.locator("mark[data-variable]");
  await expect(marks).toHaveCount(40);
  expect(await variablesSplitAcrossLines(marks)).toEqual([]);

  await page.goto(`/prompts/${prompt.id}/new-version`);
  const editorMarks = page.locator(".cm-variable");
  await expect(editorMarks).toHaveCount(40);
  expect(await variablesSplitAcrossLines(editorMarks)).toEqual([]);
});
