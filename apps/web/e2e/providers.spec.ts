// Model providers end to end: an organization admin connects an OpenAI-compatible server (a fake
// provider this test runs on the loopback address), tests it, edits it without typing the key again
// (a changed base URL would need it), sets model prices and deletes it; a plain member cannot open the
// page. The key is recorded, so the global teardown proves it never reached the server's log.
import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { PAGE_REQUIREMENTS, PROVIDER_MSG } from "@promptly/shared";
import { startFakeProvider, type FakeProvider } from "../../../packages/api/testing/fake-provider.ts";
import { addOrganizationMember, callMutation, createAccount, createOrganizationWith, createTeamInNewOrganization, createTeamWith, signIn, uniqueName } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import { recordSecret } from "./support/secrets.ts";

const mainNav = (page: Page) => page.getByTestId("sidebar").getByRole("navigation", { name: "Main" });
const connectionRow = (page: Page, name: string) => page.getByTestId("connection-row").filter({ hasText: name });
const priceRow = (page: Page, model: string) => page.getByTestId("price-row").filter({ has: page.getByRole("cell", { name: model, exact: true }) });

let provider: FakeProvider;
test.beforeAll(async () => {
  provider = await startFakeProvider({ apiKey: `sk-e2e-${randomBytes(16).toString("hex")}` });
  recordSecret("provider key", provider.apiKey);
});
test.afterAll(() => provider?.close());

