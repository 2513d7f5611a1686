// MCP's label lists are bounded as the Langfuse API's are: updatePromptLabels' newLabels and a create's
// labels hold at most PROMPT_LABELS_PER_REQUEST_MAX labels (refused with the shared message, nothing
// written), and a prompt's labels at most PROMPT_LABELS_MAX (the label service's refusal, as REST says it);
// updatePromptLabels answers a split's candidate with the split label among its labels, as its fetch does,
// and takes such a label, or one wholly on the version, sent back to it as already there (the split stays),
// as the Langfuse API's PATCH does; a key that may not fetch the version is answered its labels as
// listPrompts shows them (a split label on its base alone), learning nothing a fetch by version would tell.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { PROMPT_LABELS_MAX, PROMPT_LABELS_PER_REQUEST_MAX, PROMPT_MSG, RUNTIME_MSG } from "@promptly/shared";
import { startKeyServer, type KeyServer } from "../../../test/key-server.ts";
import { callTool as call, mcpClients, toolJson as json, toolText as text } from "../../../test/mcp-client.ts";

let ks: KeyServer;
let clients: ReturnType<typeof mcpClients>;
let client: Client;
let team: string;

beforeAll(async () => {
  ks = await startKeyServer();
  clients = mcpClients(ks.server);
  team = await ks.team("Labels");
  client = await clients.connect((await ks.key(team, { scopes: ["write"] })).secretKey);
});
afterAll(async () => {
  await clients.close();
  await ks.close();
});

const names = (count: number, prefix = "l") => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
const labelCount = (name: string) => ks.h.database.db.promptLabel.count({ where: { prompt: { teamId: team, name } } });

describe("label lists through MCP", () => {
  it(`updatePromptLabels and createTextPrompt take at most ${PROMPT_LABELS_PER_REQUEST_MAX} labels: more is refused and nothing is written`, async () => {
    json(await call(client, "createTextPrompt", { name: "mcp/bounded", prompt: "x" }));
    const update = await call(client, "updatePromptLabels", { name: "mcp/bounded", version: 1, newLabels: names(PROMPT_LABELS_PER_REQUEST_MAX + 1) });
    expect(update.isError).toBe(true);
    expect(text(update)).toContain(PROMPT_MSG.tooManyLabelsAtOnce);
    const create = await call(client, "createTextPrompt", { name: "mcp/bounded", prompt: "y", labels: names(PROMPT_LABELS_PER_REQUEST_MAX + 1) });
    expect(create.isError).toBe(true);
    expect(text(create)).toContain(PROMPT_MSG.tooManyLabelsAtOnce);
    expect(await labelCount("mcp/bounded")).toBe(0);
    expect(await ks.h.database.db.promptVersion.count({ where: { prompt: { teamId: team, name: "mcp/bounded" } } })).toBe(1);

    json(await call(client, "updatePromptLabels", { name: "mcp/bounded", version: 1, newLabels: names(PROMPT_LABELS_PER_REQUEST_MAX) }));
    expect(await labelCount("mcp/bounded")).toBe(PROMPT_LABELS_PER_REQUEST_MAX);
  });

  it(`a prompt's labels stop at ${PROMPT_LABELS_MAX}: a new one past it is refused with the limit named`, async () => {
    json(await call(client, "createTextPrompt", { name: "mcp/crowded", prompt: "x" }));
    for (let start = 0; start < PROMPT_LABELS_MAX; start += PROMPT_LABELS_PER_REQUEST_MAX) {
      json(await call(client, "updatePromptLabels", { name: "mcp/crowded", version: 1, newLabels: names(PROMPT_LABELS_MAX).slice(start, start + PROMPT_LABELS_PER_REQUEST_MAX) }));
    }
    const refused = await call(client, "createTextPrompt", { name: "mcp/crowded", prompt: "y", labels: ["one-more"] });
    expect(refused.structuredContent).toEqual({ error: { code: "BAD_REQUEST", message: PROMPT_MSG.tooManyLabels, reason: "TOO_MANY_LABELS" } });
    expect(await labelCount("mcp/crowded")).toBe(PROMPT_LABELS_MAX);
    // The version and its labels are one transaction: no version 2 either.
    expect(await ks.h.database.db.promptVersion.count({ where: { prompt: { teamId: team, name: "mcp/crowded" } } })).toBe(1);
  });
});

describe("a split label in updatePromptLabels' answer", () => {
  it("names the split label on its candidate, as the candidate's fetch by version does", async () => {
    const { id } = await ks.prompt(team, "mcp/split", [{ template: "One", labels: ["production"] }, { template: "Two" }, { template: "Three" }]);
    await ks.admin.promptLabels.split({ promptId: id, label: "production", version: 2, weight: 30 });
    const answer = json(await call(client, "updatePromptLabels", { name: "mcp/split", version: 2, newLabels: ["staging"] }));
    expect(answer).toMatchObject({ name: "mcp/split", version: 2, labels: ["production", "staging"] });
    const fetched = json(await call(client, "getPrompt", { name: "mcp/split", version: 2 }));
    expect(fetched["labels"]).toEqual(answer["labels"]);
    // The split is untouched: production still serves version 1, with version 2 its candidate.
    expect(await ks.h.database.db.promptLabel.findFirstOrThrow({ where: { promptId: id, name: "production" }, select: { version: true, candidateVersion: true } }))
      .toEqual({ version: 1, candidateVersion: 2 });
  });
});

