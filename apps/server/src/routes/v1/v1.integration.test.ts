// REST /api/v1 over HTTP against a real database: every kind of key against every endpoint
// (each refusal with its status and message, and nothing changed), the happy paths, ETag/304, names
// with '/', compile errors and the per-key rate limit.
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_MSG, RUNTIME_MSG, runtimeCompiled, runtimeError, runtimePrompt, runtimePromptPage } from "@promptly/shared";
import {
  RECONCILE_TOLERANCE, appProcess, createAccount, createHarness, createOrganization, createTeam, withClockAhead, type AppProcess, type Harness,
} from "@promptly/api/testing";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

let h: Harness;
/** The app runs as a process does: its runtime cache on and listening, so every case here also holds when served from memory. */
let app: AppProcess;
let server: TestServer;
let base: string;
let admin: Awaited<ReturnType<Harness["signedInClient"]>>["api"];
let teamId: string;
let otherTeamId: string;

const keys: Record<string, string> = {};
/** support/reply: v1 (production), v2 (staging, latest). */
let replyId: string;

beforeAll(async () => {
  h = await createHarness();
  app = appProcess(h);
  server = await listenForTests(createApp({ services: app.services }));
  base = server.base;
  const person = await createAccount(h, { fullName: "Ada Admin" });
  const organization = await createOrganization(h, [{ userId: person.id, role: "member" }], "Acme");
  teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
  otherTeamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Other")).id;
  admin = (await h.signedInClient(person.id)).api;

  const reply = await admin.prompts.create({
    teamId, name: "support/reply", title: "Support reply", visibility: "team", type: "text", tags: ["support"],
    template: "Hello {{ customer }}, about {{ topic }}", model: "gpt-x", config: { temperature: 0.2 },
    variables: [{ name: "customer", type: "string" }, { name: "topic", type: "enum", options: ["billing", "shipping"] }],
  });
  replyId = reply.id;
  await admin.promptVersions.create({
    promptId: reply.id, template: "Hi {{ customer }}, on {{ topic }}",
    variables: [{ name: "customer", type: "string" }, { name: "topic", type: "enum", options: ["billing", "shipping"] }],
  });
  await admin.promptLabels.set({ promptId: reply.id, label: "production", version: 1 });
  await admin.promptLabels.set({ promptId: reply.id, label: "staging", version: 2 });
  const chat = await admin.prompts.create({
    teamId, name: "greeter", title: "Greeter", visibility: "organization", type: "chat",
    messages: [{ role: "system", content: "Greet {{ name }}" }, { role: "user", content: "Hi" }],
  });
  await admin.promptLabels.set({ promptId: chat.id, label: "production", version: 1 });
  await admin.prompts.create({ teamId, name: "mine", title: "Private draft", visibility: "private", type: "text", template: "secret" });
  const archived = await admin.prompts.create({ teamId, name: "old", title: "Old", visibility: "team", type: "text", template: "old" });
  await admin.promptLabels.set({ promptId: archived.id, label: "production", version: 1 });
  await admin.prompts.archive({ id: archived.id });
  await admin.prompts.create({ teamId: otherTeamId, name: "support/reply", title: "Theirs", visibility: "team", type: "text", template: "theirs" });

  const create = async (name: string, settings: { teamId?: string; labels?: string[]; scopes?: ("read" | "write")[] } = {}) =>
    (keys[name] = (await admin.apiKeys.create({ teamId: settings.teamId ?? teamId, name, labels: settings.labels, scopes: settings.scopes })).key);
  await create("read");
  await create("write", { scopes: ["write"] });
  await create("production", { labels: ["production"] });
  await create("other", { teamId: otherTeamId, scopes: ["write"] });
  const revoked = await admin.apiKeys.create({ teamId, name: "revoked", scopes: ["write"] });
  await admin.apiKeys.revoke({ id: revoked.id });
  keys["revoked"] = revoked.key;
  const expired = await admin.apiKeys.create({ teamId, name: "expired", scopes: ["write"], expiresInDays: 1 });
  await h.database.db.apiKey.update({ where: { id: expired.id }, data: { expiresAt: new Date(h.clock.now().getTime() - 1000) } });
  keys["expired"] = expired.key;
});
afterAll(async () => {
  await server.close();
  await app.close();
  await h.close();
});

