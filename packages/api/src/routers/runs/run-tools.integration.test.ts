// A version's tools and response format in a playground run, against a local server of each protocol
// (OpenAI's chat completions and Anthropic's messages): each is sent in the provider's own dialect, a
// tool call the model makes is recorded on the run (name and arguments), answering it with a tool
// result continues the conversation, and a structured answer is checked against the schema, the run
// saying whether it matched.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_MSG, type PromptTool, type ResponseFormat, type RunPromptInput } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { startFakeProvider, type FakeProvider } from "../../../testing/fake-provider.ts";
import { createWorld, type SignedInAccount } from "../../../testing/teams-support.ts";
import type { PromptRunItem } from "../../services/runs/runs.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
let provider: FakeProvider;
let team: { id: string };
const connections = {} as Record<"openai" | "anthropic", string>;

type Api = SignedInAccount["api"];
type Done = { type: "done"; run: PromptRunItem };

const weatherTool: PromptTool = {
  name: "get_weather",
  description: "The forecast for a city ({{ city }} stays as written)",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const forecastFormat: ResponseFormat = {
  type: "json_schema",
  name: "forecast",
  schema: { type: "object", properties: { rain: { type: "boolean" } }, required: ["rain"], additionalProperties: false },
  strict: true,
};

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  world = await createWorld(h);
  team = await world.team();
  const create = (kind: "openai-compatible" | "anthropic", baseUrl: string) =>
    world.callers.orgAdmin.providers.create({ organizationId: world.organization.id, kind, name: kind, baseUrl, apiKey: provider.apiKey });
  connections.openai = (await create("openai-compatible", provider.openaiBaseUrl)).id;
  connections.anthropic = (await create("anthropic", provider.anthropicBaseUrl)).id;
});
afterAll(() => Promise.all([h.close(), provider.close()]));

async function runToEnd(api: Api, input: RunPromptInput) {
  let done: Done | undefined;
  for await (const event of (await api.playground.run(input)) as AsyncIterable<Done | { type: "delta" }>) if (event.type === "done") done = event;
  return done!.run;
}

const chatPrompt = (name: string, extras: { tools?: PromptTool[]; responseFormat?: ResponseFormat | null }) =>
  world.callers.editor.prompts.create({
    teamId: team.id, name, title: name, visibility: "team", type: "chat",
    messages: [{ role: "system", content: "You know the weather." }, { role: "user", content: "Will it rain in {{ city }}?" }],
    ...extras,
  });

/** The body the provider was last sent. */
const lastSent = () => provider.calls.at(-1)!.body as Record<string, unknown>;

