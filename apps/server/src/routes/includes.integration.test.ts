// Prompts that include prompts, against the real server and database: an
// include resolves in every API (tRPC's page read, REST /api/v1 get and compile, the Langfuse API by
// raw HTTP, MCP through the official SDK client); a cycle and a chain deeper than 5 prompts are
// refused at save naming the chain; a label moved on the included prompt is served by its includer at
// once through the runtime cache; an include the key may not read is refused, never emptied.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { appProcess, createAccount, createHarness, createOrganization, createTeam, type AppProcess, type Harness } from "@promptly/api/testing";
import { createPromptClient } from "@promptly/client";
import { INCLUDE_MSG, RUNTIME_MSG } from "@promptly/shared";
import { createApp } from "../app.ts";
import { listenForTests, type TestServer } from "../../test/test-server.ts";
import { within } from "../../test/within.ts";

let h: Harness;
let app: AppProcess;
let server: TestServer;
let admin: Awaited<ReturnType<Harness["signedInClient"]>>["api"];
let teamId: string;
let organizationId: string;
let personId: string;
const ids = {} as Record<"tone" | "reply" | "chatty", string>;
type Pair = { key: string; publicKey: string };
const keys = {} as Record<"read" | "write" | "bound", Pair>;
let mcp: Client;

const tag = (name: string, selector: string) => `@@@langfusePrompt:name=${name}|${selector}@@@`;

async function v1(method: string, path: string, key: string, body?: unknown) {
  const response = await fetch(`${server.base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

async function langfuse(path: string, pair: Pair) {
  const response = await fetch(`${server.base}/api/public${path}`, {
    headers: { authorization: `Basic ${Buffer.from(`${pair.publicKey}:${pair.key}`).toString("base64")}` },
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

const tool = async (name: string, args: Record<string, unknown>) => {
  const result = (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  expect(result.isError ?? false, text).toBe(false);
  return JSON.parse(text) as Record<string, any>;
};

beforeAll(async () => {
  h = await createHarness();
  app = appProcess(h);
  server = await listenForTests(createApp({ services: app.services }));
  const person = await createAccount(h);
  personId = person.id;
  organizationId = (await createOrganization(h, [{ userId: person.id, role: "member" }], "Acme")).id;
  teamId = (await createTeam(h, organizationId, [{ userId: person.id, role: "admin" }], "Core")).id;
  admin = (await h.signedInClient(person.id)).api;

  const tone = await admin.prompts.create({ teamId, name: "snippets/tone", title: "Tone", visibility: "team", type: "text", template: "Be {{ tone }}." });
  await admin.promptLabels.set({ promptId: tone.id, label: "production", version: 1 });
  await admin.promptVersions.create({ promptId: tone.id, template: "Be very {{ tone }}, $1." });
  const reply = await admin.prompts.create({
    teamId, name: "reply", title: "Reply", visibility: "team", type: "text", template: `Hello {{ name }}. ${tag("snippets/tone", "label=production")}`,
  });
  await admin.promptLabels.set({ promptId: reply.id, label: "production", version: 1 });
  const chatty = await admin.prompts.create({
    teamId, name: "chatty", title: "Chatty", visibility: "team", type: "chat",
    messages: [{ role: "system", content: `Rules: ${tag("snippets/tone", "version=2")}` }, { role: "user", content: "Hi" }],
  });
  await admin.promptLabels.set({ promptId: chatty.id, label: "production", version: 1 });
  Object.assign(ids, { tone: tone.id, reply: reply.id, chatty: chatty.id });

  const inputs: [keyof typeof keys, { scopes?: ("read" | "write")[]; labels?: string[] }][] = [["read", {}], ["write", { scopes: ["write"] }], ["bound", { labels: ["production"] }]];
  for (const [name, input] of inputs) {
    const created = await admin.apiKeys.create({ teamId, name, ...input });
    keys[name] = { key: created.key, publicKey: created.publicKey };
  }
  mcp = new Client({ name: "promptly-test", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.base}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys.read.key}` } } }));
});
afterAll(async () => {
  await mcp?.close();
  await server.close();
  await app.close();
  await h.close();
});