type Call = { method?: string; path: string; body?: unknown; key?: string | null; headers?: Record<string, string> };

async function call({ method = "GET", path, body, key, headers = {} }: Call) {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? (JSON.parse(text) as Record<string, any>) : null };
}

/** The library's rows, to show a refused call changed nothing. */
async function libraryState() {
  const db = h.database.db;
  return {
    prompts: await db.prompt.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true, latestVersion: true, updatedAt: true, archivedAt: true } }),
    versions: await db.promptVersion.count(),
    labels: await db.promptLabel.findMany({ orderBy: [{ promptId: "asc" }, { name: "asc" }], select: { promptId: true, name: true, version: true } }),
  };
}

const validVersion = { template: "New {{ customer }}", variables: [{ name: "customer", type: "string" }] };
const newPrompt = (name: string) => ({ name, title: "New", visibility: "team", type: "text", template: "Hello {{ who }}" });

/** Every endpoint, as a request a key may make. */
const ENDPOINTS: Record<string, Omit<Call, "key">> = {
  get: { path: "/prompts/support/reply" },
  getStaging: { path: "/prompts/support/reply?label=staging" },
  getVersion: { path: "/prompts/support/reply?version=2" },
  compile: { method: "POST", path: "/prompts/support/reply/compile", body: { variables: { customer: "Ann", topic: "billing" } } },
  list: { path: "/prompts" },
  create: { method: "POST", path: "/prompts", body: newPrompt("refused/new") },
  version: { method: "POST", path: "/prompts/support/reply/versions", body: validVersion },
  label: { method: "PUT", path: "/prompts/support/reply/labels/staging", body: { version: 1 } },
  production: { method: "PUT", path: "/prompts/support/reply/labels/production", body: { version: 2 } },
};

const BAD_KEYS: [string, () => string | null, string][] = [
  ["no key", () => null, RUNTIME_MSG.missingKey],
  ["a malformed key", () => "promptly_short", RUNTIME_MSG.malformedKey],
  ["an unknown key", () => `promptly_${"A".repeat(43)}`, RUNTIME_MSG.unknownKey],
  ["a revoked key", () => keys["revoked"]!, API_KEY_MSG.revokedKey],
  ["an expired key", () => keys["expired"]!, API_KEY_MSG.expiredKey],
];