describe.each(["openai", "anthropic"] as const)("a run on the %s protocol", (protocol) => {
  const model = protocol === "openai" ? "gpt-4o-mini" : "claude-haiku-4-5";
  const input = (promptId: string): RunPromptInput => ({ promptId, version: 1, connectionId: connections[protocol], model, variables: { city: "Oslo" } });

  it("sends the tools in the provider's dialect, records the tool call, and a tool result continues the conversation", async () => {
    const prompt = await chatPrompt(`weather-${protocol}`, { tools: [weatherTool] });
    provider.answer.toolCall = { name: "get_weather", arguments: { city: "Oslo" } };
    try {
      const run = await runToEnd(world.callers.editor, input(prompt.id));
      const sent = lastSent();
      if (protocol === "openai") {
        expect(sent.tools).toEqual([{ type: "function", function: { name: "get_weather", description: weatherTool.description, parameters: weatherTool.parameters } }]);
      } else {
        expect(sent.tools).toEqual([{ name: "get_weather", description: weatherTool.description, input_schema: weatherTool.parameters }]);
      }
      expect(run).toMatchObject({ status: "succeeded", output: "", schemaMatched: null });
      expect(run.toolCalls).toEqual([{ id: expect.any(String), name: "get_weather", arguments: JSON.stringify({ city: "Oslo" }) }]);
      expect((await world.callers.viewer.runs.get({ id: run.id })).toolCalls).toEqual(run.toolCalls);

      // The author answers the call: the model's turn and the tool result go back, and the model answers in text.
      const call = run.toolCalls[0]!;
      const continued = await runToEnd(world.callers.editor, {
        ...input(prompt.id),
        followUp: [{ role: "assistant", content: "", toolCalls: [call] }, { role: "tool", toolCallId: call.id, content: "Rain all day" }],
      });
      expect(continued).toMatchObject({ status: "succeeded", toolCalls: [], draft: true });
      expect(continued.output).toContain("Echo: Will it rain in Oslo?");
      const messages = lastSent().messages as Record<string, unknown>[];
      if (protocol === "openai") {
        expect(messages.slice(-2)).toEqual([
          { role: "assistant", content: null, tool_calls: [{ id: call.id, type: "function", function: { name: "get_weather", arguments: call.arguments } }] },
          { role: "tool", tool_call_id: call.id, content: "Rain all day" },
        ]);
      } else {
        expect(messages.slice(-2)).toEqual([
          { role: "assistant", content: [{ type: "tool_use", id: call.id, name: "get_weather", input: { city: "Oslo" } }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: "Rain all day" }] },
        ]);
      }
    } finally {
      provider.answer.toolCall = null;
    }
  });

  it("sends the response schema in the provider's dialect and says whether the answer matched it", async () => {
    const prompt = await chatPrompt(`forecast-${protocol}`, { responseFormat: forecastFormat });
    try {
      provider.answer.text = JSON.stringify({ rain: true });
      const matched = await runToEnd(world.callers.editor, input(prompt.id));
      const sent = lastSent();
      if (protocol === "openai") {
        expect(sent.response_format).toEqual({ type: "json_schema", json_schema: { name: "forecast", schema: forecastFormat.schema, strict: true } });
      } else {
        expect(sent.output_config).toEqual({ format: { type: "json_schema", schema: forecastFormat.schema } });
      }
      expect(matched).toMatchObject({ status: "succeeded", schemaMatched: true, schemaProblem: null });

      provider.answer.text = JSON.stringify({ rain: "maybe" });
      const mismatched = await runToEnd(world.callers.editor, input(prompt.id));
      expect(mismatched).toMatchObject({ status: "succeeded", schemaMatched: false, schemaProblem: "/rain must be boolean" });

      provider.answer.text = "Probably rain.";
      expect(await runToEnd(world.callers.editor, input(prompt.id))).toMatchObject({ schemaMatched: false, schemaProblem: "The answer is not JSON" });
    } finally {
      provider.answer.text = null;
    }
  });

  it("records no tool call on a run its time limit ended while the call was coming", async () => {
    const prompt = await chatPrompt(`weather-late-${protocol}`, { tools: [weatherTool] });
    const timeoutMs = h.services.config.providerTimeoutMs;
    // The call's head comes at once, the rest of it long after the run's time limit.
    Object.assign(provider.answer, { toolCall: { name: "get_weather", arguments: { city: "Oslo" } }, chunkDelayMs: 30_000 });
    h.services.config.providerTimeoutMs = 1_000;
    try {
      const run = await runToEnd(world.callers.editor, input(prompt.id));
      expect(run).toMatchObject({ status: "failed", error: PROVIDER_MSG.timedOut(protocol === "openai" ? "openai-compatible" : "anthropic", 1_000), toolCalls: [] });
      expect(await h.database.db.promptRun.findUniqueOrThrow({ where: { id: run.id }, select: { toolCalls: true } })).toEqual({ toolCalls: [] });
    } finally {
      Object.assign(provider.answer, { toolCall: null, chunkDelayMs: 0 });
      h.services.config.providerTimeoutMs = timeoutMs;
    }
  });

  it("sends neither to a version without them, and checks nothing", async () => {
    const prompt = await chatPrompt(`plain-${protocol}`, {});
    const run = await runToEnd(world.callers.editor, input(prompt.id));
    expect(lastSent()).not.toHaveProperty("tools");
    expect(lastSent()).not.toHaveProperty(protocol === "openai" ? "response_format" : "output_config");
    expect(run).toMatchObject({ toolCalls: [], schemaMatched: null, schemaProblem: null });
  });
});

describe("the runs list", () => {
  it("gives each tool call's arguments cut to 1,000 characters; the run itself has them whole", async () => {
    const prompt = await chatPrompt("weather-listed", { tools: [weatherTool] });
    provider.answer.toolCall = { name: "get_weather", arguments: { city: "O".repeat(5_000) } };
    try {
      const run = await runToEnd(world.callers.editor, { promptId: prompt.id, version: 1, connectionId: connections.openai, model: "gpt-4o-mini", variables: { city: "Oslo" } });
      const whole = run.toolCalls[0]!;
      expect(whole.arguments).toBe(JSON.stringify({ city: "O".repeat(5_000) }));
      const { items } = await world.callers.viewer.runs.list({ promptId: prompt.id });
      expect(items.map((item) => item.toolCalls)).toEqual([[{ id: whole.id, name: "get_weather", arguments: whole.arguments.slice(0, 1_000) }]]);
      expect((await world.callers.viewer.runs.get({ id: run.id })).toolCalls).toEqual([whole]);
    } finally {
      provider.answer.toolCall = null;
    }
  });
});
