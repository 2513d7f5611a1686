// MCP at /api/mcp: a client built with the official SDK, against the real
// server and database, with keys made as users make them. It lists the tools and prompts, gets and
// compiles a prompt, gets an MCP prompt with arguments; it is refused moving production and another
// team's prompt with REST's words; a read key is not offered the write tools, and a write key
// creates a text and a chat prompt and moves a label.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { AppProcess } from "@promptly/api/testing";
import { LANGFUSE_MSG, PROMPT_MSG, RUNTIME_MSG } from "@promptly/shared";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";
import { startKeyServer, type KeyServer, type TeamAdmin } from "../../../test/key-server.ts";
import { callTool as call, mcpClients, toolJson as json, toolText as text } from "../../../test/mcp-client.ts";

let ks: KeyServer;
let app: AppProcess;
let server: TestServer;
let admin: TeamAdmin;
let teamId: string;
const keys = {} as Record<"read" | "write" | "other", string>;
let clients: ReturnType<typeof mcpClients>;
const connect = (key: string) => clients.connect(key);

beforeAll(async () => {
  ks = await startKeyServer();
  ({ app, server, admin } = ks);
  clients = mcpClients(server);
  teamId = await ks.team("Core");
  const otherTeamId = await ks.team("Other");

  const reply = await admin.prompts.create({
    teamId, name: "support/reply", title: "Support reply", visibility: "team", type: "text", template: "Hello {{ customer }}, about order {{ order }}",
    variables: [
      { name: "customer", type: "string", description: "The customer's first name" },
      { name: "order", type: "number" },
      { name: "tone", type: "enum", options: ["warm", "brief"], default: "warm" },
    ],
  });
  await admin.promptLabels.set({ promptId: reply.id, label: "production", version: 1 });
  await admin.promptVersions.create({ promptId: reply.id, template: "Hi {{ customer }} ({{ tone }}), order {{ order }}" });
  const chat = await admin.prompts.create({
    teamId, name: "triage", title: "Triage", visibility: "team", type: "chat",
    messages: [{ role: "system", content: "You sort {{ topic }} tickets." }, { role: "user", content: "Sort this one." }],
  });
  await admin.promptLabels.set({ promptId: chat.id, label: "production", version: 1 });
  // A draft without production: a prompt, not an MCP prompt.
  await admin.prompts.create({ teamId, name: "draft", title: "Draft", visibility: "team", type: "text", template: "Not yet" });
  const theirs = await admin.prompts.create({ teamId: otherTeamId, name: "theirs", title: "Theirs", visibility: "team", type: "text", template: "Secret" });
  await admin.promptLabels.set({ promptId: theirs.id, label: "production", version: 1 });

  keys.read = (await admin.apiKeys.create({ teamId, name: "read" })).key;
  keys.write = (await admin.apiKeys.create({ teamId, name: "write", scopes: ["write"] })).key;
  keys.other = (await admin.apiKeys.create({ teamId: otherTeamId, name: "other", scopes: ["write"] })).key;
});
afterAll(async () => {
  await clients.close();
  await ks.close();
});