describe("refusals: keys × endpoints, each with its status and message, nothing changed", () => {
  for (const [kind, key, message] of BAD_KEYS) {
    it.each(Object.keys(ENDPOINTS))(`${kind}: %s answers 401`, async (endpoint) => {
      const before = await libraryState();
      const answer = await call({ ...ENDPOINTS[endpoint]!, key: key() });
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual({ error: { code: "UNAUTHORIZED", message } });
      expect(runtimeError.safeParse(answer.json).success).toBe(true);
      expect(await libraryState()).toEqual(before);
    });
  }

  it("a header that is not 'Bearer <key>' is 401 and says how to send the key", async () => {
    const answer = await call({ path: "/prompts", headers: { authorization: `Basic ${keys["read"]}` } });
    expect(answer).toMatchObject({ status: 401, json: { error: { code: "UNAUTHORIZED", message: RUNTIME_MSG.malformedHeader } } });
  });

  // Another team's key: the prompts of this team do not exist for it (its own support/reply is another prompt).
  it.each([
    ["get", 404, "Prompt not found: 'greeter' with label 'production'", { path: "/prompts/greeter" }],
    ["compile", 404, "Prompt not found: 'greeter' with label 'production'", { method: "POST", path: "/prompts/greeter/compile", body: { variables: { name: "x" } } }],
    ["version", 404, "Prompt not found: 'greeter'", { method: "POST", path: "/prompts/greeter/versions", body: validVersion }],
    ["label", 404, "Prompt not found: 'greeter'", { method: "PUT", path: "/prompts/greeter/labels/staging", body: { version: 1 } }],
  ] as const)("another team's key: %s answers %i", async (_name, status, message, request) => {
    const before = await libraryState();
    const answer = await call({ ...request, key: keys["other"] });
    expect(answer).toMatchObject({ status, json: { error: { code: "NOT_FOUND", message } } });
    expect(await libraryState()).toEqual(before);
  });

  it("another team's key lists and fetches only its own team's prompts", async () => {
    const list = await call({ path: "/prompts", key: keys["other"] });
    expect(list.json!["items"].map((item: { title: string }) => item.title)).toEqual(["Theirs"]);
    const own = await call({ path: "/prompts/support/reply?label=latest", key: keys["other"] });
    expect(own.json).toMatchObject({ title: "Theirs", template: "theirs" });
  });

  it.each([
    ["staging", { path: "/prompts/support/reply?label=staging" }],
    ["latest", { path: "/prompts/support/reply?label=latest" }],
    ["a version", { path: "/prompts/support/reply?version=1" }],
    ["a version to compile", { method: "POST", path: "/prompts/support/reply/compile", body: { version: 1, variables: {} } }],
    ["staging to compile", { method: "POST", path: "/prompts/support/reply/compile", body: { label: "staging", variables: {} } }],
  ] as const)("a key bound to production asking for %s: 403 naming the allowed labels", async (_name, request) => {
    const answer = await call({ ...request, key: keys["production"] });
    expect(answer).toMatchObject({ status: 403, json: { error: { code: "FORBIDDEN", message: "This API key may only fetch the labels: production" } } });
  });

  it("a key bound to production fetches production", async () => {
    const answer = await call({ path: "/prompts/support/reply", key: keys["production"] });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ version: 1 });
  });

  it.each(["create", "version", "label", "production"])("a read-only key asking to write (%s): 403, nothing changed", async (endpoint) => {
    const before = await libraryState();
    const answer = await call({ ...ENDPOINTS[endpoint]!, key: keys["read"] });
    expect(answer).toMatchObject({ status: 403, json: { error: { code: "FORBIDDEN", message: RUNTIME_MSG.readOnlyKey } } });
    expect(await libraryState()).toEqual(before);
  });

  it("a write key never moves production: 403, nothing changed", async () => {
    const before = await libraryState();
    const answer = await call({ ...ENDPOINTS["production"]!, key: keys["write"] });
    expect(answer).toMatchObject({ status: 403, json: { error: { code: "FORBIDDEN", message: RUNTIME_MSG.protectedLabel } } });
    expect(await libraryState()).toEqual(before);
  });

  it("private and archived prompts do not exist for a key", async () => {
    for (const name of ["mine", "old"]) {
      const answer = await call({ path: `/prompts/${name}?label=latest`, key: keys["read"] });
      expect(answer).toMatchObject({ status: 404, json: { error: { code: "NOT_FOUND", message: `Prompt not found: '${name}' with label 'latest'` } } });
    }
    const before = await libraryState();
    expect((await call({ method: "POST", path: "/prompts/old/versions", body: validVersion, key: keys["write"] })).status).toBe(404);
    expect((await call({ method: "POST", path: "/prompts/mine/versions", body: validVersion, key: keys["write"] })).status).toBe(404);
    expect(await libraryState()).toEqual(before);
  });
});

