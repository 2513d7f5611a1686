// Message placeholders end to end: an author writes a chat prompt with a placeholder in the editor (its
// own block, "history: messages go here", moved between the role messages; a name that is also a
// variable is a lint error that blocks saving), sees it on the Template tab apart from the variables,
// and fills it in the Playground with two messages: the run sends them in the placeholder's place, to a
// fake OpenAI-compatible provider on the loopback address. Saved as a test case, the dialog carries
// the placeholder's messages as JSON (refusing text that is not) and the case keeps them.
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { fakeAnswerText, startFakeProvider, type FakeProvider } from "../../../packages/api/testing/fake-provider.ts";
import { callMutation, createAccount, createTeamInNewOrganization, signIn, uniqueName, withDb } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { recordSecret } from "./support/secrets.ts";

let provider: FakeProvider;
test.beforeAll(async () => {
  provider = await startFakeProvider({ apiKey: `sk-e2e-${randomBytes(16).toString("hex")}` });
  recordSecret("provider key", provider.apiKey);
});
test.afterAll(() => provider?.close());

test("an author writes a chat prompt with a placeholder, sees it as its own block, and fills it in the Playground", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = consoleErrors(page);
  const admin = await createAccount({ fullName: "Hana History" });
  const { organization } = await createTeamInNewOrganization([{ userId: admin.id, role: "admin" }]);
  await signIn(page, admin.email);
  const connection = (await callMutation(page.request, "providers.create", {
    organizationId: organization.id, kind: "openai-compatible", name: uniqueName("Local models"), baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey,
  })) as { id: string };
  // Tested, it is the connection the playground starts on (the only one that passed its test).
  await callMutation(page.request, "providers.test", { id: connection.id });

  // The editor: two role messages, then a placeholder moved between them.
  const title = uniqueName("Support With History");
  await page.goto("/");
  await page.getByRole("link", { name: "New Prompt" }).click();
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByRole("radio", { name: "Chat" }).check();
  await page.getByRole("textbox", { name: "Message 1 content" }).fill("You help {{customer}}.");
  await page.getByRole("textbox", { name: "Message 2 content" }).fill("And now?");
  await page.getByRole("button", { name: "Add placeholder" }).click();
  const name = page.getByRole("textbox", { name: "Placeholder name of message 3" });
  await expect(name).toHaveValue("history");
  await expect(page.getByText("history: messages go here", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Move message 3 up" }).click();
  await expect(page.getByRole("textbox", { name: "Placeholder name of message 2" })).toHaveValue("history");
  await expect(page.getByRole("textbox", { name: "Message 3 content" })).toHaveText("And now?");

  // A name that is also a variable blocks the save, in Langfuse's words.
  const lintResults = page.getByRole("region", { name: "Lint results" });
  await page.getByRole("textbox", { name: "Placeholder name of message 2" }).fill("customer");
  await expect(lintResults).toContainText("Names of variables and placeholders must be unique, the following are not: customer");
  await expect(page.getByRole("button", { name: "Create prompt" })).toBeDisabled();
  await page.getByRole("textbox", { name: "Placeholder name of message 2" }).fill("history");
  await expect(lintResults).toContainText("No problems found");
  await page.getByRole("button", { name: "Create prompt" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  // The Template tab: the placeholder is its own block, and listed apart from the variables.
  const messages = page.getByRole("list", { name: "Messages" });
  await expect(messages.getByRole("listitem")).toHaveCount(3);
  await expect(messages.getByRole("listitem").nth(1)).toHaveText(/Placeholder\s*history: messages go here/);
  await expect(page.getByRole("list", { name: "Placeholders" })).toHaveText("history");

  // The Playground fills it with two messages; the run sends them in its place.
  await page.getByRole("tab", { name: "Playground" }).click();
  const fill = page.getByRole("group", { name: "Placeholder history" });
  await expect(fill).toContainText("No messages: the placeholder adds nothing.");
  await fill.getByRole("button", { name: "Add a message to history" }).click();
  await fill.getByRole("textbox", { name: "history message 1" }).fill("Where is my parcel?");
  await fill.getByRole("button", { name: "Add a message to history" }).click();
  await fill.getByRole("textbox", { name: "history message 2" }).fill("On its way.");
  await page.getByLabel("customer", { exact: true }).fill("Ada");
  const column = page.getByRole("region", { name: "Model 1", exact: true });
  await column.getByLabel("Model", { exact: true }).fill("gpt-4o-mini");
  const callsBefore = provider.calls.length;
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(column.getByTestId("column-output")).toContainText(fakeAnswerText("And now?"));
  expect((provider.calls.slice(callsBefore).find((call) => call.path === "/v1/chat/completions")!.body as { messages: unknown }).messages).toEqual([
    { role: "system", content: "You help Ada." },
    { role: "user", content: "Where is my parcel?" },
    { role: "assistant", content: "On its way." },
    { role: "user", content: "And now?" },
  ]);

  // Save as test case: the dialog has the placeholder's messages as JSON, and the case keeps them.
  await page.getByRole("button", { name: "Save as test case from model 1" }).click();
  const add = page.getByRole("dialog", { name: "Add test case" });
  const history = add.getByLabel("history", { exact: true });
  await expect(history).toHaveValue(/"Where is my parcel\?"/);
  await history.fill("not json");
  await add.getByRole("button", { name: "Add test case" }).click();
  await expect(add).toContainText(`The placeholder 'history' must be a JSON array of messages`);
  await history.fill(JSON.stringify([{ role: "user", content: "Where is my parcel?" }]));
  await add.getByRole("button", { name: "Add test case" }).click();
  await expect(add).toBeHidden();
  const saved = await withDb(async (client) => (await client.query<{ placeholders: unknown }>(`SELECT placeholders FROM test_cases WHERE prompt_id = (SELECT id FROM prompts WHERE title = $1)`, [title])).rows);
  expect(saved).toEqual([{ placeholders: { history: [{ role: "user", content: "Where is my parcel?" }] } }]);
  expect(errors).toEqual([]);
});
