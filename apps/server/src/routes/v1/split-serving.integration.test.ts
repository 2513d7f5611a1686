// How a split label's fetches are served, beyond the pick by weight: a version that cannot be served
// to a key refuses only the fetches that pick it, whether the answer is kept in memory or not; the
// X-Promptly-Unit header is held to the query's unit rule; the candidate's answer lists the label it
// is served under; and deleting one of a split's versions leaves the label on the other.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIME_MSG } from "@promptly/shared";
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
type Api = Awaited<ReturnType<Harness["signedInClient"]>>["api"];
let admin: Api;
const keys = {} as Record<"read" | "bound" | "deleter", string>;

const tag = (name: string, selector: string) => `@@@langfusePrompt:name=${name}|${selector}@@@`;

beforeAll(async () => {
  h = await createHarness();
  app = appProcess(h);
  server = await listenForTests(createApp({ services: app.services }));
  clients = mcpClients(server);
  const adminId = (await createAccount(h, { fullName: "Ada Admin" })).id;
  const organizationId = (await createOrganization(h, [{ userId: adminId, role: "member" }], "Acme")).id;
  teamId = (await createTeam(h, organizationId, [{ userId: adminId, role: "admin" }], "Core")).id;
  admin = (await h.signedInClient(adminId)).api;
  keys.read = (await admin.apiKeys.create({ teamId, name: "read" })).key;
  keys.bound = (await admin.apiKeys.create({ teamId, name: "bound", labels: ["production"] })).key;
  keys.deleter = (await admin.apiKeys.create({ teamId, name: "deleter", scopes: ["read", "write", "delete"] })).key;
  await within(5_000, async () => app.services.runtime.serving);
});
afterAll(async () => {
  await clients.close();
  await server.close();
  await app.close();
  await h.close();
});

let prompts = 0;

/** A prompt of `templates` (v1, v2, ...), production on v1 and split onto v2 at `weight`. */
async function splitPrompt(templates: string[], weight = 50) {
  prompts += 1;
  const name = `support/served-${prompts}`;
  const prompt = await admin.prompts.create({ teamId, name, title: "Reply", visibility: "team", type: "text", template: templates[0]! });
  for (const template of templates.slice(1)) await admin.promptVersions.create({ promptId: prompt.id, template });
  await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  await admin.promptLabels.split({ promptId: prompt.id, label: "production", version: 2, weight });
  return { id: prompt.id, name };
}