describe("GET /api/v1/prompts/{name}", () => {
  it("answers production by default, with the version's labels, ETag and private, no-cache", async () => {
    const answer = await call({ path: "/prompts/support/reply", key: keys["read"] });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      name: "support/reply", title: "Support reply", version: 1, type: "text", template: "Hello {{ customer }}, about {{ topic }}",
      variables: [{ name: "customer", type: "string" }, { name: "topic", type: "enum", options: ["billing", "shipping"] }],
      placeholders: [], model: "gpt-x", config: { temperature: 0.2 }, tools: [], responseFormat: null, labels: ["production"], tags: ["support"],
      updatedAt: expect.any(String), resolutionGraph: null,
    });
    expect(runtimePrompt.safeParse(answer.json).success).toBe(true);
    expect(answer.headers.get("cache-control")).toBe("private, no-cache");
    expect(answer.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  it("answers a label, latest or a version; a chat prompt has messages and no template", async () => {
    expect((await call({ path: "/prompts/support/reply?label=staging", key: keys["read"] })).json).toMatchObject({ version: 2, labels: ["staging"] });
    expect((await call({ path: "/prompts/support/reply?label=latest", key: keys["read"] })).json).toMatchObject({ version: 2 });
    expect((await call({ path: "/prompts/support/reply?version=1", key: keys["read"] })).json).toMatchObject({ version: 1 });
    const chat = await call({ path: "/prompts/greeter", key: keys["read"] });
    expect(chat.json).toMatchObject({ type: "chat", messages: [{ role: "system", content: "Greet {{ name }}" }, { role: "user", content: "Hi" }] });
    expect(chat.json).not.toHaveProperty("template");
  });

  it("answers the contract in force: a version saved without one has each variable of its template as a required string", async () => {
    const greeter = await h.database.db.prompt.findFirstOrThrow({ where: { teamId, name: "greeter" }, select: { versions: { select: { variables: true } } } });
    expect(greeter.versions).toEqual([{ variables: [] }]);
    const answer = await call({ path: "/prompts/greeter", key: keys["read"] });
    expect(answer.json!["variables"]).toEqual([{ name: "name", type: "string", required: true }]);
    expect(runtimePrompt.safeParse(answer.json).success).toBe(true);
    // The contract compile checks: without a value for it, compile names it.
    const compiled = await call({ method: "POST", path: "/prompts/greeter/compile", body: { variables: {} }, key: keys["read"] });
    expect(compiled.json!["error"]["details"]).toEqual([{ variable: "name", message: "is required" }]);
  });

  it("takes a name with '/' plain or encoded", async () => {
    const plain = await call({ path: "/prompts/support/reply", key: keys["read"] });
    const encoded = await call({ path: "/prompts/support%2Freply", key: keys["read"] });
    expect(encoded.status).toBe(200);
    expect(encoded.json).toEqual(plain.json);
    expect(encoded.headers.get("etag")).toBe(plain.headers.get("etag"));
  });

  it("If-None-Match with the ETag: 304 without a body; a changed answer gets a new ETag", async () => {
    const first = await call({ path: "/prompts/support/reply?label=staging", key: keys["read"] });
    const etag = first.headers.get("etag")!;
    const again = await call({ path: "/prompts/support/reply?label=staging", key: keys["read"], headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.json).toBeNull();
    expect(again.headers.get("etag")).toBe(etag);
    const other = await call({ path: "/prompts/support/reply?version=1", key: keys["read"], headers: { "if-none-match": etag } });
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).not.toBe(etag);
  });

  it.each([
    ["a missing label", "/prompts/support/reply?label=qa", "Prompt not found: 'support/reply' with label 'qa'"],
    ["a missing version", "/prompts/support/reply?version=9", "Prompt not found: 'support/reply' with version 9"],
    ["a missing prompt", "/prompts/nope", "Prompt not found: 'nope' with label 'production'"],
    ["a name no prompt can have", "/prompts/Bad%00Name", "Prompt not found: 'Bad\u0000Name' with label 'production'"],
  ])("%s: 404 naming what was asked for", async (_name, path, message) => {
    expect(await call({ path, key: keys["read"] })).toMatchObject({ status: 404, json: { error: { code: "NOT_FOUND", message } } });
  });

  it("both a label and a version, or an invalid one: 400 with details", async () => {
    const both = await call({ path: "/prompts/support/reply?label=staging&version=1", key: keys["read"] });
    expect(both.status).toBe(400);
    expect(both.json!["error"]).toMatchObject({ code: "BAD_REQUEST", details: [{ message: "Choose a version or a label, not both" }] });
    expect((await call({ path: "/prompts/support/reply?version=zero", key: keys["read"] })).status).toBe(400);
    expect((await call({ path: "/prompts/support/reply?label=Bad%20Label", key: keys["read"] })).status).toBe(400);
  });
});

describe("POST /api/v1/prompts/{name}/compile", () => {
  it("fills a text prompt; a chat prompt answers messages", async () => {
    const text = await call({ ...ENDPOINTS["compile"]!, key: keys["read"] });
    expect(text).toMatchObject({ status: 200, json: { version: 1, text: "Hello Ann, about billing" } });
    expect(runtimeCompiled.safeParse(text.json).success).toBe(true);
    const chat = await call({ method: "POST", path: "/prompts/greeter/compile", body: { variables: { name: "Bo" } }, key: keys["read"] });
    expect(chat.json).toEqual({ version: 1, messages: [{ role: "system", content: "Greet Bo" }, { role: "user", content: "Hi" }] });
  });

  it("lists every contract problem at once in a 400", async () => {
    const answer = await call({ method: "POST", path: "/prompts/support%2Freply/compile", body: { label: "staging", variables: { topic: "refunds" } }, key: keys["read"] });
    expect(answer.status).toBe(400);
    expect(answer.json!["error"]["code"]).toBe("BAD_REQUEST");
    expect(answer.json!["error"]["message"]).toMatch(/^The variables do not meet the prompt's contract: /);
    expect(answer.json!["error"]["details"].map((d: { variable: string }) => d.variable)).toEqual(["customer", "topic"]);
  });

  it("a body that is not JSON, or both label and version: 400", async () => {
    const notJson = await fetch(`${base}/api/v1/prompts/greeter/compile`, {
      method: "POST", headers: { authorization: `Bearer ${keys["read"]}`, "content-type": "application/json" }, body: "{",
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: { code: "BAD_REQUEST", message: "The request body is not valid JSON" } });
    expect((await call({ method: "POST", path: "/prompts/greeter/compile", body: { label: "production", version: 1, variables: {} }, key: keys["read"] })).status).toBe(400);
  });
});

describe("GET /api/v1/prompts", () => {
  it("lists the team's prompts that are not private or archived, by name", async () => {
    const answer = await call({ path: "/prompts", key: keys["read"] });
    expect(answer.status).toBe(200);
    expect(runtimePromptPage.safeParse(answer.json).success).toBe(true);
    expect(answer.json!["items"].map((item: { name: string }) => item.name)).toEqual(["greeter", "support/reply"]);
    expect(answer.json!["items"][1]).toEqual({
      name: "support/reply", title: "Support reply", latestVersion: 2, tags: ["support"], updatedAt: expect.any(String),
      labels: [{ name: "production", version: 1 }, { name: "staging", version: 2 }],
    });
    expect(answer.json!["nextCursor"]).toBeNull();
  });

  it("filters by folder, tag and search", async () => {
    const names = async (query: string) => (await call({ path: `/prompts?${query}`, key: keys["read"] })).json!["items"].map((item: { name: string }) => item.name);
    expect(await names("folder=support")).toEqual(["support/reply"]);
    expect(await names("tag=support")).toEqual(["support/reply"]);
    expect(await names("q=greet")).toEqual(["greeter"]);
    expect((await call({ path: "/prompts?cursor=garbage", key: keys["read"] })).status).toBe(400);
    const forged = Buffer.from(JSON.stringify(["a\u0000b", "00000000-0000-4000-8000-000000000000"])).toString("base64url");
    expect((await call({ path: `/prompts?cursor=${forged}`, key: keys["read"] })).json).toEqual({
      error: { code: "BAD_REQUEST", message: "The list has changed or the cursor is invalid: start from the first page", reason: "INVALID_CURSOR" },
    });
  });

  it("pages by name with a cursor", async () => {
    const db = h.database.db;
    const team = await db.team.findUniqueOrThrow({ where: { id: otherTeamId }, select: { organizationId: true } });
    for (let i = 0; i < 55; i++) {
      await db.prompt.create({
        data: {
          organizationId: team.organizationId, teamId: otherTeamId, name: `bulk/p${String(i).padStart(2, "0")}`, title: `Bulk ${i}`, visibility: "team", latestVersion: 1,
          versions: { create: { version: 1, type: "text", template: "x" } },
        },
      });
    }
    const first = await call({ path: "/prompts?folder=bulk", key: keys["other"] });
    expect(first.json!["items"]).toHaveLength(50);
    const second = await call({ path: `/prompts?folder=bulk&cursor=${first.json!["nextCursor"]}`, key: keys["other"] });
    expect(second.json!["items"].map((item: { name: string }) => item.name)).toEqual(["bulk/p50", "bulk/p51", "bulk/p52", "bulk/p53", "bulk/p54"]);
    expect(second.json!["nextCursor"]).toBeNull();
  });
});

describe("writes with the write scope", () => {
  it("creates a prompt without an author; a name taken is 409; private is refused", async () => {
    const created = await call({ method: "POST", path: "/prompts", body: newPrompt("tools/new"), key: keys["write"] });
    expect(created).toMatchObject({ status: 201, json: { name: "tools/new", version: 1 } });
    const row = await h.database.db.prompt.findUniqueOrThrow({ where: { teamId_name: { teamId, name: "tools/new" } }, include: { versions: true } });
    expect(row.authorId).toBeNull();
    expect(row.versions[0]?.authorId).toBeNull();
    const again = await call({ method: "POST", path: "/prompts", body: newPrompt("tools/new"), key: keys["write"] });
    expect(again).toMatchObject({ status: 409, json: { error: { code: "CONFLICT", message: "A prompt with this name already exists in this team" } } });
    const before = await libraryState();
    const privately = await call({ method: "POST", path: "/prompts", body: { ...newPrompt("tools/private"), visibility: "private" }, key: keys["write"] });
    expect(privately).toMatchObject({ status: 400, json: { error: { message: RUNTIME_MSG.privateByKey } } });
    const invalid = await call({ method: "POST", path: "/prompts", body: { name: "Bad Name", title: "", visibility: "team", type: "text", template: "{{ x" }, key: keys["write"] });
    expect(invalid.status).toBe(400);
    expect(invalid.json!["error"]["details"].map((d: { path: string }) => d.path).sort()).toEqual(["name", "template", "title"]);
    expect(await libraryState()).toEqual(before);
  });

  it("saves a version and moves a label other than production", async () => {
    const version = await call({ method: "POST", path: "/prompts/support%2Freply/versions", body: validVersion, key: keys["write"] });
    expect(version).toMatchObject({ status: 201, json: { name: "support/reply", version: 3 } });
    const label = await call({ method: "PUT", path: "/prompts/support/reply/labels/staging", body: { version: 3 }, key: keys["write"] });
    expect(label).toMatchObject({ status: 200, json: { name: "support/reply", label: "staging", version: 3 } });
    const moved = await h.database.db.promptLabel.findUniqueOrThrow({ where: { promptId_name: { promptId: replyId, name: "staging" } } });
    expect(moved).toMatchObject({ version: 3, movedById: null });
    expect((await call({ path: "/prompts/support/reply?label=staging", key: keys["read"] })).json).toMatchObject({ version: 3, template: "New {{ customer }}" });
    expect((await call({ method: "PUT", path: "/prompts/support/reply/labels/staging", body: { version: 99 }, key: keys["write"] })).status).toBe(404);
    expect((await call({ method: "PUT", path: "/prompts/support/reply/labels/latest", body: { version: 1 }, key: keys["write"] })).status).toBe(400);
  });
});

/** Well-formed keys that begin like no stored key: surely unknown, and known to be so without a lookup. */
async function guesses() {
  const taken = new Set((await h.database.db.apiKey.findMany({ select: { prefix: true } })).map((key) => key.prefix));
  const prefix = ["zzz", "zzy", "zzx", "zzw"].map((start) => `promptly_${start}`).find((start) => !taken.has(start))!;
  return (i: number) => `${prefix}${String(i).padStart(40, "0")}`;
}

describe("the per-key rate limit", () => {
  it("answers 429 with Retry-After past the limit, per key", async () => {
    const limited = await listenForTests(
      createApp({ services: { ...h.services, config: { ...h.services.config, rateLimits: true } }, apiRateLimitPerMinute: 3 }),
    );
    try {
      const get = (key: string) => fetch(`${limited.base}/api/v1/prompts`, { headers: { authorization: `Bearer ${key}` } });
      for (let i = 0; i < 3; i++) expect((await get(keys["read"]!)).status).toBe(200);
      const refused = await get(keys["read"]!);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
      expect(await refused.json()).toEqual({ error: { code: "TOO_MANY_REQUESTS", message: RUNTIME_MSG.rateLimited } });
      // Another key has its own budget.
      expect((await get(keys["write"]!)).status).toBe(200);
      expect((await withClockAhead(61_000, () => get(keys["read"]!))).status).toBe(200);
    } finally {
      await h.services.rateLimits.reset();
      await limited.close();
    }
  });
  it("a fetch served from memory makes no round trip: no query, and the key's count stays in process until its batch goes", async () => {
    // A process whose counts wait for their batch (no timer sends them during the test).
    const rateLimitKeyPrefix = `promptly-test:${randomBytes(4).toString("hex")}:`;
    const counting = appProcess(h, { rateLimitKeyPrefix, rateLimitReconcileMs: 600_000 });
    const limited = await listenForTests(
      createApp({ services: { ...counting.services, config: { ...counting.services.config, rateLimits: true } }, apiRateLimitPerMinute: 100_000 }),
    );
    try {
      const get = () => fetch(`${limited.base}/api/v1/prompts/support/reply`, { headers: { authorization: `Bearer ${keys["read"]}` } });
      // Once it listens and knows every key's prefix, the first fetch fills its cache.
      await expect.poll(() => counting.services.runtime.mayBeApiKey("promptly_x"), { timeout: 15_000 }).not.toBeNull();
      expect((await get()).status).toBe(200);
      await counting.services.rateLimits.reconcileAll();
      const { id } = await h.database.db.apiKey.findFirstOrThrow({ where: { teamId, name: "read" }, select: { id: true } });
      const stored = async () =>
        (await h.database.db.$queryRaw<{ points: number }[]>`SELECT points FROM rate_limits WHERE key = ${`${rateLimitKeyPrefix}api-key:${id}`}`)[0]?.points;
      const counted = await stored();
      expect(counted).toBe(1);
      const queries = counting.queries();
      for (let i = 0; i < 20; i++) expect((await get()).status).toBe(200);
      expect(counting.queries(), "no query").toBe(queries);
      expect(await stored(), "not counted in the store yet").toBe(counted);
      await counting.services.rateLimits.reconcileAll();
      expect(await stored()).toBe(counted! + 20);
    } finally {
      await limited.close();
      await counting.services.rateLimits.reset();
      await counting.close();
    }
  });
  it.each([
    ["PostgreSQL", () => ({ store: "postgres" as const, databaseUrl: h.database.url })],
    ["Redis", () => ({ store: "redis" as const, redisUrl: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379" })],
  ])("two app processes hammering one key over %s: together they get the limit, within the documented tolerance", async (_storeName, store) => {
    const limit = 300;
    const rateLimitKeyPrefix = `promptly-test:${randomBytes(4).toString("hex")}:`;
    const processes = [appProcess(h, { rateLimitStore: store(), rateLimitKeyPrefix }), appProcess(h, { rateLimitStore: store(), rateLimitKeyPrefix })];
    const servers = await Promise.all(processes.map((app) =>
      listenForTests(createApp({ services: { ...app.services, config: { ...app.services.config, rateLimits: true } }, apiRateLimitPerMinute: limit }))));
    // Both counting in the shared store, not yet in their own while a connection opens.
    await Promise.all(processes.map((app) => app.services.rateLimits.ready()));
    try {
      // Each process: 8 callers at once, 50 requests each (800 in all, well past the limit).
      const statuses = await Promise.all(servers.flatMap((server) => Array.from({ length: 8 }, async () => {
        const seen: number[] = [];
        for (let i = 0; i < 50; i++) {
          const response = await fetch(`${server.base}/api/v1/prompts/support/reply`, { headers: { authorization: `Bearer ${keys["production"]}` } });
          if (response.status === 429) expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
          await response.arrayBuffer();
          seen.push(response.status);
        }
        return seen;
      })));
      const all = statuses.flat();
      const allowed = all.filter((status) => status === 200).length;
      expect(all.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      expect(allowed).toBeGreaterThanOrEqual(limit);
      expect(allowed).toBeLessThanOrEqual(limit * (1 + RECONCILE_TOLERANCE * processes.length));
    } finally {
      for (const server of servers) await server.close();
      // Every process's unsent counts first, so the reset leaves nothing behind.
      await Promise.all(processes.map((app) => app.services.rateLimits.reconcileAll()));
      await processes[0]!.services.rateLimits.reset();
      for (const app of processes) await app.close();
    }
  });
  it("an address that keeps sending unknown keys gets 429 without a lookup, while a key the process knows keeps working", async () => {
    // The app as a process runs it (a runtime cache), so the key used first is one the process knows.
    const limited = await listenForTests(
      createApp({ services: { ...app.services, config: { ...app.services.config, rateLimits: true } }, apiRateLimitPerMinute: 1000 }),
    );
    try {
      const get = (key: string) => fetch(`${limited.base}/api/v1/prompts`, { headers: { authorization: `Bearer ${key}` } });
      const guess = await guesses();
      expect((await get(keys["read"]!)).status).toBe(200);
      // A revoked key is a real one, refused without counting as a guess.
      for (let i = 0; i < 40; i++) expect((await get(keys["revoked"]!)).status).toBe(401);
      for (let i = 0; i < 30; i++) expect((await get(guess(i))).status).toBe(401);
      const queries = app.queries();
      const refused = await get(guess(30));
      expect(refused.status).toBe(429);
      expect(app.queries(), "no lookup").toBe(queries);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await refused.json()).toEqual({ error: { code: "TOO_MANY_REQUESTS", message: RUNTIME_MSG.tooManyFailedKeys } });
      expect((await get("promptly_short")).status).toBe(429);
      // The same on /trpc, one budget for the address.
      const trpc = await fetch(`${limited.base}/trpc/auth.me`, { headers: { authorization: `Bearer ${guess(31)}` } });
      expect(trpc.status).toBe(429);
      expect((await get(keys["read"]!)).status).toBe(200);
      expect((await withClockAhead(61_000, () => get(guess(32)))).status).toBe(401);
    } finally {
      await app.services.rateLimits.reset();
      await limited.close();
    }
  });
  it("others' unknown keys from an address never lock out a valid key from it: not after a write drops the cache, not in a fresh process", async () => {
    const limited = (services: typeof app.services) =>
      listenForTests(createApp({ services: { ...services, config: { ...services.config, rateLimits: true } }, apiRateLimitPerMinute: 1000 }));
    const first = await limited(app.services);
    const fresh = appProcess(h);
    const second = await limited(fresh.services);
    const guess = await guesses();
    try {
      const v1 = (server: TestServer, key: string) => fetch(`${server.base}/api/v1/prompts`, { headers: { authorization: `Bearer ${key}` } });
      const trpc = (server: TestServer, key: string) =>
        fetch(`${server.base}/trpc/teams.get?input=${encodeURIComponent(JSON.stringify({ json: { id: teamId } }))}`, { headers: { authorization: `Bearer ${key}` } });
      /** What the first process keeps of the valid key (the cache is keyed by the key's SHA-256). */
      const kept = () => app.services.runtime!.apiKey(createHash("sha256").update(keys["read"]!).digest("hex"));
      expect((await v1(first, keys["read"]!)).status).toBe(200);
      expect(kept()).toBeDefined();
      for (let i = 0; i <= 30; i++) await v1(first, guess(i));
      expect((await v1(first, guess(31))).status).toBe(429);
      // Any write to the key's team drops what the process kept of the key.
      await admin.promptLabels.set({ promptId: replyId, label: "canary", version: 1 });
      await expect.poll(kept).toBeUndefined();
      expect((await v1(first, keys["read"]!)).status).toBe(200);
      expect((await trpc(first, keys["read"]!)).status).toBe(200);
      // Another process, which never saw the key, with the same counters for the address.
      expect((await v1(second, guess(32))).status).toBe(429);
      expect((await v1(second, keys["read"]!)).status).toBe(200);
      expect((await trpc(second, keys["read"]!)).status).toBe(200);
      // A key created meanwhile is announced to every process (as soon as the notification arrives).
      const created = await admin.apiKeys.create({ teamId, name: "created while limited" });
      await expect.poll(async () => (await v1(first, created.key)).status).toBe(200);
      await expect.poll(async () => (await v1(second, created.key)).status).toBe(200);
      expect((await v1(first, guess(33))).status).toBe(429);
    } finally {
      await app.services.rateLimits.reset();
      await first.close();
      await second.close();
      await fresh.close();
    }
  });
});
