// MCP's prompt tools case by case against what Langfuse's own server tests of its MCP tools assert
// (web/src/__tests__/async/mcp-tools-read.servertest.ts and mcp-tools-write.servertest.ts in
// langfuse/langfuse): each `it` here is one of their cases, named as there, in our words, through a
// client of the official MCP SDK against the real server and database (Langfuse calls its handlers
// directly). Where Promptly's rules differ, the test asserts Promptly's answer and says which rule in
// one line; docs/langfuse-conformance.md maps every case.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { LANGFUSE_MSG, PROMPT_MSG, RUNTIME_MSG } from "@promptly/shared";
import { startKeyServer, type KeyServer } from "../../../test/key-server.ts";
import { callTool, mcpClients, toolJson, toolText } from "../../../test/mcp-client.ts";

let ks: KeyServer;
let clients: ReturnType<typeof mcpClients>;
let teamId: string;
let keyId: string;
let client: Client;
let reader: Client;
let unique = 0;
/** A name no other case of the file uses. */
const fresh = (stem: string) => `${stem}-${++unique}`;


const call = (name: string, args: Record<string, unknown>, by: Client = client) => callTool(by, name, args);
const json = async (name: string, args: Record<string, unknown>, by: Client = client) => toolJson(await call(name, args, by));
const refused = (result: CallToolResult, pattern: RegExp | string) => {
  expect(result.isError).toBe(true);
  expect(toolText(result)).toMatch(pattern);
};
const notFound = /not found/i;
/** A client of a new team's write key, and the team. */
async function otherTeam() {
  const team = await ks.team(`Other ${++unique}`);
  return { team, client: await clients.connect((await ks.key(team, { scopes: ["write"] })).secretKey) };
}
const annotations = async (name: string) => (await client.listTools()).tools.find((tool) => tool.name === name)!.annotations;
/** The audit trail of a prompt, as the key wrote it. */
const auditOf = async (promptName: string) => {
  const prompt = await ks.h.services.db.prompt.findFirstOrThrow({ where: { teamId, name: promptName } });
  return ks.h.services.db.auditEvent.findMany({ where: { promptId: prompt.id }, orderBy: [{ createdAt: "asc" }, { seq: "asc" }] });
};

beforeAll(async () => {
  ks = await startKeyServer();
  clients = mcpClients(ks.server);
  teamId = await ks.team("Core");
  const write = await ks.key(teamId, { scopes: ["write"] });
  keyId = write.id;
  client = await clients.connect(write.secretKey);
  reader = await clients.connect((await ks.key(teamId)).secretKey);
});
afterAll(async () => {
  await clients.close();
  await ks.close();
});

