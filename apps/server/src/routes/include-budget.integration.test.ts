// The include budget, against the real server and database: a version holds at most INCLUDE_MAX_TAGS
// include tags and resolves to at most INCLUDE_MAX_RESOLVED_CHARS characters. A save past it is 400
// naming the budget and the include on every transport that saves (tRPC, /api/v1, /api/public, MCP,
// import), a label move (direct, by key, bulk, or `latest` by a new version) that would push an
// includer past it is 400 naming the includer, and a version stored past it before the budget existed
// answers a clear error on every fetch while the process lives. Resolution holds at most the budget
// plus one included text at a time, which the heap tests state (the server runs in this process).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { INCLUDE_MAX_RESOLVED_CHARS, INCLUDE_MAX_TAGS, INCLUDE_MSG } from "@promptly/shared";
import { langfuseCaller, startKeyServer, type KeyServer, type Pair } from "../../test/key-server.ts";
import { callTool, mcpClients, toolText } from "../../test/mcp-client.ts";

let ks: KeyServer;
let teamId: string;
let write: Pair;
let langfuse: ReturnType<typeof langfuseCaller>;
let mcp: Client;
const clients = () => mcpClients(ks.server);
let mcpClose: () => Promise<unknown>;

const tag = (name: string, selector: string) => `@@@langfusePrompt:name=${name}|${selector}@@@`;
const BIG = "x".repeat(99_000);
const amplified = tag("big", "label=staging").repeat(20);
const tooLong = INCLUDE_MSG.tooLong({ name: "big", label: "staging" }, ["amp"], 20 * BIG.length);