describe("updatePromptLabels sending back a split label", () => {
  it("changes nothing when the candidate's labels, as getPrompt read them, are sent back", async () => {
    const id = await ks.splitPrompt(team, "mcp/split-echo", [[], ["staging"], []]);
    const read = json(await call(client, "getPrompt", { name: "mcp/split-echo", version: 2 }));
    expect(read["labels"]).toEqual(["production", "staging"]);
    const before = await ks.production(id);

    const answer = json(await call(client, "updatePromptLabels", { name: "mcp/split-echo", version: 2, newLabels: read["labels"] }));
    expect(answer).toMatchObject({ name: "mcp/split-echo", version: 2, labels: ["production", "staging"] });
    expect(await ks.production(id)).toEqual(before);
    expect(json(await call(client, "getPrompt", { name: "mcp/split-echo", version: 2 }))["labels"]).toEqual(["production", "staging"]);
  });

  it("moves the other labels sent with it, and the split stays", async () => {
    const id = await ks.splitPrompt(team, "mcp/split-more", [["staging"], [], []]);
    const before = await ks.production(id);
    const answer = json(await call(client, "updatePromptLabels", { name: "mcp/split-more", version: 2, newLabels: ["production", "staging"] }));
    expect(answer).toMatchObject({ name: "mcp/split-more", version: 2, labels: ["production", "staging"] });
    expect(json(await call(client, "getPrompt", { name: "mcp/split-more", version: 1 }))["labels"]).toEqual(["production"]);
    expect(await ks.h.database.db.promptLabel.findFirstOrThrow({ where: { promptId: id, name: "staging" }, select: { version: true } })).toEqual({ version: 2 });
    expect(await ks.production(id)).toEqual(before);
  });

  it("ends no split of a label the key may move, sent back to its candidate or its base", async () => {
    const { id } = await ks.prompt(team, "mcp/split-beta", [{ template: "One", labels: ["beta"] }, { template: "Two" }, { template: "Three" }]);
    await ks.admin.promptLabels.split({ promptId: id, label: "beta", version: 2, weight: 50 });
    const beta = () => ks.h.database.db.promptLabel.findFirstOrThrow({ where: { promptId: id, name: "beta" }, select: { version: true, candidateVersion: true, candidateWeight: true } });
    const before = await beta();
    expect(before).toEqual({ version: 1, candidateVersion: 2, candidateWeight: 50 });
    for (const version of [2, 1]) {
      expect(json(await call(client, "updatePromptLabels", { name: "mcp/split-beta", version, newLabels: ["beta"] }))).toMatchObject({ labels: ["beta"] });
      expect(await beta()).toEqual(before);
    }
  });

  it("is refused as ever to a key that may not fetch the version, which learns of no split", async () => {
    const id = await ks.splitPrompt(team, "mcp/split-bound", [[], [], []]);
    const before = await ks.production(id);
    const bound = await clients.connect((await ks.key(team, { scopes: ["write"], labels: ["staging"] })).secretKey);
    const refused = await call(bound, "updatePromptLabels", { name: "mcp/split-bound", version: 2, newLabels: ["production"] });
    expect(refused.structuredContent).toMatchObject({ error: { code: "FORBIDDEN", message: RUNTIME_MSG.protectedLabel } });
    expect(await ks.production(id)).toEqual(before);
  });
  it("takes a label on the version wholly, sent back, as already there: production is not refused, the others move", async () => {
    const { id } = await ks.prompt(team, "mcp/whole-echo", [{ template: "One", labels: ["staging"] }, { template: "Two" }, { template: "Three", labels: ["production"] }]);
    const before = await ks.production(id);
    const answer = json(await call(client, "updatePromptLabels", { name: "mcp/whole-echo", version: 3, newLabels: ["production", "staging"] }));
    expect(answer).toMatchObject({ name: "mcp/whole-echo", version: 3, labels: ["production", "staging", "latest"] });
    expect(await ks.h.database.db.promptLabel.findFirstOrThrow({ where: { promptId: id, name: "staging" }, select: { version: true } })).toEqual({ version: 3 });
    expect(await ks.production(id)).toEqual(before);
  });

  it("answers a key that may not fetch the version its labels as listPrompts shows them: a split label on its base alone", async () => {
    const id = await ks.splitPrompt(team, "mcp/split-unread", [[], [], []]);
    const bound = await clients.connect((await ks.key(team, { scopes: ["write"], labels: ["staging"] })).secretKey);
    const answer = json(await call(bound, "updatePromptLabels", { name: "mcp/split-unread", version: 2, newLabels: ["staging"] }));
    expect(answer).toMatchObject({ name: "mcp/split-unread", version: 2, labels: ["staging"] });
    expect(answer["message"]).not.toContain("production");
    expect(await ks.h.database.db.promptLabel.findFirstOrThrow({ where: { promptId: id, name: "staging" }, select: { version: true } })).toEqual({ version: 2 });
  });
});