describe("MCP Read Tools", () => {
  describe("getPrompt tool", () => {
    it("should have readOnlyHint annotation", async () => {
      expect(await annotations("getPrompt")).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    });

    it("should fetch prompt by name only (defaults to production label)", async () => {
      const name = fresh("test-prompt");
      await ks.prompt(teamId, name, [{ template: "You are a helpful assistant.", labels: ["production"] }]);
      const result = await json("getPrompt", { name }, reader);
      expect(result).toMatchObject({ name, version: 1, prompt: "You are a helpful assistant." });
      expect(result["labels"]).toContain("production");
    });

    it("should fetch prompt by name and specific label", async () => {
      const name = fresh("test-prompt");
      await ks.prompt(teamId, name, [{ template: "Version 1", labels: ["staging"] }, { template: "Version 2", labels: ["production"] }]);
      expect(await json("getPrompt", { name, label: "staging" }, reader)).toMatchObject({ version: 1, prompt: "Version 1" });
    });

    it("should fetch prompt by name and specific version", async () => {
      const name = fresh("test-prompt");
      await ks.prompt(teamId, name, [{ template: "Version 1" }, { template: "Version 2" }]);
      expect(await json("getPrompt", { name, version: 2 }, reader)).toMatchObject({ version: 2, prompt: "Version 2" });
    });

    it("should throw error when both label and version are specified", async () => {
      const name = fresh("test-prompt");
      await ks.prompt(teamId, name, [{ template: "Test", labels: ["production"] }]);
      const both = await call("getPrompt", { name, label: "production", version: 1 }, reader);
      refused(both, LANGFUSE_MSG.mcpVersionAndLabel);
      expect(both.structuredContent).toMatchObject({ error: { code: "BAD_REQUEST" } });
    });

    it("should return error for non-existent prompt", async () => {
      refused(await call("getPrompt", { name: "non-existent-prompt" }, reader), notFound);
    });

    it("should return error for non-existent label", async () => {
      const name = fresh("test-prompt");
      await ks.prompt(teamId, name, [{ template: "Test", labels: ["staging"] }]);
      const result = await call("getPrompt", { name, label: "production" }, reader);
      refused(result, notFound);
      expect(toolText(result)).toBe(LANGFUSE_MSG.mcpPromptNotFound(name, { label: "production" }));
    });

    it("should return error for non-existent version", async () => {
      const name = fresh("test-prompt");
      await ks.prompt(teamId, name, [{ template: "Test" }]);
      refused(await call("getPrompt", { name, version: 999 }, reader), notFound);
    });

    it("should use context.projectId for tenant isolation", async () => {
      // A key sees only its team: the same name in two teams is two prompts.
      const name = fresh("shared-name");
      const other = await otherTeam();
      await ks.prompt(teamId, name, [{ template: "Project 1 content", labels: ["production"] }]);
      await ks.prompt(other.team, name, [{ template: "Project 2 content", labels: ["production"] }]);
      expect(await json("getPrompt", { name }, reader)).toMatchObject({ prompt: "Project 1 content" });
      expect(await json("getPrompt", { name }, other.client)).toMatchObject({ prompt: "Project 2 content" });
    });

    it("should handle special characters in prompt name", async () => {
      // Names keep Promptly's rule: "test-prompt-special!@#$%…" cannot be saved, so it is never found.
      const name = `test-prompt-special!@#$%${++unique}`;
      refused(await call("createTextPrompt", { name, prompt: "Special chars test" }), PROMPT_MSG.nameInvalidNearest(`test-prompt-special-${unique}`));
      refused(await call("getPrompt", { name }, reader), notFound);
      // The characters the rule allows besides letters and digits.
      const allowed = fresh("test-prompt/special.chars_x");
      await ks.prompt(teamId, allowed, [{ template: "Special chars test", labels: ["production"] }]);
      expect(await json("getPrompt", { name: allowed }, reader)).toMatchObject({ name: allowed });
    });

    it("should include prompt config in response", async () => {
      const name = fresh("test-prompt");
      await ks.prompt(teamId, name, [{ template: "Test", labels: ["production"], config: { model: "gpt-4", temperature: 0.7 } }]);
      expect((await json("getPrompt", { name }, reader))["config"]).toEqual({ model: "gpt-4", temperature: 0.7 });
    });

    it("should include tags in response", async () => {
      const name = fresh("test-prompt");
      await ks.prompt(teamId, name, [{ template: "Test", labels: ["production"] }], ["experimental", "v2"]);
      expect((await json("getPrompt", { name }, reader))["tags"]).toEqual(["experimental", "v2"]);
    });
  });

  describe("listPrompts tool", () => {
    // listPrompts answers REST's list page: `items` (labels as { name, version }) and `nextCursor`, 50 by
    // name, where Langfuse answers numbered pages (`data`, `meta`/`pagination`, `page` and `limit`).
    type Listed = { name: string; labels: { name: string; version: number }[]; tags: string[] };
    const items = (page: Record<string, unknown>) => page["items"] as Listed[];
    let listTeam: { team: string; client: Client };
    beforeAll(async () => {
      listTeam = await otherTeam();
    });

    it("should have readOnlyHint annotation", async () => {
      expect(await annotations("listPrompts")).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    });

    it("should list all prompts for project", async () => {
      // A team of its own: the list is exactly its prompts, whatever the other tests of the file made.
      const own = await otherTeam();
      const [first, second] = [fresh("list-test-1"), fresh("list-test-2")];
      await ks.prompt(own.team, first, [{ template: "First prompt" }]);
      await ks.prompt(own.team, second, [{ template: "Second prompt" }]);
      expect(items(await json("listPrompts", {}, own.client)).map((item) => item.name)).toEqual([first, second]);
    });

    it("should filter by name", async () => {
      const name = fresh("filter-name-match");
      await ks.prompt(teamId, name, [{ template: "Match" }]);
      await ks.prompt(teamId, fresh("other"), [{ template: "No match" }]);
      expect(items(await json("listPrompts", { name }, reader)).map((item) => item.name)).toEqual([name]);
    });

    it("should filter by label", async () => {
      await ks.prompt(listTeam.team, fresh("filter-label"), [{ template: "Production version", labels: ["production"] }]);
      await ks.prompt(listTeam.team, fresh("other"), [{ template: "Staging version", labels: ["staging"] }]);
      const listed = items(await json("listPrompts", { label: "production" }, listTeam.client));
      expect(listed.length).toBeGreaterThan(0);
      for (const prompt of listed) expect(prompt.labels.map((label) => label.name)).toContain("production");
    });

    it("should filter by tag", async () => {
      await ks.prompt(listTeam.team, fresh("filter-tag"), [{ template: "Tagged prompt" }], ["experimental"]);
      await ks.prompt(listTeam.team, fresh("untagged"), [{ template: "Untagged prompt" }], []);
      const listed = items(await json("listPrompts", { tag: "experimental" }, listTeam.client));
      expect(listed.length).toBeGreaterThan(0);
      for (const prompt of listed) expect(prompt.tags).toContain("experimental");
    });

    it("should handle pagination with page and limit", async () => {
      // Pages are REST's cursor pages of 50: Langfuse's `page` and `limit` are not arguments, and are not taken.
      const paged = await otherTeam();
      for (let index = 0; index < 5; index++) await ks.prompt(paged.team, `pagination-test-${index}`, [{ template: `Prompt ${index}` }]);
      const page = await json("listPrompts", { page: 1, limit: 2 }, paged.client);
      expect(items(page)).toHaveLength(5);
      expect(page["nextCursor"]).toBeNull();
      const tool = (await paged.client.listTools()).tools.find((candidate) => candidate.name === "listPrompts")!;
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(["cursor", "folder", "label", "name", "q", "tag"]);
    });

    it("should return empty results for no matches", async () => {
      expect(await json("listPrompts", { name: fresh("non-existent") }, reader)).toEqual({ items: [], nextCursor: null });
    });

    it("should use context.projectId for tenant isolation", async () => {
      const name = fresh("isolation-test");
      await ks.prompt(teamId, name, [{ template: "Project 1 only" }]);
      expect(items(await json("listPrompts", { name }, reader))).toHaveLength(1);
      expect(items(await json("listPrompts", { name }, listTeam.client))).toHaveLength(0);
    });

    it("should respect default pagination values", async () => {
      // 50 a page (Langfuse: page 1, limit 50): a team of 51 prompts lists 50, then the last one by its cursor.
      const paged = await otherTeam();
      for (let index = 0; index < 51; index++) await ks.prompt(paged.team, `p-${String(index).padStart(2, "0")}`, [{ template: "x" }]);
      const first = await json("listPrompts", {}, paged.client);
      expect(items(first)).toHaveLength(50);
      const last = await json("listPrompts", { cursor: first["nextCursor"] }, paged.client);
      expect(items(last).map((item) => item.name)).toEqual(["p-50"]);
      expect(last["nextCursor"]).toBeNull();
    });

    it("should include prompt metadata in list results", async () => {
      const name = fresh("metadata-test");
      await ks.prompt(teamId, name, [{ template: "Test", labels: ["production"] }], ["important"]);
      const [listed] = items(await json("listPrompts", { name }, reader));
      expect(listed).toMatchObject({ name, latestVersion: 1, labels: [{ name: "production", version: 1 }], tags: ["important"] });
    });
  });

  describe("getPromptUnresolved tool", () => {
    // Includes must exist when a version is saved: each case makes the prompts its includes name.
    const helpers = async (name: string, labels: string[]) => {
      await ks.prompt(teamId, name, labels.map((label) => ({ template: `${name} text`, labels: [label] })));
      return name;
    };

    it("should have readOnlyHint annotation", async () => {
      expect(await annotations("getPromptUnresolved")).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    });

    it("should fetch latest prompt without resolving dependencies by default", async () => {
      // Promptly's tools default to production (Langfuse's now to latest): latest is asked for by name here.
      const base = await helpers(fresh("base-instructions"), ["production"]);
      const name = fresh("test-prompt-unresolved");
      const raw = `You are a helpful assistant. @@@langfusePrompt:name=${base}|label=production@@@`;
      await ks.prompt(teamId, name, [{ template: "Production prompt", labels: ["production"] }, { template: raw }]);
      expect(await json("getPromptUnresolved", { name }, reader)).toMatchObject({ version: 1, prompt: "Production prompt" });
      const result = await json("getPromptUnresolved", { name, label: "latest" }, reader);
      expect(result).toMatchObject({ name, version: 2, prompt: raw });
      expect(result["prompt"]).toContain(`@@@langfusePrompt:name=${base}|label=production@@@`);
    });

    it("should fetch prompt by name and specific label without resolution", async () => {
      const helper = await helpers(fresh("helper"), ["staging", "production"]);
      const name = fresh("test-prompt-unresolved");
      await ks.prompt(teamId, name, [
        { template: `Version 1 @@@langfusePrompt:name=${helper}|label=staging@@@`, labels: ["staging"] },
        { template: `Version 2 @@@langfusePrompt:name=${helper}|label=production@@@`, labels: ["production"] },
      ]);
      expect(await json("getPromptUnresolved", { name, label: "staging" }, reader)).toMatchObject({
        version: 1, prompt: `Version 1 @@@langfusePrompt:name=${helper}|label=staging@@@`,
      });
    });

    it("should fetch prompt by name and specific version without resolution", async () => {
      const dep = await helpers(fresh("dep"), ["v1", "v2"]);
      const name = fresh("test-prompt-unresolved");
      await ks.prompt(teamId, name, [
        { template: `V1 content @@@langfusePrompt:name=${dep}|label=v1@@@`, labels: ["staging"] },
        { template: `V2 content @@@langfusePrompt:name=${dep}|label=v2@@@`, labels: ["production"] },
      ]);
      expect(await json("getPromptUnresolved", { name, version: 1 }, reader)).toMatchObject({ version: 1, prompt: `V1 content @@@langfusePrompt:name=${dep}|label=v1@@@` });
    });

    it("should throw error if prompt not found", async () => {
      // The same words as getPrompt's, Langfuse's MCP tools' (its read tools share them).
      for (const tool of ["getPromptUnresolved", "getPrompt"]) {
        const result = await call(tool, { name: "non-existent-prompt-12345" }, reader);
        refused(result, "Prompt 'non-existent-prompt-12345' not found");
        expect(result.structuredContent).toEqual({ error: { code: "NOT_FOUND", message: "Prompt 'non-existent-prompt-12345' not found with label 'production'" } });
      }
    });

    it("should throw error when both label and version are specified", async () => {
      for (const tool of ["getPromptUnresolved", "getPrompt"]) {
        refused(await call(tool, { name: "test", label: "production", version: 1 }, reader), "Cannot specify both label and version - they are mutually exclusive");
      }
    });

    it("should return raw chat prompt without resolving dependencies", async () => {
      const [systemBase, userTemplate] = [await helpers(fresh("system-base"), ["production"]), await helpers(fresh("user-template"), ["production"])];
      const messages = [
        { role: "system", content: `You are helpful @@@langfusePrompt:name=${systemBase}|label=production@@@` },
        { role: "user", content: `@@@langfusePrompt:name=${userTemplate}|label=production@@@` },
      ] as const;
      const name = fresh("test-chat-unresolved");
      const { id } = await ks.admin.prompts.create({ teamId, name, title: name, visibility: "team", type: "chat", messages: [...messages] });
      await ks.admin.promptLabels.set({ promptId: id, label: "production", version: 1 });
      const result = await json("getPromptUnresolved", { name }, reader);
      expect(result).toMatchObject({ type: "chat", prompt: messages });
      expect((result["prompt"] as { content: string }[])[0]!.content).toContain(`@@@langfusePrompt:name=${systemBase}|label=production@@@`);
    });
  });
});