const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
const postTo = (base: string, headers: Record<string, string>) =>
  fetch(`${base}/api/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(initialize) });

describe("the door", () => {
  it("refuses a request without a key, or with a wrong one, with the runtime API's 401 and body", async () => {
    const post = (headers: Record<string, string>) => postTo(server.base, headers);
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: { code: "UNAUTHORIZED", message: RUNTIME_MSG.missingKey } });
    const unknown = await post({ authorization: `Bearer promptly_${"a".repeat(43)}` });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ error: { code: "UNAUTHORIZED", message: RUNTIME_MSG.unknownKey } });
  });

  it("counts a key's MCP requests in its one rate limit with /api/v1, and answers 429 past it", async () => {
    const limited = await listenForTests(
      createApp({ services: { ...app.services, config: { ...app.services.config, rateLimits: true } }, apiRateLimitPerMinute: 2 }),
    );
    try {
      const key = (await admin.apiKeys.create({ teamId, name: "limited" })).key;
      expect((await fetch(`${limited.base}/api/v1/prompts`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      expect((await postTo(limited.base, { authorization: `Bearer ${key}` })).status).toBe(200);
      const refused = await postTo(limited.base, { authorization: `Bearer ${key}` });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await refused.json()).toEqual({ error: { code: "TOO_MANY_REQUESTS", message: RUNTIME_MSG.rateLimited } });
    } finally {
      await limited.close();
      await app.services.rateLimits.reset();
    }
  });
});

describe("a batch", () => {
  it("counts each of its messages against the key's limit: a batch past what is left is refused whole with a single call's 429", async () => {
    // 100 or more a minute: counted in process and reconciled, as the default 600 is.
    const limited = await listenForTests(
      createApp({ services: { ...app.services, config: { ...app.services.config, rateLimits: true } }, apiRateLimitPerMinute: 150 }),
    );
    try {
      const key = (await admin.apiKeys.create({ teamId, name: "batched" })).key;
      const listPrompts = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "listPrompts", arguments: {} } });
      const batch = (size: number) =>
        fetch(`${limited.base}/api/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", authorization: `Bearer ${key}` },
          body: JSON.stringify(Array.from({ length: size }, (_, i) => listPrompts(i + 1))),
        });
      const answered = await batch(100);
      expect(answered.status).toBe(200);
      const answers = (await answered.json()) as { id: number; result?: { isError?: boolean } }[];
      expect(answers).toHaveLength(100);
      expect(answers.every((answer) => answer.result && !answer.result.isError)).toBe(true);
      // 50 left: 51 calls are refused, none of them answered, as one call past the limit is.
      const refused = await batch(51);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await refused.json()).toEqual({ error: { code: "TOO_MANY_REQUESTS", message: RUNTIME_MSG.rateLimited } });
      // The refused batch counted its request (one), not its calls: 49 are left, then none.
      expect((await batch(49)).status).toBe(200);
      expect((await batch(1)).status).toBe(429);
    } finally {
      await limited.close();
      await app.services.rateLimits.reset();
    }
  });
});