describe("an include resolves in every API", () => {
  it("tRPC: the page's version as written, resolved beside it, its includes and who uses it", async () => {
    const page = await admin.prompts.get({ id: ids.reply });
    expect(page.version.template).toBe(`Hello {{ name }}. ${tag("snippets/tone", "label=production")}`);
    expect(page.resolved).toMatchObject({ ok: true, template: "Hello {{ name }}. Be {{ tone }}." });
    expect(page.resolved?.ok && page.resolved.variables.map((variable) => variable.name)).toEqual(["name", "tone"]);
    expect(page.includes).toEqual([{ name: "snippets/tone", label: "production", version: null, promptId: ids.tone }]);
    const tone = await admin.prompts.get({ id: ids.tone });
    expect(tone.resolved).toBeNull();
    expect(tone.usedBy.map((use) => [use.name, use.version, use.label, use.includedVersion])).toEqual([
      ["chatty", 1, null, 2],
      ["reply", 1, "production", null],
    ]);
  });

  it("REST /api/v1: get with the resolution graph, compile of the resolved text", async () => {
    const { status, json } = await v1("GET", "/prompts/reply", keys.read.key);
    expect(status).toBe(200);
    expect(json.template).toBe("Hello {{ name }}. Be {{ tone }}.");
    const rootId = json.resolutionGraph.root.id as string;
    expect(json.resolutionGraph).toEqual({
      root: { name: "reply", version: 1, id: rootId },
      dependencies: { [rootId]: [{ name: "snippets/tone", version: 1, id: expect.any(String) }] },
    });
    expect((await v1("GET", "/prompts/snippets%2Ftone", keys.read.key)).json.resolutionGraph).toBeNull();
    expect((await v1("POST", "/prompts/reply/compile", keys.read.key, { variables: { name: "Ada", tone: "warm" } })).json).toEqual({ version: 1, text: "Hello Ada. Be warm." });
    // A chat message includes too; `$1` in the included text stays as written.
    expect((await v1("GET", "/prompts/chatty", keys.read.key)).json.messages[0]).toEqual({ role: "system", content: "Rules: Be very {{ tone }}, $1." });
  });

  it("Langfuse API: resolved with its resolutionGraph, as written with resolve=false", async () => {
    const resolved = await langfuse("/v2/prompts/reply", keys.read);
    expect(resolved.status).toBe(200);
    expect(resolved.json.prompt).toBe("Hello {{ name }}. Be {{ tone }}.");
    expect(resolved.json.resolutionGraph.root).toEqual({ name: "reply", version: 1, id: resolved.json.id });
    expect(resolved.json.resolutionGraph.dependencies[resolved.json.id]).toEqual([{ name: "snippets/tone", version: 1, id: expect.any(String) }]);
    const raw = await langfuse("/v2/prompts/reply?resolve=false", keys.read);
    expect(raw.json).toMatchObject({ prompt: `Hello {{ name }}. ${tag("snippets/tone", "label=production")}`, resolutionGraph: null });
    expect((await langfuse("/v2/prompts/chatty", keys.read)).json.prompt[0]).toEqual({ role: "system", content: "Rules: Be very {{ tone }}, $1." });
  });

  it("MCP: getPrompt and compilePrompt resolve, getPromptUnresolved does not, an MCP prompt is the resolved text", async () => {
    expect(await tool("getPrompt", { name: "reply" })).toMatchObject({ template: "Hello {{ name }}. Be {{ tone }}.", resolutionGraph: { root: { name: "reply" } } });
    expect((await tool("getPromptUnresolved", { name: "reply" })).template).toBe(`Hello {{ name }}. ${tag("snippets/tone", "label=production")}`);
    expect(await tool("compilePrompt", { name: "reply", variables: { name: "Ada", tone: "brief" } })).toMatchObject({ text: "Hello Ada. Be brief." });
    const listed = await mcp.listPrompts();
    expect(listed.prompts.find((prompt) => prompt.name === "reply")?.arguments?.map((argument) => argument.name)).toEqual(["name", "tone"]);
    const got = await mcp.getPrompt({ name: "reply", arguments: { name: "Ada", tone: "kind" } });
    expect(got.messages).toEqual([{ role: "user", content: { type: "text", text: "Hello Ada. Be kind." } }]);
  });

  it("the client: its fetch is resolved, its compile fills the included text", async () => {
    const client = createPromptClient({ url: server.base, apiKey: keys.read.key });
    const reply = await client.get("reply");
    expect(reply.compile({ name: "Bo", tone: "calm" })).toEqual({ ok: true, text: "Hello Bo. Be calm." });
  });

  it("an import checks includes once the whole document is in (an includer may come before what it includes)", async () => {
    const document = JSON.parse((await admin.library.export({ teamId, format: "json" })).data) as { prompts: { name: string }[] };
    expect(document.prompts.map((prompt) => prompt.name)).toEqual(["chatty", "reply", "snippets/tone"]);
    const target = (await createTeam(h, organizationId, [{ userId: personId, role: "admin" }], "Imported")).id;
    await admin.library.applyImport({ teamId: target, document });
    const imported = await admin.prompts.list({ organizationId, teamId: target });
    const reply = imported.items.find((item) => item.name === "reply")!;
    const page = await admin.prompts.get({ id: reply.id });
    expect(page.resolved).toMatchObject({ ok: true, template: "Hello {{ name }}. Be {{ tone }}." });
    expect(page.includes[0]?.promptId).toBe(imported.items.find((item) => item.name === "snippets/tone")!.id);
  });
});

