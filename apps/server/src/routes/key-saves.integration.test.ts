// One write service for keys (saveRuntimePrompt): "create the prompt or add a version" holds the same
// rules whichever transport a key calls it through (the Langfuse API's create, MCP's create tools). A
// table of rules, each run through every transport against the real server and database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { RUNTIME_MSG } from "@promptly/shared";
import { langfuseCaller, startKeyServer, type KeyServer, type Pair } from "../../test/key-server.ts";
import { callTool, mcpClients, toolText } from "../../test/mcp-client.ts";

let ks: KeyServer;
let teamId: string;
let write: Pair & { id: string };
let mcp: Client;
let closeMcp: () => Promise<unknown>;

type Body = { type: "text"; prompt: string } | { type: "chat"; prompt: { role: string; content: string }[] };
type Save = { name: string; body: Body; tags?: string[]; labels?: string[] };
/** What a save answered, alike for every transport: the version saved, or the refusal's message. */
type Outcome = { version: number; created: boolean } | { refused: string };

const TRANSPORTS: Record<string, (save: Save) => Promise<Outcome>> = {
  async "Langfuse API"({ name, body, tags, labels }) {
    const before = await ks.h.services.db.prompt.count({ where: { teamId, name } });
    const answer = await langfuseCaller(ks.server, () => write)("POST", "/v2/prompts", { body: { name, ...body, tags, labels } });
    if (answer.status !== 201) return { refused: answer.body.message };
    return { version: answer.body.version as number, created: before === 0 };
  },
  async MCP({ name, body, tags, labels }) {
    const result = await callTool(mcp, body.type === "text" ? "createTextPrompt" : "createChatPrompt", { name, prompt: body.prompt, tags, labels });
    if (result.isError) return { refused: toolText(result).replace(/^Error: /, "") };
    const json = JSON.parse(toolText(result)) as { version: number; created: "prompt" | "version" };
    return { version: json.version, created: json.created === "prompt" };
  },
};

const text = (prompt: string): Body => ({ type: "text", prompt });
const chat = (content: string): Body => ({ type: "chat", prompt: [{ role: "system", content }] });

/** Each rule: saves in order, and what the last one answers. */
const RULES: {
  rule: string;
  before?: Save[];
  save: Save;
  outcome: (name: string) => Outcome | { refusedContaining: string };
  /** The prompt's tags afterwards, as every version answers them. */
  tags?: string[];
  /** The tag change the save audits as an update of the prompt, by the key (none when absent). */
  retagged?: { before: string[]; after: string[] };
}[] = [
  { rule: "a new name makes the prompt and its version 1", save: { name: "n", body: text("Hello") }, outcome: () => ({ version: 1, created: true }) },
  {
    rule: "a name the key sees gets its next version",
    before: [{ name: "n", body: text("Hello"), tags: ["a"] }],
    save: { name: "n", body: text("Hello again") },
    outcome: () => ({ version: 2, created: false }),
  },
  {
    rule: "a text prompt's next version is text (a chat version is refused)",
    before: [{ name: "n", body: text("Hello") }],
    save: { name: "n", body: chat("Now chat") },
    outcome: (name) => ({ refused: RUNTIME_MSG.typeFixed(name, "text") }),
  },
  {
    rule: "a chat prompt's next version is chat (a text version is refused)",
    before: [{ name: "n", body: chat("Hi") }],
    save: { name: "n", body: text("Now text") },
    outcome: (name) => ({ refused: RUNTIME_MSG.typeFixed(name, "chat") }),
  },
  {
    rule: "other tags replace the prompt's, on every version",
    before: [{ name: "n", body: text("Hello"), tags: ["a", "b"] }],
    save: { name: "n", body: text("Again"), tags: ["c"] },
    outcome: () => ({ version: 2, created: false }),
    tags: ["c"],
    retagged: { before: ["a", "b"], after: ["c"] },
  },
  {
    rule: "tags left out keep the prompt's",
    before: [{ name: "n", body: text("Hello"), tags: ["a", "b"] }],
    save: { name: "n", body: text("Again") },
    outcome: () => ({ version: 2, created: false }),
    tags: ["a", "b"],
  },
  {
    rule: "[] clears the prompt's tags",
    before: [{ name: "n", body: text("Hello"), tags: ["a", "b"] }],
    save: { name: "n", body: text("Again"), tags: [] },
    outcome: () => ({ version: 2, created: false }),
    tags: [],
    retagged: { before: ["a", "b"], after: [] },
  },
  {
    rule: "its own tags, in any order, change nothing",
    before: [{ name: "n", body: text("Hello"), tags: ["a", "b"] }],
    save: { name: "n", body: text("Again"), tags: ["b", "a"] },
    outcome: () => ({ version: 2, created: false }),
    tags: ["a", "b"],
  },
  {
    rule: "a version refused keeps the prompt's tags (one transaction)",
    before: [{ name: "n", body: text("Hello"), tags: ["a"] }],
    save: { name: "n", body: text("Includes @@@langfusePrompt:name=missing-include|version=1@@@"), tags: ["z"] },
    outcome: () => ({ refusedContaining: "missing-include" }),
    tags: ["a"],
  },
  { rule: "a key never moves production", save: { name: "n", body: text("Hello"), labels: ["production"] }, outcome: () => ({ refused: RUNTIME_MSG.protectedLabel }) },
  {
    rule: "a name taken by a prompt the key cannot see (private) is a conflict, and nothing is saved",
    save: { name: "private-n", body: text("Mine?") },
    outcome: () => ({ refusedContaining: "already exists" }),
  },
];