describe("a read key", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(keys.read);
  });

  it("is offered the read tools only, the write tools being the write scope's", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["compilePrompt", "getPrompt", "getPromptUnresolved", "listPrompts"]);
    expect(tools.find((tool) => tool.name === "getPrompt")!.inputSchema.properties).toHaveProperty("label");
    const refused = await call(client, "createTextPrompt", { name: "sneaky", prompt: "No" });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("Tool createTextPrompt not found");
    expect(await admin.prompts.list({ organizationId: (await admin.organizations.list())[0]!.id, q: "sneaky" }).then((page) => page.items)).toEqual([]);
  });

  it("gets a prompt by the default label, by label and by version, and unresolved alike", async () => {
    const production = json(await call(client, "getPrompt", { name: "support/reply" }));
    expect(production).toMatchObject({ name: "support/reply", type: "text", version: 1, labels: ["production"], prompt: "Hello {{ customer }}, about order {{ order }}" });
    expect(production["variables"]).toEqual([
      { name: "customer", type: "string", description: "The customer's first name" },
      { name: "order", type: "number" },
      { name: "tone", type: "enum", options: ["warm", "brief"], default: "warm" },
    ]);
    expect(json(await call(client, "getPrompt", { name: "support/reply", label: "latest" }))).toMatchObject({ version: 2 });
    expect(json(await call(client, "getPrompt", { name: "support/reply", version: 2 }))).toMatchObject({ version: 2, template: "Hi {{ customer }} ({{ tone }}), order {{ order }}" });
    expect(json(await call(client, "getPromptUnresolved", { name: "support/reply" }))).toEqual(production);
    const chat = json(await call(client, "getPrompt", { name: "triage" }));
    expect(chat).toMatchObject({ type: "chat", prompt: [{ role: "system", content: "You sort {{ topic }} tickets." }, { role: "user", content: "Sort this one." }] });
  });

  it("is refused with REST's codes, in the words of Langfuse's MCP read tools: both a label and a version, a missing label, another team's prompt", async () => {
    const both = await call(client, "getPrompt", { name: "support/reply", label: "production", version: 1 });
    expect(both.isError).toBe(true);
    expect(both.structuredContent).toEqual({ error: { code: "BAD_REQUEST", message: LANGFUSE_MSG.mcpVersionAndLabel } });
    const noLabel = await call(client, "getPrompt", { name: "draft" });
    expect(noLabel.structuredContent).toEqual({ error: { code: "NOT_FOUND", message: LANGFUSE_MSG.mcpPromptNotFound("draft", { label: "production" }) } });
    const theirs = await call(client, "getPrompt", { name: "theirs" });
    expect(theirs.isError).toBe(true);
    expect(text(theirs)).toBe(LANGFUSE_MSG.mcpPromptNotFound("theirs", { label: "production" }));
    const rest = await fetch(`${server.base}/api/v1/prompts/theirs`, { headers: { authorization: `Bearer ${keys.read}` } });
    expect(rest.status).toBe(404);
  });

  it("lists its team's prompts with labels, tags and latest version, filtered", async () => {
    const page = json(await call(client, "listPrompts", {}));
    expect((page["items"] as { name: string }[]).map((item) => item.name)).toEqual(["draft", "support/reply", "triage"]);
    expect(page["nextCursor"]).toBeNull();
    const reply = (page["items"] as Record<string, unknown>[])[1]!;
    expect(reply).toMatchObject({ latestVersion: 2, labels: [{ name: "production", version: 1 }], tags: [] });
    const labelled = json(await call(client, "listPrompts", { label: "production" }));
    expect((labelled["items"] as { name: string }[]).map((item) => item.name)).toEqual(["support/reply", "triage"]);
    const named = json(await call(client, "listPrompts", { name: "triage" }));
    expect((named["items"] as { name: string }[]).map((item) => item.name)).toEqual(["triage"]);
    const theirs = json(await call(client, "listPrompts", { name: "theirs" }));
    expect(theirs["items"]).toEqual([]);
  });

  it("compiles a prompt, and refuses values that break the contract naming each problem", async () => {
    expect(json(await call(client, "compilePrompt", { name: "support/reply", variables: { customer: "Ada", order: 42 } }))).toEqual({
      name: "support/reply", version: 1, text: "Hello Ada, about order 42",
    });
    expect(json(await call(client, "compilePrompt", { name: "triage", variables: { topic: "billing" } }))).toMatchObject({
      messages: [{ role: "system", content: "You sort billing tickets." }, { role: "user", content: "Sort this one." }],
    });
    const broken = await call(client, "compilePrompt", { name: "support/reply", variables: { order: "many", tone: "rude" } });
    expect(broken.isError).toBe(true);
    expect(text(broken)).toMatch(new RegExp(`^${RUNTIME_MSG.compileFailed.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    const details = (broken.structuredContent as { error: { code: string; details: { variable: string }[] } }).error;
    expect(details.code).toBe("BAD_REQUEST");
    expect(details.details.map((detail) => detail.variable).sort()).toEqual(["customer", "order", "tone"]);
  });

  it("lists its production prompts as MCP prompts, with arguments from their contract", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(["support/reply", "triage"]);
    expect(prompts[0]!.arguments).toEqual([
      { name: "customer", description: "The customer's first name", required: true },
      { name: "order", description: "A number", required: true },
      { name: "tone", description: "One of: warm, brief", required: false },
    ]);
    expect(prompts[1]!.arguments).toEqual([{ name: "topic", description: "A string", required: true }]);
    // The cursor is the runtime list's keyset cursor, refused as REST refuses it.
    await expect(client.listPrompts({ cursor: "not-a-cursor" })).rejects.toThrow(PROMPT_MSG.invalidCursor);
  });

  it("gets an MCP prompt with arguments as compiled messages; a system message is sent as the user's", async () => {
    const reply = await client.getPrompt({ name: "support/reply", arguments: { customer: "Ada", order: "7" } });
    expect(reply.messages).toEqual([{ role: "user", content: { type: "text", text: "Hello Ada, about order 7" } }]);
    const triage = await client.getPrompt({ name: "triage", arguments: { topic: "billing" } });
    expect(triage.messages).toEqual([
      { role: "user", content: { type: "text", text: "You sort billing tickets." } },
      { role: "user", content: { type: "text", text: "Sort this one." } },
    ]);
    await expect(client.getPrompt({ name: "support/reply", arguments: { customer: "Ada", order: "seven" } })).rejects.toThrow(RUNTIME_MSG.compileFailed);
    await expect(client.getPrompt({ name: "theirs", arguments: {} })).rejects.toThrow(RUNTIME_MSG.promptNotFound("theirs", { label: "production" }));
  });
});

describe("a write key", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(keys.write);
  });

  it("is offered the write tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "compilePrompt", "createChatPrompt", "createTextPrompt", "getPrompt", "getPromptUnresolved", "listPrompts", "updatePromptLabels",
    ]);
    const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint]));
    expect(hints).toMatchObject({ getPrompt: true, listPrompts: true, createTextPrompt: false, updatePromptLabels: false });
  });

  it("creates a text prompt, then its next version, with a label", async () => {
    const created = json(await call(client, "createTextPrompt", { name: "mcp/greeting", prompt: "Hello {{ name }}", tags: ["Agents"], labels: ["staging"] }));
    expect(created).toMatchObject({ name: "mcp/greeting", version: 1, type: "text", created: "prompt", labels: ["staging", "latest"], tags: ["agents"] });
    const next = json(await call(client, "createTextPrompt", { name: "mcp/greeting", prompt: "Hi {{ name }}", commitMessage: "Shorter" }));
    expect(next).toMatchObject({ name: "mcp/greeting", version: 2, created: "version", labels: ["latest"] });
    expect(json(await call(client, "getPrompt", { name: "mcp/greeting", label: "staging" }))).toMatchObject({ version: 1, tags: ["agents"], title: "mcp/greeting" });
    expect(json(await call(client, "getPrompt", { name: "mcp/greeting", label: "latest" }))).toMatchObject({ version: 2, template: "Hi {{ name }}" });
    // Tags given with a version become the prompt's, answered by every version.
    await call(client, "createTextPrompt", { name: "mcp/retagged", prompt: "Hello", tags: ["agents"] });
    expect(json(await call(client, "createTextPrompt", { name: "mcp/retagged", prompt: "Hey", tags: ["other"] }))).toMatchObject({ version: 2, tags: ["other"] });
    expect(json(await call(client, "getPrompt", { name: "mcp/retagged", version: 1 }))).toMatchObject({ tags: ["other"] });
  });

  it("creates a chat prompt", async () => {
    const created = json(await call(client, "createChatPrompt", {
      name: "mcp/chat", prompt: [{ role: "system", content: "Be {{ mood }}." }, { role: "user", content: "Hi" }], config: { temperature: 0.2 },
    }));
    expect(created).toMatchObject({ name: "mcp/chat", version: 1, type: "chat", created: "prompt" });
    expect(json(await call(client, "getPrompt", { name: "mcp/chat", label: "latest" }))).toMatchObject({
      type: "chat", messages: [{ role: "system", content: "Be {{ mood }}." }, { role: "user", content: "Hi" }], config: { temperature: 0.2 },
    });
  });

  it("moves a label but never production, and creates nothing with production asked for", async () => {
    const moved = json(await call(client, "updatePromptLabels", { name: "mcp/greeting", version: 2, newLabels: ["staging", "canary"] }));
    expect(moved).toMatchObject({ name: "mcp/greeting", version: 2, labels: ["canary", "staging", "latest"] });
    expect(json(await call(client, "getPrompt", { name: "mcp/greeting", label: "staging" }))).toMatchObject({ version: 2, labels: ["canary", "staging"] });

    const production = await call(client, "updatePromptLabels", { name: "mcp/greeting", version: 1, newLabels: ["qa", "production"] });
    expect(production.structuredContent).toEqual({ error: { code: "FORBIDDEN", message: RUNTIME_MSG.protectedLabel } });
    // Nothing moved, not even the label before production.
    expect(json(await call(client, "getPrompt", { name: "mcp/greeting", version: 1 }))).toMatchObject({ labels: [] });

    const createdToProduction = await call(client, "createTextPrompt", { name: "mcp/live", prompt: "Live", labels: ["production"] });
    expect(text(createdToProduction)).toBe(RUNTIME_MSG.protectedLabel);
    expect(json(await call(client, "listPrompts", { name: "mcp/live" }))["items"]).toEqual([]);

    const rest = await fetch(`${server.base}/api/v1/prompts/mcp/greeting/labels/production`, {
      method: "PUT", headers: { authorization: `Bearer ${keys.write}`, "content-type": "application/json" }, body: JSON.stringify({ version: 1 }),
    });
    expect(((await rest.json()) as { error: { message: string } }).error.message).toBe(RUNTIME_MSG.protectedLabel);
  });

  it("cannot write another team's prompt: not found, as REST says", async () => {
    const other = await connect(keys.other);
    const refused = await call(other, "updatePromptLabels", { name: "mcp/greeting", version: 1, newLabels: ["staging"] });
    expect(refused.structuredContent).toEqual({ error: { code: "NOT_FOUND", message: RUNTIME_MSG.promptNotFound("mcp/greeting") } });
    const { prompts } = await other.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(["theirs"]);
  });
});