test("an organization admin adds an OpenAI-compatible connection, tests it, edits it keeping the key, prices a model and deletes it", async ({ page }) => {
  test.setTimeout(90_000);
  // A taken name is a 409 by design.
  const errors = consoleErrors(page, { allow4xx: true });
  const admin = await createAccount({ fullName: "Olga Orgadmin" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "admin" }]);
  const team = await createTeamWith(organization.id, [], uniqueName("Research"));
  const name = uniqueName("Local models");
  const last4 = provider.apiKey.slice(-4);
  await signIn(page, admin.email);
  await page.goto("/");
  await mainNav(page).getByRole("link", { name: "Model Providers", exact: true }).click();
  await expect(page).toHaveURL(`${E2E.appUrl}/providers`);
  await expect(page.getByRole("heading", { level: 1, name: "Model providers" })).toBeVisible();
  await expect(page.getByText("No connections yet")).toBeVisible();

  // Add: an OpenAI-compatible connection needs its base URL (the procedure's own message).
  await page.getByRole("button", { name: "Add connection" }).click();
  const add = page.getByRole("dialog", { name: "Add connection" });
  await add.getByRole("combobox", { name: "Provider" }).click();
  await page.getByRole("option", { name: "OpenAI-compatible" }).click();
  await add.getByLabel("Name").fill(name);
  await add.getByLabel("API key").fill(provider.apiKey);
  await expect(add.getByLabel("API key")).toHaveAttribute("type", "password");
  await add.getByRole("button", { name: "Add connection" }).click();
  await expect(add.getByText(PROVIDER_MSG.baseUrlRequired)).toBeVisible();
  await add.getByLabel("Base URL").fill(provider.openaiBaseUrl);
  await add.getByLabel("Models (optional)").fill("local-llama");
  await add.getByRole("checkbox", { name: team.name }).check();
  await add.getByRole("button", { name: "Add connection" }).click();
  await expect(add).toBeHidden();
  const row = connectionRow(page, name);
  await expect(row).toContainText("OpenAI-compatible");
  await expect(row).toContainText(provider.openaiBaseUrl);
  await expect(row).toContainText(`••••${last4}`);
  await expect(row).toContainText("local-llama");
  await expect(row).toContainText(team.name);
  await expect(page.locator("body")).not.toContainText(provider.apiKey);

  // The server's refusal shows in the form: a second connection of the same name.
  await page.getByRole("button", { name: "Add connection" }).click();
  await add.getByRole("combobox", { name: "Provider" }).click();
  await page.getByRole("option", { name: "OpenAI-compatible" }).click();
  await add.getByLabel("Name").fill(name);
  await add.getByLabel("Base URL").fill(provider.openaiBaseUrl);
  await add.getByLabel("API key").fill(provider.apiKey);
  await add.getByRole("button", { name: "Add connection" }).click();
  await expect(add.getByText(PROVIDER_MSG.nameTaken)).toBeVisible();
  await add.getByRole("button", { name: "Cancel" }).click();
  await expect(add).toBeHidden();
  await expect(page.getByTestId("connection-row")).toHaveCount(1);

  // Test connection: the models the provider lists; a provider error in plain words.
  await row.getByRole("button", { name: `Test connection ${name}` }).click();
  const testDialog = page.getByRole("dialog", { name: `Test ${name}` });
  await expect(testDialog).toContainText("Connected: 3 models found.");
  await expect(testDialog.getByRole("list", { name: "Models found" }).getByRole("listitem")).toHaveText(["claude-haiku-4-5", "gpt-4o-mini", "local-llama"]);
  provider.failWith = 429;
  try {
    await testDialog.getByRole("button", { name: "Test again" }).click();
    await expect(testDialog.getByRole("alert")).toHaveText(`${name} is rate limiting requests (429): retry in a moment`);
    // The provider's own words, folded under Details.
    await testDialog.getByText("Details", { exact: true }).click();
    await expect(testDialog.getByTestId("error-details")).toContainText("429: Rate limit reached for requests.");
  } finally {
    provider.failWith = null;
  }
  await testDialog.getByRole("button", { name: "Close", exact: true }).first().click();
  await expect(testDialog).toBeHidden();
  // The connection keeps its last test, and shows it.
  await expect(row.getByTestId("last-test")).toContainText(`Failed: ${name} is rate limiting requests (429)`);
  // The organization's default: marked in its row, and unset again.
  await row.getByRole("button", { name: `Make default ${name}` }).click();
  await expect(row.getByText("Default", { exact: true })).toBeVisible();
  await row.getByRole("button", { name: `Unset default ${name}` }).click();
  await expect(row.getByText("Default", { exact: true })).toBeHidden();

  // Edit without typing the key: the field is empty and says the current key stays.
  const renamed = `${name} renamed`;
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  await expect(edit.getByLabel("API key")).toHaveValue("");
  await expect(edit).toContainText(`Leave empty to keep the current key (••••${last4}); a new key replaces it.`);
  await expect(edit.getByLabel("Base URL")).toHaveValue(provider.openaiBaseUrl);
  // A changed base URL asks for the key again (the current key is not sent to a new address); back as it was, it does not.
  await edit.getByLabel("Base URL").fill(provider.openaiBaseUrl.replace(/\/v1$/, "/v2"));
  await expect(edit).toContainText("The base URL changed: enter the API key again (the current key is not sent to a new address).");
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit.getByText(PROVIDER_MSG.keyRequiredForBaseUrl)).toBeVisible();
  await edit.getByLabel("Base URL").fill(provider.openaiBaseUrl);
  await expect(edit.getByText(PROVIDER_MSG.keyRequiredForBaseUrl)).toBeHidden();
  await expect(edit).toContainText(`Leave empty to keep the current key (••••${last4}); a new key replaces it.`);
  await edit.getByLabel("Name").fill(renamed);
  await edit.getByLabel("Models (optional)").fill("local-llama, gpt-4o-mini");
  await edit.getByRole("checkbox", { name: team.name }).uncheck();
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit).toBeHidden();
  const renamedRow = connectionRow(page, renamed);
  await expect(renamedRow).toContainText(`••••${last4}`);
  await expect(renamedRow).toContainText("local-llama, gpt-4o-mini");
  await expect(renamedRow).toContainText("Every team");
  // The stored key still opens the provider.
  await renamedRow.getByRole("button", { name: `Test connection ${renamed}` }).click();
  await expect(page.getByRole("dialog", { name: `Test ${renamed}` })).toContainText("Connected: 3 models found.");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: `Test ${renamed}` })).toBeHidden();

  // Prices: a model of this connection, and the organization's own price over a built-in one.
  await expect(priceRow(page, "gpt-4o-mini")).toContainText("Built-in");
  await page.getByRole("button", { name: "Add a model price" }).click();
  const addPrice = page.getByRole("dialog", { name: "Add a model price" });
  await addPrice.getByRole("textbox", { name: "Model", exact: true }).fill("local-llama");
  await addPrice.getByLabel("Input per million tokens ($)").fill("0.5");
  await addPrice.getByLabel("Output per million tokens ($)").fill("1.25");
  await addPrice.getByRole("button", { name: "Save price" }).click();
  await expect(addPrice).toBeHidden();
  await expect(priceRow(page, "local-llama")).toContainText("$0.5");
  await expect(priceRow(page, "local-llama")).toContainText("$1.25");
  await expect(priceRow(page, "local-llama")).toContainText("This organization");

  await priceRow(page, "gpt-4o-mini").getByRole("button", { name: "Edit price of gpt-4o-mini" }).click();
  const editPrice = page.getByRole("dialog", { name: "Price of gpt-4o-mini" });
  await expect(editPrice.getByLabel("Input per million tokens ($)")).toHaveValue("0.15");
  await editPrice.getByLabel("Input per million tokens ($)").fill("-1");
  await editPrice.getByRole("button", { name: "Save price" }).click();
  await expect(editPrice.getByText(PROVIDER_MSG.priceInvalid)).toBeVisible();
  await editPrice.getByLabel("Input per million tokens ($)").fill("0.2");
  await editPrice.getByRole("button", { name: "Save price" }).click();
  await expect(editPrice).toBeHidden();
  await expect(priceRow(page, "gpt-4o-mini")).toContainText("$0.2");
  await expect(priceRow(page, "gpt-4o-mini")).toContainText("This organization");

  // Delete, after a confirmation.
  await renamedRow.getByRole("button", { name: `Delete ${renamed}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Delete ${renamed}?` });
  await confirm.getByRole("button", { name: "Delete connection" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId("connection-row")).toHaveCount(0);
  await expect(page.getByText("No connections yet")).toBeVisible();
  expect(errors).toEqual([]);
});

