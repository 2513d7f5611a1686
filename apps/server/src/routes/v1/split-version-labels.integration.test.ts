// A split label's candidate fetched by its version: /api/v1, MCP's read tools and the typed client name
// the label among its labels while the split lasts, as a fetch by the label answers that version (and as
// the Langfuse list names it), and no longer once it ends, rolled back or promoted. The answers kept in
// memory by version follow: each version is fetched (and kept) before every change, and the next answers
// are waited for, never slept for.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPromptClient } from "@promptly/client";
import { appProcess, createAccount, createHarness, createOrganization, createTeam, type AppProcess, type Harness } from "@promptly/api/testing";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";
import { callTool, mcpClients, toolJson } from "../../../test/mcp-client.ts";
import { within } from "../../../test/within.ts";

let h: Harness;
let app: AppProcess;
let server: TestServer;
let clients: ReturnType<typeof mcpClients>;
let teamId: string;
let admin: Awaited<ReturnType<Harness["signedInClient"]>>["api"];
let key: string;
let mcp: Awaited<ReturnType<ReturnType<typeof mcpClients>["connect"]>>;

beforeAll(async () => {
  h = await createHarness();
  app = appProcess(h);
  server = await listenForTests(createApp({ services: app.services }));
  clients = mcpClients(server);
  const adminId = (await createAccount(h, { fullName: "Ada Admin" })).id;
  const organizationId = (await createOrganization(h, [{ userId: adminId, role: "member" }], "Acme")).id;
  teamId = (await createTeam(h, organizationId, [{ userId: adminId, role: "admin" }], "Core")).id;
  admin = (await h.signedInClient(adminId)).api;
  key = (await admin.apiKeys.create({ teamId, name: "read" })).key;
  mcp = await clients.connect(key);
  // Listening, so fetches are kept in memory and a split's start or end must drop them.
  await within(5_000, async () => app.services.runtime.serving);
});
afterAll(async () => {
  await clients.close();
  await server.close();
  await app.close();
  await h.close();
});

/** A prompt of three versions: production on v1, staging on v2 (the candidate to be), v3 the newest. */
async function prompt(name: string) {
  const { id } = await admin.prompts.create({ teamId, name, title: "Reply", visibility: "team", type: "text", template: "One" });
  await admin.promptVersions.create({ promptId: id, template: "Two" });
  await admin.promptVersions.create({ promptId: id, template: "Three" });
  await admin.promptLabels.set({ promptId: id, label: "production", version: 1 });
  await admin.promptLabels.set({ promptId: id, label: "staging", version: 2 });
  return id;
}

/** The labels of `version` as each door answers its fetch by version: REST (twice: the second from memory), MCP's two read tools, the typed client. */
async function labelsOf(name: string, version: number) {
  const rest = async () => {
    const response = await fetch(`${server.base}/api/v1/prompts/${name}?version=${version}`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { labels: string[] }).labels;
  };
  const tool = async (tool: string) => toolJson(await callTool(mcp, tool, { name, version }))["labels"];
  // A new client each time: its own cache would answer its first fetch for its TTL.
  const client = createPromptClient({ url: server.base, apiKey: key, retryDelayMs: 5 });
  return [await rest(), await rest(), await tool("getPrompt"), await tool("getPromptUnresolved"), (await client.get(name, { version })).labels];
}

/** Waits until every door answers `version`'s fetch with `labels` (a change reaches the kept answers by notification). */
async function expectLabels(name: string, version: number, labels: string[]) {
  let last: unknown;
  try {
    await within(10_000, async () => {
      last = await labelsOf(name, version);
      return JSON.stringify(last) === JSON.stringify(Array(5).fill(labels));
    });
  } catch (error) {
    expect(last, `version ${version}`).toEqual(Array(5).fill(labels));
    throw error;
  }
}

describe("a split label's candidate fetched by its version", () => {
  it("lists the label while the split lasts, and not once it is rolled back", async () => {
    const id = await prompt("split/rolled-back");
    for (const version of [1, 2]) await labelsOf("split/rolled-back", version);
    await admin.promptLabels.split({ promptId: id, label: "production", version: 2, weight: 30 });
    await expectLabels("split/rolled-back", 2, ["production", "staging"]);
    await expectLabels("split/rolled-back", 1, ["production"]);

    await admin.promptLabels.endSplit({ promptId: id, label: "production", outcome: "rollback" });
    await expectLabels("split/rolled-back", 2, ["staging"]);
    await expectLabels("split/rolled-back", 1, ["production"]);
  });

  it("lists the label while the split lasts, and on the candidate alone once it is promoted", async () => {
    const id = await prompt("split/promoted");
    for (const version of [1, 2]) await labelsOf("split/promoted", version);
    await admin.promptLabels.split({ promptId: id, label: "production", version: 2, weight: 70 });
    await expectLabels("split/promoted", 2, ["production", "staging"]);
    await expectLabels("split/promoted", 1, ["production"]);

    await admin.promptLabels.endSplit({ promptId: id, label: "production", outcome: "promote" });
    await expectLabels("split/promoted", 2, ["production", "staging"]);
    await expectLabels("split/promoted", 1, []);
  });
});