describe("MCP Write Tools", () => {
  const created = (result: Record<string, unknown>) => result as { id: string; name: string; version: number; type: string; labels: string[]; message: string };
  const storedVersion = (id: string) => ks.h.services.db.promptVersion.findUniqueOrThrow({ where: { id } });

  describe("createTextPrompt tool", () => {
    it("should have destructive annotation", async () => {
      // MCP's own annotation names: destructiveHint (Langfuse's handlers set `destructive`).
      expect(await annotations("createTextPrompt")).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    });

    it("should create a simple text prompt", async () => {
      const name = fresh("text-prompt");
      const result = created(await json("createTextPrompt", { name, prompt: "You are a helpful assistant." }));
      expect(result).toMatchObject({ id: expect.any(String), name, version: 1, type: "text" });
      expect(result.labels).toContain("latest");
      expect(result.message).toContain("Successfully created");
    });

    it("should create text prompt with labels", async () => {
      const name = fresh("text-prompt");
      // A key never moves production: Langfuse's ["production", "stable"] is refused, and nothing is saved.
      const production = await call("createTextPrompt", { name, prompt: "Production prompt", labels: ["production", "stable"] });
      expect(production.structuredContent).toEqual({ error: { code: "FORBIDDEN", message: RUNTIME_MSG.protectedLabel } });
      refused(await call("getPrompt", { name, label: "latest" }), notFound);
      const result = created(await json("createTextPrompt", { name, prompt: "Production prompt", labels: ["beta", "stable"] }));
      expect(result.labels).toEqual(expect.arrayContaining(["beta", "stable"]));
      expect(result.message).toContain("beta");
    });

    it("should create text prompt with config", async () => {
      const result = await json("createTextPrompt", { name: fresh("text-prompt"), prompt: "Test with config", config: { model: "gpt-4", temperature: 0.7 } });
      expect(result["config"]).toEqual({ model: "gpt-4", temperature: 0.7 });
    });

    it("should create text prompt with tags", async () => {
      const result = await json("createTextPrompt", { name: fresh("text-prompt"), prompt: "Test with tags", tags: ["experimental", "v2"] });
      expect(result["tags"]).toEqual(["experimental", "v2"]);
    });

    it("should create text prompt with commit message", async () => {
      const result = created(await json("createTextPrompt", { name: fresh("text-prompt"), prompt: "Test with commit message", commitMessage: "Initial production version" }));
      expect((await storedVersion(result.id)).commitMessage).toBe("Initial production version");
    });

    it("should auto-increment version for same prompt name", async () => {
      const name = fresh("text-prompt");
      expect((await json("createTextPrompt", { name, prompt: "Version 1" }))["version"]).toBe(1);
      expect((await json("createTextPrompt", { name, prompt: "Version 2" }))["version"]).toBe(2);
    });

    it("should create audit log entry", async () => {
      const name = fresh("text-prompt");
      await json("createTextPrompt", { name, prompt: "Audited prompt" });
      const [event] = await auditOf(name);
      expect(event).toMatchObject({ action: "prompt.create", actorKind: "api_key", actorId: keyId, before: null });
      expect(event!.after).not.toBeNull();
    });

    it("should use context.projectId for tenant isolation", async () => {
      const result = created(await json("createTextPrompt", { name: fresh("isolated"), prompt: "Project 1 prompt" }));
      const version = await ks.h.services.db.promptVersion.findUniqueOrThrow({ where: { id: result.id }, select: { prompt: { select: { teamId: true } } } });
      expect(version.prompt.teamId).toBe(teamId);
    });

    it("should support template variables in prompt", async () => {
      const result = created(await json("createTextPrompt", { name: fresh("text-prompt"), prompt: "Hello {{name}}, welcome to {{service}}!" }));
      expect((await storedVersion(result.id)).template).toBe("Hello {{name}}, welcome to {{service}}!");
    });

    it("should ignore 'latest' in user-provided labels (auto-managed)", async () => {
      // 'latest' is always the newest version, as the new one is: asked for, it is there anyway. Production is a key's never: `beta` here.
      const result = created(await json("createTextPrompt", { name: fresh("text-prompt"), prompt: "Test", labels: ["latest", "beta"] }));
      expect(result.labels).toContain("latest");
      expect(result.labels).toContain("beta");
    });

    it("should set createdBy to API", async () => {
      expect((await json("createTextPrompt", { name: fresh("text-prompt"), prompt: "Test" }))["createdBy"]).toBe("API");
    });
  });

  describe("createChatPrompt tool", () => {
    it("should have destructive annotation", async () => {
      expect(await annotations("createChatPrompt")).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    });

    it("should create a simple chat prompt", async () => {
      const name = fresh("chat-prompt");
      const result = created(await json("createChatPrompt", {
        name, prompt: [{ role: "system", content: "You are a helpful assistant." }, { role: "user", content: "Help me with {{task}}" }],
      }));
      expect(result).toMatchObject({ id: expect.any(String), name, version: 1, type: "chat" });
      expect(result.labels).toContain("latest");
      expect(result.message).toContain("Successfully created");
    });

    it("should create chat prompt with labels", async () => {
      const name = fresh("chat-prompt");
      // A key never moves production.
      refused(await call("createChatPrompt", { name, prompt: [{ role: "system", content: "System instruction" }], labels: ["production"] }), RUNTIME_MSG.protectedLabel);
      const result = created(await json("createChatPrompt", { name, prompt: [{ role: "system", content: "System instruction" }], labels: ["staging"] }));
      expect(result.labels).toContain("staging");
    });

    it("should create chat prompt with multiple message roles", async () => {
      const messages = [
        { role: "system", content: "You are an expert." },
        { role: "user", content: "What is {{topic}}?" },
        { role: "assistant", content: "I will explain {{topic}}." },
      ];
      const result = created(await json("createChatPrompt", { name: fresh("chat-prompt"), prompt: messages }));
      expect((await storedVersion(result.id)).messages).toEqual(messages);
    });

    it("should create chat prompt with config", async () => {
      const result = await json("createChatPrompt", { name: fresh("chat-prompt"), prompt: [{ role: "system", content: "Test" }], config: { model: "gpt-4-turbo", maxTokens: 1000 } });
      expect(result["config"]).toEqual({ model: "gpt-4-turbo", maxTokens: 1000 });
    });

    it("should create chat prompt with tags", async () => {
      const result = await json("createChatPrompt", { name: fresh("chat-prompt"), prompt: [{ role: "system", content: "Test" }], tags: ["multi-turn", "conversational"] });
      expect(result["tags"]).toEqual(["multi-turn", "conversational"]);
    });

    it("should auto-increment version for same prompt name", async () => {
      const name = fresh("chat-prompt");
      expect((await json("createChatPrompt", { name, prompt: [{ role: "system", content: "V1" }] }))["version"]).toBe(1);
      expect((await json("createChatPrompt", { name, prompt: [{ role: "system", content: "V2" }] }))["version"]).toBe(2);
    });

    it("should create audit log entry", async () => {
      const name = fresh("chat-prompt");
      await json("createChatPrompt", { name, prompt: [{ role: "system", content: "Audited" }] });
      const [event] = await auditOf(name);
      expect(event).toMatchObject({ action: "prompt.create", actorKind: "api_key", actorId: keyId, before: null });
      expect(event!.after).not.toBeNull();
    });

    it("should use context.projectId for tenant isolation", async () => {
      const result = created(await json("createChatPrompt", { name: fresh("isolated-chat"), prompt: [{ role: "system", content: "Project 1" }] }));
      const version = await ks.h.services.db.promptVersion.findUniqueOrThrow({ where: { id: result.id }, select: { prompt: { select: { teamId: true } } } });
      expect(version.prompt.teamId).toBe(teamId);
    });

    it("should support template variables in messages", async () => {
      const result = created(await json("createChatPrompt", {
        name: fresh("chat-prompt"), prompt: [{ role: "system", content: "You are a {{domain}} expert." }, { role: "user", content: "Explain {{concept}} to me." }],
      }));
      const messages = (await storedVersion(result.id)).messages as { content: string }[];
      expect(messages[0]!.content).toContain("{{domain}}");
      expect(messages[1]!.content).toContain("{{concept}}");
    });

    it("should allow empty message array", async () => {
      // A Promptly chat prompt has at least one message: an empty array is refused, nothing saved.
      const name = fresh("chat-prompt");
      const result = await call("createChatPrompt", { name, prompt: [] });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: { code: "BAD_REQUEST" } });
      refused(await call("getPrompt", { name, label: "latest" }), notFound);
    });

    it("should set createdBy to API", async () => {
      expect((await json("createChatPrompt", { name: fresh("chat-prompt"), prompt: [{ role: "system", content: "Test" }] }))["createdBy"]).toBe("API");
    });
  });

  describe("updatePromptLabels tool", () => {
    const update = (name: string, version: number, newLabels: string[], by: Client = client) => call("updatePromptLabels", { name, version, newLabels }, by);

    it("should have destructive annotation", async () => {
      expect(await annotations("updatePromptLabels")).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    });

    it("should update labels for a prompt version", async () => {
      const name = fresh("update-labels");
      await ks.prompt(teamId, name, [{ template: "Test" }]);
      // A key never moves production: Langfuse's ["production"] is refused; another label is set.
      expect((await update(name, 1, ["production"])).structuredContent).toEqual({ error: { code: "FORBIDDEN", message: RUNTIME_MSG.protectedLabel } });
      const result = created(toolJson(await update(name, 1, ["staging"])));
      expect(result).toMatchObject({ name, version: 1 });
      expect(result.labels).toContain("staging");
      expect(result.message).toContain("Successfully updated");
    });

    it("should remove labels from other versions (label uniqueness)", async () => {
      // Langfuse moves production; a key moves any label but that one (`staging` here).
      const name = fresh("label-unique");
      await ks.prompt(teamId, name, [{ template: "V1", labels: ["staging"] }, { template: "V2" }]);
      toolJson(await update(name, 2, ["staging"]));
      expect((await json("getPrompt", { name, version: 1 }))["labels"]).not.toContain("staging");
      expect((await json("getPrompt", { name, version: 2 }))["labels"]).toContain("staging");
    });

    it("should allow setting multiple labels", async () => {
      const name = fresh("multi-labels");
      await ks.prompt(teamId, name, [{ template: "Test" }]);
      expect(created(toolJson(await update(name, 1, ["staging", "testing", "qa"]))).labels).toEqual(expect.arrayContaining(["staging", "testing", "qa"]));
    });

    it("should add new labels to existing labels (additive behavior)", async () => {
      const name = fresh("add-labels");
      const made = created(await json("createTextPrompt", { name, prompt: "Test", labels: ["beta"] }));
      expect(made.labels).toEqual(expect.arrayContaining(["beta", "latest"]));
      const result = created(toolJson(await update(name, made.version, ["staging"])));
      expect(result.labels).toEqual(expect.arrayContaining(["latest", "beta", "staging"]));
    });

    it("should throw error for non-existent prompt", async () => {
      refused(await update("non-existent", 1, ["staging"]), notFound);
    });

    it("should throw error for non-existent version", async () => {
      const name = fresh("version-check");
      await ks.prompt(teamId, name, [{ template: "Test" }]);
      refused(await update(name, 999, ["staging"]), notFound);
    });

    it("should create audit log entry with before and after states", async () => {
      const name = fresh("audit-update");
      const made = created(await json("createTextPrompt", { name, prompt: "Test", labels: ["staging"] }));
      toolJson(await update(name, made.version, ["qa"]));
      // One event for each label set, with where it pointed before (null: it was new) and after.
      const moves = (await auditOf(name)).filter((event) => event.action === "prompt.label.set");
      expect(moves.map(({ actorKind, actorId, before, after }) => ({ actorKind, actorId, before, after }))).toEqual([
        { actorKind: "api_key", actorId: keyId, before: { label: "staging", version: null }, after: { label: "staging", version: 1 } },
        { actorKind: "api_key", actorId: keyId, before: { label: "qa", version: null }, after: { label: "qa", version: 1 } },
      ]);
      // The labels before stay (additive).
      expect((await json("getPrompt", { name, version: 1 }))["labels"]).toEqual(expect.arrayContaining(["qa", "staging"]));
    });

    it("should use context.projectId for tenant isolation", async () => {
      const name = fresh("isolated-update");
      await ks.prompt(teamId, name, [{ template: "Project 1" }]);
      const other = await otherTeam();
      refused(await update(name, 1, ["staging"], other.client), notFound);
      toolJson(await update(name, 1, ["staging"]));
    });

    it("should reject 'latest' label", async () => {
      const name = fresh("latest-reject");
      await ks.prompt(teamId, name, [{ template: "Test" }]);
      refused(await update(name, 1, ["latest"]), PROMPT_MSG.labelLatest);
    });

    it("should handle special characters in prompt name", async () => {
      // Names keep Promptly's rule: "special!@#$-…" is never a prompt, so it is not found.
      refused(await update(`special!@#$-${++unique}`, 1, ["staging"]), notFound);
    });
  });
});
