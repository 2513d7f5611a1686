// Tools in the playground end to end: a chat version that offers a tool is run on a local
// OpenAI-compatible server (a fake provider this test runs on the loopback address); the model calls
// the tool, the call shows in the column with its arguments and is recorded on the run, and the
// author's tool result continues the conversation to the model's answer. Compare shows a version's tool
// and response format changes, and the editor carries them into the next version, saying variables in
// them are not filled.
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { PROMPT_MSG, TOOLS_MSG } from "@promptly/shared";
import { fakeAnswerText } from "../../../packages/api/testing/fake-provider.ts";
import { callMutation, createAccount, createTeamInNewOrganization, signedInPage, uniqueName, withDb } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { fakeProviderForFile, playgroundColumn as column, testedConnection } from "./support/providers.ts";

const provider = fakeProviderForFile();

const runsOf = (promptId: string) =>
  withDb(async (client) => (await client.query<{ tool_calls: { name: string; arguments: string }[] }>(`SELECT tool_calls FROM prompt_runs WHERE prompt_id = $1 ORDER BY created_at`, [promptId])).rows);

test("a tool call shows in the playground and is recorded; the author's tool result continues the conversation", async ({ browser }) => {
  const admin = await createAccount({ fullName: "Tess Tooladmin" });
  const editor = await createAccount({ fullName: "Tom Tooleditor" });
  const { organization, team } = await createTeamInNewOrganization([
    { userId: admin.id, role: "admin" },
    { userId: editor.id, role: "editor" },
  ]);
  // The connection and the prompt through the API: they are not under test here.
  const adminPage = await signedInPage(browser, admin.email);
  // Tested, it is the connection the playground starts on (the only one that passed its test).
  await testedConnection(adminPage.request, organization.id, provider());
  await adminPage.context().close();
  const page = await signedInPage(browser, editor.email);
  const errors = consoleErrors(page);
  const prompt = (await callMutation(page.request, "prompts.create", {
    teamId: team.id, name: `e2e/${randomBytes(5).toString("hex")}`, title: uniqueName("Weather"), visibility: "team", type: "chat", model: "gpt-4o-mini",
    messages: [{ role: "user", content: "Will it rain in {{ city }}?" }],
    tools: [{ name: "get_weather", description: "The forecast for a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }],
  })) as { id: string };

  provider().answer.toolCall = { name: "get_weather", arguments: { city: "Oslo" } };
  try {
    await page.goto(`/prompts/${prompt.id}?tab=playground`);
    await page.getByLabel("city", { exact: true }).fill("Oslo");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const output = column(page, 1).getByTestId("column-output");
    const call = output.getByTestId("tool-call");
    await expect(call).toContainText("Tool call: get_weather");
    await expect(call).toContainText('"city": "Oslo"');
    await expect.poll(() => runsOf(prompt.id)).toEqual([{ tool_calls: [expect.objectContaining({ name: "get_weather", arguments: '{"city":"Oslo"}' })] }]);
    // Nothing to reply to but the call: its result is asked for.
    await expect(column(page, 1).getByLabel("Your reply")).toHaveCount(0);

    await column(page, 1).getByLabel("Result of get_weather").fill("Rain all day, 12 °C");
    await column(page, 1).getByRole("button", { name: "Send tool result" }).click();
    await expect(output).toContainText(fakeAnswerText("Will it rain in Oslo?"));
    await expect(output.getByText("Rain all day, 12 °C", { exact: true })).toBeVisible();
    await expect(output).toContainText("Result of get_weather");
    const sent = provider().calls.filter((item) => item.path === "/v1/chat/completions").at(-1)!.body as { messages: { role: string }[] };
    expect(sent.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    await expect(column(page, 1).getByLabel("Your reply")).toBeVisible();
  } finally {
    provider().answer.toolCall = null;
  }

  // A second version adds an argument to the tool and asks for a JSON answer: Compare shows both changes.
  await callMutation(page.request, "promptVersions.create", {
    promptId: prompt.id, messages: [{ role: "user", content: "Will it rain in {{ city }}?" }],
    tools: [{ name: "get_weather", description: "The forecast for a city", parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] } }],
    responseFormat: { type: "json_object" },
  });
  await page.goto(`/prompts/${prompt.id}?tab=compare`);
  await expect(page.getByRole("region", { name: "Tools diff" }).locator('[data-diff="added"]').filter({ hasText: '"days"' }).first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Response format diff" }).locator('[data-diff="added"]').filter({ hasText: "json_object" }).first()).toBeVisible();

  // The editor carries the tools and the response format into the next version, says variables in them
  // are not filled, and refuses a field that is not JSON before anything is sent.
  await page.goto(`/prompts/${prompt.id}/new-version`);
  await expect(page.getByText(TOOLS_MSG.notCompiled)).toBeVisible();
  const tools = page.getByRole("textbox", { name: "Tools", exact: true });
  await expect(tools).toHaveValue(/"get_weather"/);
  await expect(page.getByRole("textbox", { name: "Response format", exact: true })).toHaveValue(/"json_object"/);
  await page.getByRole("textbox", { name: "Response format", exact: true }).fill("{ json");
  await expect(page.getByText(TOOLS_MSG.fieldNotJson)).toBeVisible();
  await page.getByRole("textbox", { name: "Response format", exact: true }).fill('{"type": "text"}');
  await page.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByText(PROMPT_MSG.versionSavedToast)).toBeVisible();
  const saved = await withDb(async (client) => (await client.query<{ tools: { name: string }[]; response_format: unknown }>(`SELECT tools, response_format FROM prompt_versions WHERE prompt_id = $1 AND version = 3`, [prompt.id])).rows[0]);
  expect(saved).toEqual({ tools: [expect.objectContaining({ name: "get_weather" })], response_format: { type: "text" } });
  expect(errors).toEqual([]);
});