async function get(path: string, key: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

/** What a key's REST fetch of production answers a unit: its version, or its refusal. */
async function served(name: string, key: string, unit: string) {
  const { status, json } = await get(`/api/v1/prompts/${name}?label=production&unit=${unit}`, key);
  return status === 200 ? { status, version: json.version as number } : { status, message: json.error.message as string };
}

const units = Array.from({ length: 40 }, (_, i) => `unit-${i}`);

describe("a version a key may not be served refuses only the fetches that pick it", () => {
  it.each([
    ["the candidate", 2],
    ["the label's own version", 1],
  ])("%s including a label the key is not bound to: the same answers from the database and from memory", async (_, refusedVersion) => {
    const snippetName = `snippets/tone-${refusedVersion}`;
    const snippet = await admin.prompts.create({ teamId, name: snippetName, title: "Tone", visibility: "team", type: "text", template: "Be kind." });
    await admin.promptLabels.set({ promptId: snippet.id, label: "staging", version: 1 });
    const including = `Hello. ${tag(snippetName, "label=staging")}`;
    const w = await splitPrompt(refusedVersion === 2 ? ["Hello.", including] : [including, "Hello."]);
    const refusal = `${RUNTIME_MSG.labelsOnly(["production"])} (include '${snippetName}' (label 'staging'))`;
    // Which version each unit is picked, as a key bound to nothing is served it.
    const picked = new Map<string, number>();
    for (const unit of units) picked.set(unit, (await served(w.name, keys.read, unit)).version!);
    expect(new Set(picked.values())).toEqual(new Set([1, 2]));
    const expected = units.map((unit) =>
      picked.get(unit) === refusedVersion ? { status: 403, message: refusal } : { status: 200, version: picked.get(unit) },
    );

    // Nothing kept: each fetch is read from the database.
    const cold = [];
    for (const unit of units) {
      app.services.runtime.invalidate(`team:${teamId}`);
      cold.push(await served(w.name, keys.bound, unit));
    }
    expect(cold).toEqual(expected);

    // Kept by another key's fetch: each fetch is answered from memory, alike.
    await served(w.name, keys.read, "filler");
    const queries = app.queries();
    const warm = [];
    for (const unit of units) warm.push(await served(w.name, keys.bound, unit));
    expect(app.queries(), "answered from memory").toBe(queries);
    expect(warm).toEqual(expected);
  });
});

describe("the unit header is held to the query's unit rule", () => {
  it("a unit over 200 characters is refused alike in the header (400, the query's message), from the database and from memory", async () => {
    const w = await splitPrompt(["Version one", "Version two"]);
    const long = "u".repeat(201);
    const byQuery = await get(`/api/v1/prompts/${w.name}?label=production&unit=${long}`, keys.read);
    expect(byQuery).toMatchObject({ status: 400, json: { error: { code: "BAD_REQUEST", message: expect.stringContaining("unit:") } } });
    app.services.runtime.invalidate(`team:${teamId}`);
    expect(await get(`/api/v1/prompts/${w.name}?label=production`, keys.read, { "x-promptly-unit": long })).toEqual(byQuery);
    // Kept now (the fetch from memory answers what it can): the header is refused all the same.
    expect((await get(`/api/v1/prompts/${w.name}?label=production`, keys.read)).status).toBe(200);
    expect(await get(`/api/v1/prompts/${w.name}?label=production`, keys.read, { "x-promptly-unit": long })).toEqual(byQuery);
    const compiled = await fetch(`${server.base}/api/v1/prompts/${w.name}/compile`, {
      method: "POST",
      headers: { authorization: `Bearer ${keys.read}`, "content-type": "application/json", "x-promptly-unit": long },
      body: JSON.stringify({ label: "production" }),
    });
    expect({ status: compiled.status, json: await compiled.json() }).toEqual(byQuery);
    const langfuse = await get(`/api/public/v2/prompts/${encodeURIComponent(w.name)}?label=production`, keys.read, { "x-promptly-unit": long });
    expect(langfuse).toMatchObject({ status: 400, json: { message: byQuery.json.error.message } });
    // 200 characters is a unit, in the header as in the query, and the same one.
    const longest = "u".repeat(200);
    const inQuery = await get(`/api/v1/prompts/${w.name}?label=production&unit=${longest}`, keys.read);
    expect(inQuery.status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await get(`/api/v1/prompts/${w.name}?label=production`, keys.read, { "x-promptly-unit": longest })).json.version).toBe(inQuery.json.version);
  });

  it("the API's description says to send a unit with spaces at either end in the query", async () => {
    const document = (await (await fetch(`${server.base}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { parameters?: { name: string; in: string; description?: string; schema: { description?: string } }[] }>> };
    const parameters = document.paths["/prompts/{name}"]!.get!.parameters!;
    expect(parameters.find((p) => p.in === "header" && p.name === "X-Promptly-Unit")?.description).toMatch(/spaces at either end.*in the query/);
    // The query's, in its schema (as the body's unit of compile and run).
    expect(parameters.find((p) => p.in === "query" && p.name === "unit")?.schema.description).toMatch(/X-Promptly-Unit header loses those/);
  });
});

describe("the candidate's answer lists the label it is served under", () => {
  it("on REST, the Langfuse API and MCP, from the database and from memory; the label's own version answers as before", async () => {
    const w = await splitPrompt(["Version one", "Version two"]);
    await admin.promptLabels.set({ promptId: w.id, label: "qa", version: 2 });
    const picked = new Map<string, number>();
    for (const unit of units) picked.set(unit, (await served(w.name, keys.read, unit)).version!);
    const onCandidate = units.find((unit) => picked.get(unit) === 2)!;
    const onMain = units.find((unit) => picked.get(unit) === 1)!;
    const mcp = await clients.connect(keys.read);
    for (const cache of ["cold", "kept"]) {
      if (cache === "cold") app.services.runtime.invalidate(`team:${teamId}`);
      const rest = (unit: string) => get(`/api/v1/prompts/${w.name}?label=production&unit=${unit}`, keys.read);
      expect((await rest(onCandidate)).json, cache).toMatchObject({ version: 2, labels: ["production", "qa"] });
      expect((await rest(onMain)).json, cache).toMatchObject({ version: 1, labels: ["production"] });
      const langfuse = (unit: string) => get(`/api/public/v2/prompts/${encodeURIComponent(w.name)}?label=production`, keys.read, { "x-promptly-unit": unit });
      expect((await langfuse(onCandidate)).json, cache).toMatchObject({ version: 2, labels: ["production", "qa", "latest"] });
      expect((await langfuse(onMain)).json, cache).toMatchObject({ version: 1, labels: ["production"] });
      const tool = async (unit: string) => toolJson(await callTool(mcp, "getPrompt", { name: w.name, label: "production", unit }));
      expect(await tool(onCandidate), cache).toMatchObject({ version: 2, labels: ["production", "qa"] });
      expect(await tool(onMain), cache).toMatchObject({ version: 1, labels: ["production"] });
    }
    // Fetched by its number or another label, the candidate still serves production's fetches: the same labels.
    expect((await get(`/api/v1/prompts/${w.name}?version=2`, keys.read)).json).toMatchObject({ version: 2, labels: ["production", "qa"] });
    expect((await get(`/api/v1/prompts/${w.name}?label=qa`, keys.read)).json).toMatchObject({ version: 2, labels: ["production", "qa"] });
  });
});

describe("deleting one of a split's versions leaves the label on the other", () => {
  const staging = async (promptId: string) =>
    h.database.db.promptLabel.findUnique({ where: { promptId_name: { promptId, name: "staging" } }, select: { version: true, candidateVersion: true, candidateWeight: true } });

  it.each([
    ["its own version, by number", "version=2", 3],
    ["its own version, by the label", "label=staging", 3],
    ["its candidate", "version=3", 2],
  ])("%s (the Langfuse API's delete): the label points at the version left alone, audited as a move", async (_, which, left) => {
    // Production on v1, staging on v2 split onto v3.
    const w = await splitPrompt(["Version one", "Version two", "Version three"]);
    await admin.promptLabels.endSplit({ promptId: w.id, label: "production", outcome: "rollback" });
    await admin.promptLabels.set({ promptId: w.id, label: "staging", version: 2 });
    await admin.promptLabels.split({ promptId: w.id, label: "staging", version: 3, weight: 50 });
    const deleted = await fetch(`${server.base}/api/public/v2/prompts/${encodeURIComponent(w.name)}?${which}`, { method: "DELETE", headers: { authorization: `Bearer ${keys.deleter}` } });
    expect(deleted.status).toBe(204);

    expect(await staging(w.id)).toEqual({ version: left, candidateVersion: null, candidateWeight: null });
    for (let i = 0; i < 10; i++) {
      expect((await get(`/api/v1/prompts/${w.name}?label=staging&unit=unit-${i}`, keys.read)).json).toMatchObject({ version: left, labels: ["staging"] });
    }
    // What the delete recorded (its events share its moment): no label removed, staging moved.
    const events = await h.database.db.auditEvent.findMany({ where: { promptId: w.id }, orderBy: { createdAt: "asc" }, select: { action: true, before: true, after: true, createdAt: true } });
    const last = events.at(-1)!.createdAt.getTime();
    expect(events.filter((event) => event.createdAt.getTime() === last).map(({ createdAt: _, ...event }) => event).sort((a, b) => a.action.localeCompare(b.action))).toEqual([
      { action: "prompt.label.set", before: { label: "staging", version: 2, split: { version: 3, weight: 50 } }, after: { label: "staging", version: left } },
      { action: "prompt.version.delete", before: { versions: [5 - left], labels: [] }, after: null },
    ]);
  });
});
