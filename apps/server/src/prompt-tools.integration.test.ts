// Tools and a response format with a version, through every way a version is written (the app's tRPC
// API, /api/v1, the Langfuse API and MCP's create tools with OpenAI's `tools` and `response_format` in
// `config`, an import of Langfuse prompt JSON and of Promptly's own library file) and every way it is
// read: each keeps them as written, the Langfuse API answers them in `config` in OpenAI's names (so an
// SDK user's config keeps working), and each refuses a schema that is not a valid JSON Schema naming
// its path, saving nothing. The library export carries them.
import { beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { PromptTool, ResponseFormat } from "@promptly/shared";
import { everyDoor, refused, v1Refusal, type Saved } from "../test/every-door.ts";
import { langfuseCaller, type KeyServer, type Pair } from "../test/key-server.ts";
import { callTool, toolText } from "../test/mcp-client.ts";

type Extras = { tools: PromptTool[]; responseFormat: ResponseFormat | null };

const door = everyDoor();
const { v1, importProblems, reads } = door;
let ks: KeyServer;
let teamId: string;
let write: Pair & { id: string };
let agent: Client;
beforeAll(() => void ({ ks, teamId, write, agent } = door));

const messages = [
  { role: "system" as const, content: "You answer about the weather in {{ city }}." },
  { role: "user" as const, content: "Will it rain?" },
];
const weatherTool: PromptTool = {
  name: "get_weather",
  description: "The forecast for {{ city }} (written as it is: not compiled)",
  parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer", minimum: 1 } }, required: ["city"] },
};
const answerFormat: ResponseFormat = {
  type: "json_schema",
  name: "forecast",
  schema: { type: "object", properties: { rain: { type: "boolean" } }, required: ["rain"], additionalProperties: false },
  strict: true,
};
const extras: Extras = { tools: [weatherTool], responseFormat: answerFormat };

/** The same tools and format as OpenAI's SDK takes them, in a Langfuse config. */
const openAiConfig = (given: Extras) => ({
  temperature: 0.2,
  tools: given.tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
  ...(given.responseFormat?.type === "json_schema"
    ? { response_format: { type: "json_schema", json_schema: { name: given.responseFormat.name, schema: given.responseFormat.schema, strict: given.responseFormat.strict } } }
    : {}),
});




/** Each way a version is written: a new chat prompt of `name` with these tools and response format. */
const writePaths: Record<string, (name: string, given: Extras) => Promise<Saved>> = {
  trpc: (name, given) => refused(ks.admin.prompts.create({ teamId, name, title: name, visibility: "team", type: "chat", messages, config: { temperature: 0.2 }, ...given })),
  v1: async (name, given) => {
    const answer = await v1("POST", "/prompts", { name, title: name, visibility: "team", type: "chat", messages, config: { temperature: 0.2 }, ...given });
    return answer.status < 300 ? { ok: true } : { ok: false, message: v1Refusal(answer.body) };
  },
  langfuse: async (name, given) => {
    const answer = await langfuseCaller(ks.server, () => write)("POST", "/v2/prompts", { body: { name, type: "chat", prompt: messages, config: openAiConfig(given) } });
    return answer.status === 201 ? { ok: true } : { ok: false, message: `${answer.body.message} | ${JSON.stringify(answer.body.error)}` };
  },
  mcp: async (name, given) => {
    const result = await callTool(agent, "createChatPrompt", { name, prompt: messages, config: openAiConfig(given) });
    return result.isError ? { ok: false, message: toolText(result) } : { ok: true };
  },
  "import (Langfuse JSON)": (name, given) => importProblems({ name, version: 1, type: "chat", prompt: messages, config: openAiConfig(given), labels: [], tags: [] }),
  "import (library file)": (name, given) =>
    importProblems({
      format: "promptly.library", version: 1, exportedAt: new Date(0).toISOString(), team: { name: "Core" },
      prompts: [{ name, title: name, versions: [{ version: 1, type: "chat", messages, config: { temperature: 0.2 }, ...given }] }],
    }),
};



describe.each(Object.entries(writePaths))("tools and a response format, written through %s", (path, save) => {
  const name = `tools-${path.replace(/[^a-z]+/g, "-").replace(/-+$/, "")}`;

  it("are saved as written, variables in them left as they are; the Langfuse API answers them in config in OpenAI's names", async () => {
    expect(await save(name, extras)).toEqual({ ok: true });
    const { app, rest, langfuse, tool } = await reads(name);
    expect(app).toMatchObject({ tools: [weatherTool], responseFormat: answerFormat });
    expect(rest).toMatchObject({ tools: [weatherTool], responseFormat: answerFormat });
    expect(tool).toMatchObject({ tools: [weatherTool], responseFormat: answerFormat });
    expect(langfuse.config).toEqual(openAiConfig(extras));
  });

  it("refuses a tool whose parameters are not a valid JSON Schema, naming the path, saving nothing", async () => {
    const bad = `${name}-bad`;
    const broken = { ...weatherTool, parameters: { type: "object", properties: { city: { type: "text" } } } };
    const saved = await save(bad, { tools: [broken], responseFormat: null });
    expect(saved.ok).toBe(false);
    expect(saved.ok || saved.message).toContain("tools[0].parameters.properties.city.type is not a valid JSON Schema");
    expect((await v1("GET", `/prompts/${bad}?label=latest`)).status).toBe(404);
  });

  it("refuses a response schema that is not a valid JSON Schema, naming the path", async () => {
    const saved = await save(`${name}-badformat`, { tools: [], responseFormat: { type: "json_schema", name: "x", schema: { type: "object", required: "rain" } } });
    expect(saved.ok).toBe(false);
    expect(saved.ok || saved.message).toContain("responseFormat.schema.required is not a valid JSON Schema");
  });
});

describe("the Langfuse API's config", () => {
  it("takes Anthropic's tools and a json_object format, and keeps a config without them as it is", async () => {
    const call = langfuseCaller(ks.server, () => write);
    const anthropic = { tools: [{ name: "lookup", description: "Find it", input_schema: { type: "object", properties: { q: { type: "string" } } } }], response_format: { type: "json_object" } };
    expect((await call("POST", "/v2/prompts", { body: { name: "lf-anthropic", type: "chat", prompt: messages, config: anthropic } })).status).toBe(201);
    expect((await v1("GET", "/prompts/lf-anthropic?label=latest")).body).toMatchObject({
      tools: [{ name: "lookup", description: "Find it", parameters: anthropic.tools[0]!.input_schema }],
      responseFormat: { type: "json_object" },
      config: {},
    });
    expect((await call("POST", "/v2/prompts", { body: { name: "lf-plain", type: "text", prompt: "Hi", config: { temperature: 1 } } })).body).toMatchObject({ config: { temperature: 1 } });
    expect((await v1("GET", "/prompts/lf-plain?label=latest")).body).toMatchObject({ tools: [], responseFormat: null });
    const listed = (await call("GET", "/v2/prompts?name=lf-anthropic")).body as unknown as { data: { lastConfig: Record<string, unknown> }[] };
    expect(listed.data[0]!.lastConfig).toMatchObject({ tools: [{ type: "function", function: { name: "lookup" } }], response_format: { type: "json_object" } });
  });

  it("refuses tools in a shape neither OpenAI nor Anthropic writes, naming config.tools", async () => {
    const answer = await langfuseCaller(ks.server, () => write)("POST", "/v2/prompts", { body: { name: "lf-odd", type: "chat", prompt: messages, config: { tools: [{ fn: "x" }] } } });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("config.tools");
  });
});

describe("the library export", () => {
  it("carries each version's tools and response format, and importing it again changes nothing", async () => {
    const exported = await ks.admin.library.export({ teamId, format: "json" });
    const document = JSON.parse(exported.data) as {
      prompts: { name: string; versions: Record<string, unknown>[] }[];
    };
    const version = document.prompts.find((prompt) => prompt.name === "tools-trpc")!.versions[0]!;
    expect(version).toMatchObject({ tools: [weatherTool], responseFormat: answerFormat });
    const preview = await ks.admin.library.previewImport({ teamId, document });
    expect(preview.items.find((item) => item.name === "tools-trpc")).toMatchObject({ outcome: "unchanged" });
  });
});