test("a plain member of the organization cannot open Model providers: sent to the dashboard, told why and whom to ask", async ({ page }) => {
  const errors = consoleErrors(page);
  const member = await createAccount({ fullName: "Mia Member" });
  const organization = await createOrganizationWith([]);
  await addOrganizationMember(organization.id, member.id, "member");
  await signIn(page, member.email);
  await page.goto("/");
  await expect(mainNav(page).getByRole("link", { name: "Dashboard" })).toBeVisible();
  await expect(mainNav(page).getByRole("link", { name: "Model Providers", exact: true })).toHaveCount(0);

  await page.goto("/providers");
  await expect(page).toHaveURL(`${E2E.appUrl}/`);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  const denied = page.locator("[data-sonner-toast]").filter({ hasText: "Access Denied" });
  await expect(denied).toContainText("You don't have permission to access this page.");
  await expect(denied).toContainText(PAGE_REQUIREMENTS["page.providers"]);
  await expect(page.getByRole("heading", { name: "Connections" })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test("a team admin picks the team's default connection on the Teams page; the playground says it uses it, and why", async ({ page }) => {
  const admin = await createAccount({ fullName: "Tara Teamadmin" });
  const { organization, team } = await createTeamInNewOrganization([{ userId: admin.id, role: "admin" }]);
  await signIn(page, admin.email);
  const errors = consoleErrors(page);
  const connection = (name: string) => ({ organizationId: organization.id, kind: "openai-compatible", name, baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
  await callMutation(page.request, "providers.create", connection(uniqueName("A first")));
  const chosenName = uniqueName("B chosen");
  await callMutation(page.request, "providers.create", connection(chosenName));
  const prompt = (await callMutation(page.request, "prompts.create", {
    teamId: team.id, name: `e2e/${randomBytes(5).toString("hex")}`, title: uniqueName("Defaults"), visibility: "team", type: "text", template: "Hi", model: "gpt-4o-mini",
  })) as { id: string };

  await page.goto("/teams");
  const card = page.getByTestId("default-connection-card");
  await card.getByRole("combobox", { name: "Team's default connection" }).click();
  await page.getByRole("option", { name: `${chosenName} (not tested)` }).click();
  await expect(card.getByRole("combobox", { name: "Team's default connection" })).toContainText(chosenName);

  await page.goto(`/prompts/${prompt.id}?tab=playground`);
  await expect(page.getByTestId("connection-notice")).toHaveText(`Uses ${chosenName}: the team's default`);
  await expect(page.getByRole("region", { name: "Model 1", exact: true }).getByRole("combobox", { name: "Connection" })).toContainText(chosenName);
  expect(errors).toEqual([]);
});