describe("at save", () => {
  it("refuses a cycle naming the chain, in the app and through a key", async () => {
    const a = await admin.prompts.create({ teamId, name: "cycle-a", title: "A", visibility: "team", type: "text", template: "A" });
    await admin.prompts.create({ teamId, name: "cycle-b", title: "B", visibility: "team", type: "text", template: `B ${tag("cycle-a", "label=latest")}` });
    const cycle = INCLUDE_MSG.cycle(["cycle-a", "cycle-b", "cycle-a"]);
    await expect(admin.promptVersions.create({ promptId: a.id, template: `A ${tag("cycle-b", "label=latest")}` })).rejects.toThrow(cycle);
    const byKey = await v1("POST", "/prompts/cycle-a/versions", keys.write.key, { template: `A ${tag("cycle-b", "version=1")}` });
    expect(byKey).toMatchObject({ status: 400, json: { error: { message: cycle, reason: "INCLUDE_CYCLE" } } });
    // Including itself at another version is a cycle too; nothing was saved.
    await expect(admin.promptVersions.create({ promptId: a.id, template: tag("cycle-a", "version=1") })).rejects.toThrow(INCLUDE_MSG.cycle(["cycle-a", "cycle-a"]));
    expect((await admin.prompts.get({ id: a.id, label: "latest" })).version.version).toBe(1);
  });

  it("refuses a chain of more than 5 prompts, and keeps one of 5", async () => {
    await admin.prompts.create({ teamId, name: "depth-5", title: "5", visibility: "team", type: "text", template: "bottom" });
    for (const n of [4, 3, 2, 1]) {
      await admin.prompts.create({ teamId, name: `depth-${n}`, title: `${n}`, visibility: "team", type: "text", template: `${n} ${tag(`depth-${n + 1}`, "label=latest")}` });
    }
    expect((await v1("GET", "/prompts/depth-1?label=latest", keys.read.key)).json.template).toBe("1 2 3 4 bottom");
    await expect(
      admin.prompts.create({ teamId, name: "depth-0", title: "0", visibility: "team", type: "text", template: tag("depth-1", "label=latest") }),
    ).rejects.toThrow(INCLUDE_MSG.tooDeep(["depth-0", "depth-1", "depth-2", "depth-3", "depth-4", "depth-5"]));
  });

  it("refuses an include that is missing, names a missing label, or is a chat prompt", async () => {
    const create = (template: string) => admin.prompts.create({ teamId, name: "broken", title: "Broken", visibility: "team", type: "text", template });
    await expect(create(tag("nowhere", "label=production"))).rejects.toThrow(INCLUDE_MSG.notFound({ name: "nowhere", label: "production" }, ["broken"]));
    await expect(create(tag("reply", "label=staging"))).rejects.toThrow(INCLUDE_MSG.notFound({ name: "reply", label: "staging" }, ["broken"]));
    await expect(create(tag("chatty", "version=1"))).rejects.toThrow(INCLUDE_MSG.notText({ name: "chatty", version: 1 }));
    // Saving, a missing include is a fault of the body: 400 through a key (as Langfuse answers it), not 404.
    const byKey = await v1("POST", "/prompts/reply/versions", keys.write.key, { template: tag("nowhere", "version=1") });
    expect(byKey).toMatchObject({ status: 400, json: { error: { message: INCLUDE_MSG.notFound({ name: "nowhere", version: 1 }, ["reply"]), reason: "INCLUDE_NOT_FOUND" } } });
    // A tag that does not parse (a third part) is text, as in Langfuse.
    expect((await create("@@@langfusePrompt:name=nowhere|label=a|x=y@@@")).version).toBe(1);
  });
});