async function v1(method: string, path: string, body?: unknown) {
  const response = await fetch(`${ks.server.base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${write.secretKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

/**
 * The heap's growth while `work` runs, from a collected heap: large strings go straight to the old
 * generation and stay counted until the next full collection. The least of three runs, so that what
 * else the process allocates meanwhile (timers, the database's notifications) does not count; work
 * that builds what the budget forbids grows the heap that much in every run.
 */
let gc: () => void;
async function heapGrowth(work: (run: number) => Promise<unknown>) {
  let least = Infinity;
  for (let run = 0; run < 3; run++) {
    gc();
    const before = process.memoryUsage().heapUsed;
    await work(run);
    least = Math.min(least, process.memoryUsage().heapUsed - before);
  }
  return least;
}

const promptExists = async (name: string) => (await ks.h.services.db.prompt.count({ where: { teamId, name } })) > 0;

beforeAll(async () => {
  setFlagsFromString("--expose-gc");
  gc = runInNewContext("gc") as () => void;
  ks = await startKeyServer();
  teamId = await ks.team("Core");
  write = await ks.key(teamId, { scopes: ["write"] });
  langfuse = langfuseCaller(ks.server, () => write);
  const connected = clients();
  mcpClose = connected.close;
  mcp = await connected.connect(write.secretKey);
  // 99,000 characters, under the 100,000 one template may hold: saving it alone is allowed.
  await ks.prompt(teamId, "big", [{ template: BIG, labels: ["staging"] }]);
});
afterAll(async () => {
  await mcpClose?.();
  await ks?.close();
});

describe("a save past the budget is refused on every transport, naming the budget and the include", () => {
  it("tRPC: a new prompt and a new version", async () => {
    await expect(ks.admin.prompts.create({ teamId, name: "amp", title: "Amp", visibility: "team", type: "text", template: amplified })).rejects.toThrow(tooLong);
    expect(await promptExists("amp")).toBe(false);
    const small = await ks.admin.prompts.create({ teamId, name: "amp", title: "Amp", visibility: "team", type: "text", template: "small" });
    await expect(ks.admin.promptVersions.create({ promptId: small.id, template: amplified })).rejects.toThrow(tooLong);
    // Chat messages count together: ten tags in each of two messages make the same twenty.
    const half = tag("big", "label=staging").repeat(10);
    await expect(
      ks.admin.prompts.create({ teamId, name: "amp-chat", title: "Amp", visibility: "team", type: "chat", messages: [{ role: "system", content: half }, { role: "user", content: half }] }),
    ).rejects.toThrow(INCLUDE_MSG.tooLong({ name: "big", label: "staging" }, ["amp-chat"], 20 * BIG.length));
    expect((await ks.admin.prompts.get({ id: small.id })).version.version).toBe(1);
    await ks.admin.prompts.archive({ id: small.id });
    await ks.h.services.db.prompt.deleteMany({ where: { teamId, name: "amp" } });
  });

  it("/api/v1: a new prompt and a new version", async () => {
    expect(await v1("POST", "/prompts", { name: "amp", title: "Amp", visibility: "team", type: "text", template: amplified })).toMatchObject({ status: 400, json: { error: { message: tooLong, reason: "INCLUDE_TOO_LONG" } } });
    expect(await promptExists("amp")).toBe(false);
    expect(await v1("POST", "/prompts/big/versions", { template: `${tag("big", "label=staging")}` })).toMatchObject({ status: 400 });
  });

  it("/api/public (Langfuse): create", async () => {
    const answer = await langfuse("POST", "/v2/prompts", { body: { name: "amp", type: "text", prompt: amplified, labels: ["staging"] } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(tooLong);
    expect(await promptExists("amp")).toBe(false);
  });

  it("MCP: createTextPrompt and createChatPrompt", async () => {
    const text = await callTool(mcp, "createTextPrompt", { name: "amp", prompt: amplified });
    expect(text.isError).toBe(true);
    expect(toolText(text)).toContain(tooLong);
    const chat = await callTool(mcp, "createChatPrompt", { name: "amp", prompt: [{ role: "system", content: amplified }] });
    expect(chat.isError).toBe(true);
    expect(await promptExists("amp")).toBe(false);
  });

  it("import", async () => {
    // The team's own export with one more prompt, written as an export writes it.
    const document = JSON.parse((await ks.admin.library.export({ teamId, format: "json" })).data) as { prompts: { name: string; title: string; versions: { template?: string }[] }[] };
    const like = document.prompts.find((prompt) => prompt.name === "big")!;
    document.prompts.push({ ...like, name: "amp", title: "Amp", versions: [{ ...like.versions[0]!, template: amplified }] });
    await expect(ks.admin.library.applyImport({ teamId, document })).rejects.toThrow(tooLong);
    expect(await promptExists("amp")).toBe(false);
  });

  it("more tags than a version holds, however short", async () => {
    const many = tag("big", "version=1").repeat(INCLUDE_MAX_TAGS + 1);
    expect(await v1("POST", "/prompts", { name: "many", title: "Many", visibility: "team", type: "text", template: many })).toMatchObject({
      status: 400, json: { error: { message: INCLUDE_MSG.tooManyTags(["many"], INCLUDE_MAX_TAGS + 1), reason: "INCLUDE_TOO_MANY" } },
    });
  });
});

describe("a move that would push an includer past the budget is refused, naming the includer", () => {
  let snippet: { id: string };
  const includerMessage = (detail: string) => INCLUDE_MSG.includerTooLong("uses-snippet", 1, detail);
  const overBy = (label: string) => INCLUDE_MSG.tooLong({ name: "snippet", label }, ["uses-snippet"], 10 * 20_000 + "pad".length);

  beforeAll(async () => {
    // Version 1 is short; version 2 is 20,000 characters, ten of which are 200,000.
    snippet = await ks.prompt(teamId, "snippet", [{ template: "short", labels: ["staging"] }, { template: "y".repeat(20_000) }]);
    await ks.admin.prompts.create({ teamId, name: "uses-snippet", title: "Uses", visibility: "team", type: "text", template: `pad${tag("snippet", "label=staging").repeat(10)}` });
  });

  it("a direct move, a key's move (REST, Langfuse, MCP) and a bulk move", async () => {
    const message = includerMessage(overBy("staging"));
    await expect(ks.admin.promptLabels.set({ promptId: snippet.id, label: "staging", version: 2 })).rejects.toThrow(message);
    expect(await v1("PUT", "/prompts/snippet/labels/staging", { version: 2 })).toMatchObject({ status: 400, json: { error: { message } } });
    const patched = await langfuse("PATCH", "/v2/prompts/snippet/versions/2", { body: { newLabels: ["staging"] } });
    expect(patched).toMatchObject({ status: 400, body: { message } });
    const moved = await callTool(mcp, "updatePromptLabels", { name: "snippet", version: 2, newLabels: ["staging"] });
    expect(moved.isError).toBe(true);
    expect(toolText(moved)).toContain(message);
    await expect(ks.admin.prompts.bulk({ promptIds: [snippet.id], action: { kind: "setLabel", label: "staging" } })).rejects.toThrow(message);
    const label = await ks.h.services.db.promptLabel.findUnique({ where: { promptId_name: { promptId: snippet.id, name: "staging" } } });
    expect(label?.version).toBe(1);
  });

  it("a new version of a prompt included by `latest`", async () => {
    const latest = await ks.admin.prompts.create({ teamId, name: "uses-latest", title: "Uses", visibility: "team", type: "text", template: tag("snippet", "label=latest").repeat(5) });
    await expect(ks.admin.promptVersions.create({ promptId: snippet.id, template: "z".repeat(30_000) })).rejects.toThrow(
      INCLUDE_MSG.includerTooLong("uses-latest", 1, INCLUDE_MSG.tooLong({ name: "snippet", label: "latest" }, ["uses-latest"], 5 * 30_000)),
    );
    // A version that keeps every includer within the budget is saved.
    expect((await ks.admin.promptVersions.create({ promptId: snippet.id, template: "z".repeat(9_000) })).version).toBe(3);
    await ks.admin.prompts.archive({ id: latest.id });
  });
});

describe("a version stored past the budget before it existed", () => {
  let legacy: { id: string };

  beforeAll(async () => {
    // As an earlier release saved it: the includer's text written straight into its version, with its edge.
    legacy = await ks.admin.prompts.create({ teamId, name: "legacy", title: "Legacy", visibility: "team", type: "text", template: "fine" });
    await ks.admin.promptLabels.set({ promptId: legacy.id, label: "staging", version: 1 });
    await ks.h.services.db.$executeRaw`ALTER TABLE prompt_versions DISABLE TRIGGER USER`;
    try {
      await ks.h.services.db.$executeRaw`UPDATE prompt_versions SET template = ${amplified} WHERE prompt_id = ${legacy.id}::uuid AND version = 1`;
    } finally {
      await ks.h.services.db.$executeRaw`ALTER TABLE prompt_versions ENABLE TRIGGER USER`;
    }
    const version = await ks.h.services.db.promptVersion.findUniqueOrThrow({ where: { promptId_version: { promptId: legacy.id, version: 1 } } });
    await ks.h.services.db.promptDependency.create({ data: { parentVersionId: version.id, teamId, childName: "big", childLabel: "staging" } });
  });

  it("answers a clear error on every fetch, and the process serves the next request", async () => {
    const message = INCLUDE_MSG.tooLong({ name: "big", label: "staging" }, ["legacy"], 20 * BIG.length);
    expect(await v1("GET", "/prompts/legacy?label=staging")).toMatchObject({ status: 409, json: { error: { message } } });
    expect(await langfuse("GET", "/v2/prompts/legacy?label=staging")).toMatchObject({ status: 409, body: { message } });
    const fetched = await callTool(mcp, "getPrompt", { name: "legacy", label: "staging" });
    expect(fetched.isError).toBe(true);
    expect(toolText(fetched)).toContain(message);
    expect((await ks.admin.prompts.get({ id: legacy.id })).resolved).toMatchObject({ ok: false, message });
    expect((await v1("GET", "/prompts/big?label=staging")).status).toBe(200);
  });

  it("is refused before its text is built: the heap grows by less than the budget's own size", async () => {
    const growth = await heapGrowth(async () => {
      for (let i = 0; i < 5; i++) expect((await v1("GET", "/prompts/legacy?label=staging")).status).toBe(409);
    });
    // Building it would hold 1.98 million characters each time; refusing it holds `big` once at most.
    expect(growth).toBeLessThan(8 * 1024 * 1024);
  });
});

describe("the largest tree within the budget", () => {
  it("resolves, and its resolution grows the heap by a few times the budget at most", async () => {
    // Five levels: a leaf of 200 characters, included 20 times (the most a version holds) by the level
    // above, that 5 times by the next, that 4 times by the next; the root holds 20 tags and comes to 99,000.
    const leaf = "w".repeat(200);
    await ks.admin.prompts.create({ teamId, name: "tree-4", title: "4", visibility: "team", type: "text", template: leaf });
    for (const [level, times] of [[3, INCLUDE_MAX_TAGS], [2, 5], [1, 4]] as const) {
      const below = tag(`tree-${level + 1}`, "label=latest");
      await ks.admin.prompts.create({ teamId, name: `tree-${level}`, title: `${level}`, visibility: "team", type: "text", template: below.repeat(times) });
    }
    const root = `${tag("tree-1", "label=latest")}${tag("tree-3", "label=latest").repeat(4)}${tag("tree-4", "label=latest").repeat(INCLUDE_MAX_TAGS - 5)}`;
    const expected = 4 * 5 * INCLUDE_MAX_TAGS * leaf.length + 4 * INCLUDE_MAX_TAGS * leaf.length + (INCLUDE_MAX_TAGS - 5) * leaf.length;
    expect(expected).toBe(99_000);
    expect(expected).toBeLessThanOrEqual(INCLUDE_MAX_RESOLVED_CHARS);
    // One root a run: a fetch of one already fetched is the runtime cache's answer, not a resolution.
    for (const run of [0, 1, 2]) await ks.admin.prompts.create({ teamId, name: `tree-0-${run}`, title: "0", visibility: "team", type: "text", template: root });
    const lengths: number[] = [];
    const growth = await heapGrowth(async (run) => {
      const { json } = await v1("GET", `/prompts/tree-0-${run}?label=latest`);
      lengths.push((json.template as string).length);
    });
    expect(lengths).toEqual([expected, expected, expected]);
    // The answer itself is 100,000 one-byte characters; what resolving it left on the heap stays within a few times that.
    expect(growth).toBeLessThan(8 * 1024 * 1024);
  });
});