let serial = 0;

beforeAll(async () => {
  ks = await startKeyServer();
  teamId = await ks.team("Core");
  write = await ks.key(teamId, { scopes: ["write"] });
  const clients = mcpClients(ks.server);
  closeMcp = clients.close;
  mcp = await clients.connect(write.secretKey);
});
afterAll(async () => {
  await closeMcp?.();
  await ks?.close();
});

describe.each(Object.keys(TRANSPORTS))("a key's save through %s", (transport) => {
  it.each(RULES)("$rule", async ({ before = [], save, outcome, tags, retagged }) => {
    // Each case on names of its own.
    const prefix = `t${++serial}-`;
    const named = (one: Save) => ({ ...one, name: `${prefix}${one.name}` });
    if (save.name.startsWith("private-")) {
      await ks.admin.prompts.create({ teamId, name: named(save).name, title: "Mine", visibility: "private", type: "text", template: "Mine" });
    }
    for (const one of before) expect(await TRANSPORTS[transport]!(named(one))).toMatchObject({ version: expect.any(Number) });
    const versionsBefore = await ks.h.services.db.promptVersion.count({ where: { prompt: { teamId, name: named(save).name } } });
    const answer = await TRANSPORTS[transport]!(named(save));
    const expected = outcome(named(save).name);
    if ("refusedContaining" in expected) expect((answer as { refused: string }).refused).toContain(expected.refusedContaining);
    else expect(answer).toEqual(expected);
    if ("refused" in answer) {
      expect(await ks.h.services.db.promptVersion.count({ where: { prompt: { teamId, name: named(save).name } } })).toBe(versionsBefore);
    }
    if (tags) {
      for (let version = 1; version <= versionsBefore + ("refused" in answer ? 0 : 1); version++) {
        const fetched = await langfuseCaller(ks.server, () => write)("GET", `/v2/prompts/${encodeURIComponent(named(save).name)}?version=${version}`);
        expect(fetched.body["tags"], `version ${version}`).toEqual(tags);
      }
      const prompt = await ks.h.services.db.prompt.findFirstOrThrow({ where: { teamId, name: named(save).name }, select: { id: true } });
      const updates = await ks.h.services.db.auditEvent.findMany({ where: { promptId: prompt.id, action: "prompt.update" }, select: { actorKind: true, actorId: true, before: true, after: true } });
      expect(updates).toEqual(retagged ? [{ actorKind: "api_key", actorId: write.id, before: { tags: retagged.before }, after: { tags: retagged.after } }] : []);
    }
  });
});