describe("at fetch", () => {
  it("serves a label moved on the included prompt at once, through the runtime cache", async () => {
    await within(5_000, async () => app.services.runtime.serving);
    // Served from memory: a fetch that reads nothing of the database (earlier writes' notifications may still drop it once).
    await within(2_000, async () => {
      const before = app.queries();
      const { json } = await v1("GET", "/prompts/reply", keys.read.key);
      return json.template === "Hello {{ name }}. Be {{ tone }}." && app.queries() === before;
    });
    await admin.promptLabels.set({ promptId: ids.tone, label: "production", version: 2 });
    try {
      await within(2_000, async () => (await v1("GET", "/prompts/reply", keys.read.key)).json.template === "Hello {{ name }}. Be very {{ tone }}, $1.");
      expect((await langfuse("/v2/prompts/reply", keys.read)).json.prompt).toBe("Hello {{ name }}. Be very {{ tone }}, $1.");
    } finally {
      // The file's other tests read the included prompt at version 1, whatever happened here.
      await admin.promptLabels.set({ promptId: ids.tone, label: "production", version: 1 });
    }
  });

  it("refuses an include the key may not read, naming it", async () => {
    const secret = await admin.prompts.create({ teamId, name: "secret", title: "Secret", visibility: "private", type: "text", template: "Mine" });
    // Its author may include it (they read it); a key reads no private prompt.
    const uses = await admin.prompts.create({ teamId, name: "uses-secret", title: "Uses", visibility: "team", type: "text", template: `x ${tag("secret", "label=latest")}` });
    expect((await admin.prompts.get({ id: uses.id })).resolved).toMatchObject({ ok: true, template: "x Mine" });
    const refused = await v1("GET", "/prompts/uses-secret?label=latest", keys.read.key);
    expect(refused).toMatchObject({ status: 404, json: { error: { message: INCLUDE_MSG.notFound({ name: "secret", label: "latest" }, ["uses-secret"]) } } });
    expect((await langfuse("/v2/prompts/uses-secret?label=latest", keys.read)).status).toBe(404);
    // A key bound to production fetches no other label or version through an include either (even once another key's answer is cached).
    expect((await v1("GET", "/prompts/chatty", keys.read.key)).status).toBe(200);
    const bound = await v1("GET", "/prompts/chatty", keys.bound.key);
    expect(bound).toMatchObject({ status: 403, json: { error: { message: `${RUNTIME_MSG.labelsOnly(["production"])} (include 'snippets/tone' (version 2))` } } });
    // An archived include no longer exists for its includers.
    await admin.prompts.archive({ id: secret.id });
    expect((await admin.prompts.get({ id: uses.id })).resolved).toMatchObject({ ok: false });
  });
});
