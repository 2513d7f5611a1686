// The Langfuse SDKs, unchanged: the
// official `langfuse` v3 client and `@langfuse/client` v5, given only the base URL and a Promptly key
// pair, against the real server and database: they get a text and a chat prompt by label and by
// version, compile them with their own compile, fall back when the name is unknown, create versions,
// move a label and list prompts. Then the raw HTTP API, against what Langfuse's own server test
// (web/src/__tests__/async/prompts.v2.servertest.ts) asserts where Promptly's rules are the same, and
// Promptly's answer where they differ (a key never moves production nor deletes, a key sees only its
// team, names keep Promptly's rule).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Router } from "express";
import { Langfuse } from "langfuse";
import { LangfuseClient } from "@langfuse/client";
import type { AppProcess } from "@promptly/api/testing";
import { LANGFUSE_MSG, PLACEHOLDER_MSG, PROMPT_MSG, RUNTIME_MSG } from "@promptly/shared";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";
import { basicAuth as basic, langfuseCaller, startKeyServer, type KeyServer, type Pair } from "../../../test/key-server.ts";
import { routePattern } from "../v1/operations.ts";
import { LANGFUSE_OPERATIONS } from "./operations.ts";
import { langfuseRouter } from "./router.ts";

let ks: KeyServer;
let app: AppProcess;
let server: TestServer;
let teamId: string;
let organizationId: string;
let call: ReturnType<typeof langfuseCaller>;
const keys = {} as Record<"read" | "write" | "other" | "bound", Pair>;
const v3Clients: Langfuse[] = [];

const v3 = (pair: Pair) => {
  const client = new Langfuse({ ...pair, baseUrl: server.base });
  v3Clients.push(client);
  return client;
};
const v5 = (pair: Pair) => new LangfuseClient({ ...pair, baseUrl: server.base });

beforeAll(async () => {
  ks = await startKeyServer();
  ({ app, server, organizationId } = ks);
  call = langfuseCaller(server, () => keys.read);
  teamId = await ks.team("Core");
  const otherTeamId = await ks.team("Other");
  const admin = ks.admin;

  const reply = await admin.prompts.create({
    teamId, name: "support/reply", title: "Support reply", visibility: "team", type: "text", template: "Hello {{ customer }}, about order {{ order }}", tags: ["support"],
    config: { temperature: 0.3 }, commitMessage: "First words",
  });
  await admin.promptLabels.set({ promptId: reply.id, label: "production", version: 1 });
  await admin.promptVersions.create({ promptId: reply.id, template: "Hi {{customer}}, order {{order}} is on its way" });
  await admin.promptLabels.set({ promptId: reply.id, label: "staging", version: 2 });
  const triage = await admin.prompts.create({
    teamId, name: "triage", title: "Triage", visibility: "team", type: "chat",
    messages: [{ role: "system", content: "You sort {{ topic }} tickets." }, { role: "user", content: "Sort this one." }],
  });
  await admin.promptLabels.set({ promptId: triage.id, label: "production", version: 1 });
  // The admin's own private prompt: a person's, never a key's.
  await admin.prompts.create({ teamId, name: "mine", title: "Mine", visibility: "private", type: "text", template: "Private" });
  const theirs = await admin.prompts.create({ teamId: otherTeamId, name: "theirs", title: "Theirs", visibility: "team", type: "text", template: "Secret" });
  await admin.promptLabels.set({ promptId: theirs.id, label: "production", version: 1 });

  const pair = ({ key, publicKey }: { key: string; publicKey: string }): Pair => ({ publicKey, secretKey: key });
  keys.read = pair(await admin.apiKeys.create({ teamId, name: "read" }));
  keys.write = pair(await admin.apiKeys.create({ teamId, name: "write", scopes: ["write"] }));
  keys.other = pair(await admin.apiKeys.create({ teamId: otherTeamId, name: "other", scopes: ["write"] }));
  keys.bound = pair(await admin.apiKeys.create({ teamId, name: "bound", labels: ["production"] }));
});
afterAll(async () => {
  await Promise.all(v3Clients.map((client) => client.shutdownAsync()));
  await ks.close();
});

describe("the official langfuse v3 client, unchanged", () => {
  it("gets a text prompt by label (production by default) and by version, and compiles it with its own compile", async () => {
    const langfuse = v3(keys.read);
    const production = await langfuse.getPrompt("support/reply");
    expect(production.isFallback).toBe(false);
    expect(production).toMatchObject({ name: "support/reply", version: 1, labels: ["production"], tags: ["support"], config: { temperature: 0.3 }, commitMessage: "First words" });
    expect(production.compile({ customer: "Ada", order: "42" })).toBe("Hello Ada, about order 42");

    const second = await langfuse.getPrompt("support/reply", 2);
    // `latest` is on the newest version, kept there by Promptly.
    expect(second.labels).toEqual(["staging", "latest"]);
    expect(second.compile({ customer: "Ada", order: "42" })).toBe("Hi Ada, order 42 is on its way");
    expect((await langfuse.getPrompt("support/reply", undefined, { label: "staging" })).version).toBe(2);
    expect((await langfuse.getPrompt("support/reply", undefined, { label: "latest" })).version).toBe(2);
  });

  it("gets a chat prompt by label and by version and compiles its messages", async () => {
    const langfuse = v3(keys.read);
    for (const prompt of [await langfuse.getPrompt("triage", undefined, { type: "chat" }), await langfuse.getPrompt("triage", 1, { type: "chat" })]) {
      expect(prompt.version).toBe(1);
      expect(prompt.labels).toEqual(["production", "latest"]);
      expect(prompt.compile({ topic: "billing" })).toEqual([
        { role: "system", content: "You sort billing tickets." },
        { role: "user", content: "Sort this one." },
      ]);
    }
  });

  it("falls back when the name is unknown, and the error it would throw is Promptly's 404 text", async () => {
    const langfuse = v3(keys.read);
    const fallback = await langfuse.getPrompt("no/such", undefined, { fallback: "Hi {{name}}" });
    expect(fallback.isFallback).toBe(true);
    expect(fallback.compile({ name: "Ada" })).toBe("Hi Ada");
    await expect(langfuse.getPrompt("no/such", undefined, { cacheTtlSeconds: 0 })).rejects.toThrow("Prompt not found: 'no/such' with label 'production'");
  });

  it("creates a prompt and its next version, moves a label, and reads it back", async () => {
    const langfuse = v3(keys.write);
    const created = await langfuse.createPrompt({ name: "sdk3/greeting", prompt: "Hey {{name}}", labels: ["staging"], tags: ["sdk"], config: { model: "x" } });
    expect(created).toMatchObject({ name: "sdk3/greeting", version: 1, labels: ["staging", "latest"], tags: ["sdk"], config: { model: "x" } });
    const chat = await langfuse.createPrompt({ name: "sdk3/chat", type: "chat", prompt: [{ role: "system", content: "Be {{mood}}" }], commitMessage: "start" });
    expect(chat.compile({ mood: "kind" })).toEqual([{ role: "system", content: "Be kind" }]);
    const next = await langfuse.createPrompt({ name: "sdk3/greeting", prompt: "Hello {{name}}!", labels: ["beta"] });
    expect(next.version).toBe(2);
    // The tags stay the prompt's when a version leaves them out.
    expect(next.tags).toEqual(["sdk"]);

    const moved = (await langfuse.updatePrompt({ name: "sdk3/greeting", version: 1, newLabels: ["beta"] })) as unknown as { labels: string[] };
    expect(moved.labels).toEqual(["beta", "staging"]);
    const beta = await langfuse.getPrompt("sdk3/greeting", undefined, { label: "beta", cacheTtlSeconds: 0 });
    expect(beta.version).toBe(1);
    expect(beta.compile({ name: "Ada" })).toBe("Hey Ada");
    expect((await langfuse.getPrompt("sdk3/greeting", 2)).labels).toEqual(["latest"]);
  });
});

describe("message placeholders, and tools and a response format in config, through the official SDKs, unchanged", () => {
  const written = [{ role: "system", content: "You help {{name}}." }, { type: "placeholder", name: "history" }, { role: "user", content: "{{question}}" }];
  const history = [
    { role: "user", content: "My order is late" },
    { role: "assistant", content: "Sorry to hear it" },
  ];
  const filled = [{ role: "system", content: "You help Ada." }, ...history, { role: "user", content: "Why?" }];
  const leftInPlace = [{ role: "system", content: "You help Ada." }, { type: "placeholder", name: "history" }, { role: "user", content: "Why?" }];
  // Tools and a response format as an OpenAI user keeps them in the prompt's config: they come back as written.
  const config = {
    temperature: 0.3,
    tools: [{ type: "function", function: { name: "lookup_order", description: "The order's status", parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } } }],
    response_format: { type: "json_schema", json_schema: { name: "answer", schema: { type: "object", properties: { reply: { type: "string" } }, required: ["reply"] }, strict: true } },
  };

  it("v3 creates a chat prompt with a placeholder, fetches it, and compiles it with the placeholder filled, or left in place; its tools and format come back in config", async () => {
    const langfuse = v3(keys.write);
    const created = await langfuse.createPrompt({ name: "sdk3/history", type: "chat", prompt: written as never, labels: ["staging"], config });
    expect(created.config).toEqual(config);
    expect(created.compile({ name: "Ada", question: "Why?" }, { history })).toEqual(filled);
    const fetched = await langfuse.getPrompt("sdk3/history", undefined, { type: "chat", label: "staging", cacheTtlSeconds: 0 });
    expect(fetched.version).toBe(1);
    expect(fetched.compile({ name: "Ada", question: "Why?" }, { history })).toEqual(filled);
    expect(fetched.compile({ name: "Ada", question: "Why?" })).toEqual(leftInPlace);
    expect(fetched.config).toEqual(config);
  });

  it("v5 creates a chat prompt with a placeholder, fetches it, and compiles it with the placeholder filled, or left in place; its tools and format come back in config", async () => {
    const langfuse = v5(keys.write);
    await langfuse.prompt.create({ name: "sdk5/history", type: "chat", prompt: written as never, labels: ["staging"], config });
    const fetched = await langfuse.prompt.get("sdk5/history", { type: "chat", label: "staging", cacheTtlSeconds: 0 });
    expect(fetched.version).toBe(1);
    expect(fetched.compile({ name: "Ada", question: "Why?" }, { history })).toEqual(filled);
    expect(fetched.compile({ name: "Ada", question: "Why?" })).toEqual(leftInPlace);
    // The raw answer carries the placeholder as Langfuse writes it.
    const raw = await call("GET", "/v2/prompts/sdk5%2Fhistory?label=staging");
    expect(raw.body.prompt).toEqual(written);
    expect(fetched.config).toEqual(config);
  });
});

describe("the official @langfuse/client v5, unchanged", () => {
  it("gets a text and a chat prompt by label and by version and compiles them", async () => {
    const langfuse = v5(keys.read);
    const text = await langfuse.prompt.get("support/reply", { label: "production" });
    expect(text).toMatchObject({ version: 1, labels: ["production"], isFallback: false });
    expect(text.compile({ customer: "Ada", order: "7" })).toBe("Hello Ada, about order 7");
    expect((await langfuse.prompt.get("support/reply", { version: 2 })).compile({ customer: "Bo", order: "8" })).toBe("Hi Bo, order 8 is on its way");
    const chat = await langfuse.prompt.get("triage", { type: "chat", version: 1 });
    expect(chat.compile({ topic: "refund" })).toEqual([
      { role: "system", content: "You sort refund tickets." },
      { role: "user", content: "Sort this one." },
    ]);
    expect((await langfuse.prompt.get("triage", { type: "chat", label: "production" })).version).toBe(1);
  });

  it("falls back when the name is unknown", async () => {
    const langfuse = v5(keys.read);
    const fallback = await langfuse.prompt.get("no/such/thing", { type: "chat", fallback: [{ role: "system", content: "Hi {{name}}" }] });
    expect(fallback.isFallback).toBe(true);
    expect(fallback.compile({ name: "Ada" })).toEqual([{ role: "system", content: "Hi Ada" }]);
  });

  it("creates a chat prompt and its next version, moves a label, and lists prompts with meta", async () => {
    const langfuse = v5(keys.write);
    const created = await langfuse.prompt.create({ name: "sdk5/chat", type: "chat", prompt: [{ role: "user", content: "Summarise {{text}}" }], labels: ["dev"] });
    expect(created).toMatchObject({ version: 1, labels: ["dev", "latest"] });
    const next = await langfuse.prompt.create({ name: "sdk5/chat", type: "chat", prompt: [{ role: "user", content: "Sum up {{text}}" }] });
    expect(next.version).toBe(2);
    const moved = await langfuse.prompt.update({ name: "sdk5/chat", version: 2, newLabels: ["dev"] });
    expect(moved.labels).toEqual(["dev", "latest"]);
    expect((await langfuse.prompt.get("sdk5/chat", { type: "chat", label: "dev", cacheTtlSeconds: 0 })).version).toBe(2);

    const listed = await langfuse.api.prompts.list({ name: "sdk5/chat" });
    expect(listed.data).toEqual([
      { name: "sdk5/chat", type: "chat", versions: [1, 2], labels: ["dev", "latest"], tags: [], lastUpdatedAt: expect.any(String), lastConfig: {} },
    ]);
    expect(listed.meta).toEqual({ page: 1, limit: 10, totalItems: 1, totalPages: 1 });
  });
});

describe("the HTTP API, as Langfuse's server test asserts it", () => {
  it("answers 401 without credentials, for a wrong pair, and for an unknown key; a Bearer key is taken as /api/v1 takes it", async () => {
    expect(await call("GET", "/v2/prompts", { auth: "" })).toEqual({ status: 401, body: { message: LANGFUSE_MSG.missingAuth, error: "UnauthorizedError" } });
    const wrongPair = await call("GET", "/v2/prompts", { pair: { publicKey: keys.write.publicKey, secretKey: keys.read.secretKey } });
    expect(wrongPair).toEqual({ status: 401, body: { message: LANGFUSE_MSG.keyPairMismatch, error: "UnauthorizedError" } });
    const unknown = await call("GET", "/v2/prompts", { pair: { publicKey: keys.read.publicKey, secretKey: `promptly_${"a".repeat(43)}` } });
    expect(unknown).toEqual({ status: 401, body: { message: RUNTIME_MSG.unknownKey, error: "UnauthorizedError" } });
    expect((await call("GET", "/v2/prompts", { auth: "Token abc" })).body.message).toBe(LANGFUSE_MSG.malformedAuth);
    expect((await call("GET", "/v2/prompts/triage", { auth: `Bearer ${keys.read.secretKey}` })).status).toBe(200);
  });

  it("answers a prompt with the fields the SDKs read; names arrive percent-encoded", async () => {
    const { status, body } = await call("GET", `/v2/prompts/${encodeURIComponent("support/reply")}?version=1`);
    expect(status).toBe(200);
    expect(body).toEqual({
      id: expect.any(String), name: "support/reply", version: 1, type: "text", prompt: "Hello {{ customer }}, about order {{ order }}",
      config: { temperature: 0.3 }, labels: ["production"], tags: ["support"], commitMessage: "First words", resolutionGraph: null,
      projectId: teamId, createdBy: expect.any(String), createdAt: expect.any(String), updatedAt: expect.any(String),
    });
  });

  it("refuses both a version and a label with 400, and answers an unknown prompt, version or label with 404 and its text", async () => {
    const both = await call("GET", "/v2/prompts/triage?version=1&label=production");
    expect(both).toEqual({ status: 400, body: { message: LANGFUSE_MSG.versionAndLabel, error: "InvalidRequestError" } });
    expect(await call("GET", "/v2/prompts/random_prompt")).toEqual({
      status: 404, body: { message: "Prompt not found: 'random_prompt' with label 'production'", error: "LangfuseNotFoundError" },
    });
    expect((await call("GET", "/v2/prompts/triage?version=9")).body.message).toBe("Prompt not found: 'triage' with version 9");
    expect((await call("GET", "/v2/prompts/triage?label=dev")).body.message).toBe("Prompt not found: 'triage' with label 'dev'");
    expect((await call("GET", "/v2/prompts/triage?label=Not%20Ours")).status).toBe(404);
    expect((await call("GET", "/v2/prompts/triage?label=a%00b")).status).toBe(400);
  });

  it("a key sees only its team: another team's prompt is 404, and not listed; a private prompt neither", async () => {
    expect((await call("GET", "/v2/prompts/theirs")).status).toBe(404);
    expect((await call("GET", "/v2/prompts/mine?version=1")).status).toBe(404);
    expect((await call("GET", "/v2/prompts/support%2Freply", { pair: keys.other })).status).toBe(404);
    const listed = await call("GET", "/v2/prompts?limit=100");
    const listedNames = (listed.body["data"] as { name: string }[]).map((prompt) => prompt.name);
    expect(listedNames).not.toContain("theirs");
    expect(listedNames).not.toContain("mine");
    expect((await call("GET", "/v2/prompts", { pair: keys.other })).body["data"]).toEqual([
      { name: "theirs", type: "text", versions: [1], labels: ["latest", "production"], tags: [], lastUpdatedAt: expect.any(String), lastConfig: {} },
    ]);
  });

  it("lists with Langfuse's filters and pages: data, meta and the legacy pagination", async () => {
    const page = await call("GET", "/v2/prompts?name=support%2Freply");
    expect(page.body["data"]).toEqual([
      { name: "support/reply", type: "text", versions: [1, 2], labels: ["latest", "production", "staging"], tags: ["support"], lastUpdatedAt: expect.any(String), lastConfig: {} },
    ]);
    // By label: only the versions carrying it, and their labels.
    const byLabel = await call("GET", "/v2/prompts?label=production&tag=support");
    expect(byLabel.body["data"]).toMatchObject([{ name: "support/reply", versions: [1], labels: ["production"], lastConfig: { temperature: 0.3 } }]);
    expect((await call("GET", "/v2/prompts?label=non-existent")).body["data"]).toEqual([]);
    expect((await call("GET", "/v2/prompts?name=support%2Freply&version=2")).body["data"]).toMatchObject([{ versions: [2], labels: ["latest", "staging"] }]);
    expect((await call("GET", "/v2/prompts?name=support%2Freply&label=latest")).body["data"]).toMatchObject([{ versions: [2] }]);

    const all = await call("GET", "/v2/prompts?limit=100");
    const names = (all.body["data"] as { name: string }[]).map((prompt) => prompt.name);
    expect(names).toEqual([...names].sort());
    const total = names.length;
    const second = await call("GET", "/v2/prompts?page=2&limit=1");
    const meta = { page: 2, limit: 1, totalItems: total, totalPages: total };
    expect(second.body).toMatchObject({ meta, pagination: meta });
    expect((second.body["data"] as { name: string }[]).map((prompt) => prompt.name)).toEqual([names[1]]);
    expect((await call("GET", "/v2/prompts?limit=0")).status).toBe(400);
    expect((await call("GET", "/v2/prompts?tag=a%00b")).status).toBe(400);
    // Versions saved in a time range (a Promptly version's save is its last update).
    expect((await call("GET", `/v2/prompts?fromUpdatedAt=${new Date(Date.now() + 3_600_000).toISOString()}`)).body["meta"]).toMatchObject({ totalItems: 0 });
  });

  it("refuses moving production by a key (403, nothing moves), and 'latest' by anyone (400)", async () => {
    const production = await call("PATCH", "/v2/prompts/support%2Freply/versions/2", { pair: keys.write, body: { newLabels: ["production"] } });
    expect(production).toEqual({ status: 403, body: { message: RUNTIME_MSG.protectedLabel, error: "ForbiddenError" } });
    expect((await call("GET", "/v2/prompts/support%2Freply")).body["version"]).toBe(1);
    const created = await call("POST", "/v2/prompts", { pair: keys.write, body: { name: "straight-to-prod", prompt: "x", labels: ["production"] } });
    expect(created).toEqual({ status: 403, body: { message: RUNTIME_MSG.protectedLabel, error: "ForbiddenError" } });
    expect((await call("GET", "/v2/prompts/straight-to-prod?version=1")).status).toBe(404);
    const latest = await call("PATCH", "/v2/prompts/triage/versions/1", { pair: keys.write, body: { newLabels: ["latest"] } });
    expect(latest).toEqual({ status: 400, body: { message: `'latest': ${PROMPT_MSG.labelLatest}`, error: "InvalidRequestError" } });
    expect((await call("PATCH", "/v2/prompts/non-existing-prompt/versions/1", { pair: keys.write, body: { newLabels: ["dev"] } })).status).toBe(404);
    // The runtime API refuses moving 'latest' in the same words.
    const rest = await fetch(`${server.base}/api/v1/prompts/triage/labels/latest`, {
      method: "PUT", headers: { authorization: `Bearer ${keys.write.secretKey}`, "content-type": "application/json" }, body: JSON.stringify({ version: 1 }),
    });
    expect(rest.status).toBe(400);
    expect(((await rest.json()) as { error: { message: string } }).error.message).toContain(PROMPT_MSG.labelLatest);
  });

  it("writes a version and its labels, or a version's new labels, in one transaction: a label that cannot be written leaves no prompt, no version and no other label", async () => {
    // The database refuses one label name, as a failure between the version and its labels would.
    await ks.h.services.db.$executeRawUnsafe(`CREATE FUNCTION test_refuse_label() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.name = 'refused-here' THEN RAISE EXCEPTION 'label refused by the test'; END IF; RETURN NEW; END $$`);
    await ks.h.services.db.$executeRawUnsafe(`CREATE TRIGGER test_refuse_label BEFORE INSERT OR UPDATE ON prompt_labels FOR EACH ROW EXECUTE FUNCTION test_refuse_label()`);
    try {
      const fresh = await call("POST", "/v2/prompts", { pair: keys.write, body: { name: "half-written", prompt: "x", labels: ["staging", "refused-here"] } });
      expect(fresh.status).toBe(500);
      expect((await call("GET", "/v2/prompts/half-written?version=1")).status).toBe(404);
      // The name is free: nothing of the prompt was kept.
      expect((await call("POST", "/v2/prompts", { pair: keys.write, body: { name: "half-written", prompt: "x", labels: ["staging"] } })).status).toBe(201);

      const next = await call("POST", "/v2/prompts", { pair: keys.write, body: { name: "half-written", prompt: "y", labels: ["canary", "refused-here"] } });
      expect(next.status).toBe(500);
      expect((await call("GET", "/v2/prompts/half-written?version=2")).status).toBe(404);
      expect((await call("GET", "/v2/prompts/half-written?label=canary")).status).toBe(404);
      expect((await call("GET", "/v2/prompts/half-written?label=staging")).body["version"]).toBe(1);

      // Labels moved onto a version: all of them, or none.
      const moved = await call("PATCH", "/v2/prompts/half-written/versions/1", { pair: keys.write, body: { newLabels: ["canary", "refused-here"] } });
      expect(moved.status).toBe(500);
      expect((await call("GET", "/v2/prompts/half-written?label=canary")).status).toBe(404);
    } finally {
      await ks.h.services.db.$executeRawUnsafe(`DROP TRIGGER test_refuse_label ON prompt_labels`);
      await ks.h.services.db.$executeRawUnsafe(`DROP FUNCTION test_refuse_label()`);
    }
  });

  it("creates as Langfuse does: 201 with the version, an empty config, chat messages as sent; refuses bad bodies with 400 and saves nothing", async () => {
    const chat = await call("POST", "/v2/prompts", {
      pair: keys.write,
      body: { name: "raw/chat", type: "chat", prompt: [{ role: "system", content: "You are a bot" }, { role: "user", content: "What's up?" }], commitMessage: "chore: setup" },
    });
    expect(chat.status).toBe(201);
    expect(chat.body).toMatchObject({
      name: "raw/chat", version: 1, type: "chat", labels: ["latest"], config: {}, commitMessage: "chore: setup", createdBy: "API",
      prompt: [{ role: "system", content: "You are a bot" }, { role: "user", content: "What's up?" }],
    });
    const refusals: [unknown, string | RegExp][] = [
      [{ name: "raw/bad1", type: "chat", prompt: "prompt" }, LANGFUSE_MSG.chatNeedsMessages],
      [{ name: "raw/bad2", type: "text", prompt: [{ role: "system", content: "You are a bot" }] }, LANGFUSE_MSG.textNeedsString],
      [{ name: "raw/bad3", type: "chat", prompt: [{ role: "system", content: "Hi {{history}}" }, { type: "placeholder", name: "history" }] }, PLACEHOLDER_MSG.notUnique(["history"])],
      [{ name: "raw/chat", type: "text", prompt: "now text" }, RUNTIME_MSG.typeFixed("raw/chat", "chat")],
    ];
    for (const [body, message] of refusals) expect(await call("POST", "/v2/prompts", { pair: keys.write, body })).toEqual({ status: 400, body: { message, error: "InvalidRequestError" } });
    // A message without content, and a name Promptly does not allow: Langfuse's "Invalid request data", each problem named.
    const badMessage = await call("POST", "/v2/prompts", { pair: keys.write, body: { name: "raw/bad4", type: "chat", prompt: [{ role: "user", message: "x" }] } });
    expect(badMessage.status).toBe(400);
    expect(badMessage.body.message).toBe(LANGFUSE_MSG.invalidRequest);
    const badName = await call("POST", "/v2/prompts", { pair: keys.write, body: { name: "Name With Spaces", prompt: "x" } });
    expect(badName).toEqual({ status: 400, body: { message: LANGFUSE_MSG.invalidRequest, error: [{ path: "name", message: PROMPT_MSG.nameInvalidNearest("name-with-spaces") }] } });
    for (const name of ["raw/bad1", "raw/bad2", "raw/bad3", "raw/bad4"]) expect((await call("GET", `/v2/prompts/${encodeURIComponent(name)}?version=1`)).status).toBe(404);
    expect((await call("GET", "/v2/prompts/raw%2Fchat?version=2")).status).toBe(404);
  });

  it("a read key may not write, and deleting needs the delete scope (write does not imply it)", async () => {
    expect(await call("POST", "/v2/prompts", { body: { name: "by-reader", prompt: "x" } })).toEqual({ status: 403, body: { message: RUNTIME_MSG.readOnlyKey, error: "ForbiddenError" } });
    expect(await call("DELETE", "/v2/prompts/triage", { pair: keys.write })).toEqual({ status: 403, body: { message: RUNTIME_MSG.deleteScopeNeeded, error: "ForbiddenError" } });
    expect(await call("DELETE", "/v2/prompts/triage?version=1", { pair: keys.write })).toEqual({ status: 403, body: { message: RUNTIME_MSG.deleteScopeNeeded, error: "ForbiddenError" } });
    expect((await call("GET", "/v2/prompts/triage")).status).toBe(200);
  });

  it("a key bound to labels fetches only those, as on /api/v1", async () => {
    expect((await call("GET", "/v2/prompts/triage?resolve=false", { pair: keys.bound })).status).toBe(200);
    expect(await call("GET", "/v2/prompts/triage?version=1", { pair: keys.bound })).toEqual({
      status: 403, body: { message: RUNTIME_MSG.labelsOnly(["production"]), error: "ForbiddenError" },
    });
  });

  it("counts a key's requests in its one rate limit with /api/v1, and answers 429 past it", async () => {
    const limited = await listenForTests(
      createApp({ services: { ...app.services, config: { ...app.services.config, rateLimits: true } }, apiRateLimitPerMinute: 2 }),
    );
    try {
      const auth = basic(keys.write);
      expect((await fetch(`${limited.base}/api/v1/prompts`, { headers: { authorization: `Bearer ${keys.write.secretKey}` } })).status).toBe(200);
      expect((await fetch(`${limited.base}/api/public/v2/prompts`, { headers: { authorization: auth } })).status).toBe(200);
      const refused = await fetch(`${limited.base}/api/public/v2/prompts/triage`, { headers: { authorization: auth } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await refused.json()).toEqual({ message: RUNTIME_MSG.rateLimited, error: "TooManyRequestsError" });
    } finally {
      await limited.close();
      await app.services.rateLimits.reset();
    }
  });

  it("answers the Python SDK's auth check with the key's team as its project", async () => {
    const { status, body } = await call("GET", "/projects");
    expect(status).toBe(200);
    expect(body).toEqual({ data: [{ id: teamId, name: "Core", organization: { id: organizationId, name: "Acme" }, metadata: {} }] });
  });

  it("answers an unknown path 404 in Langfuse's words", async () => {
    expect(await call("GET", "/v1/traces")).toEqual({ status: 404, body: { message: "Not found", error: "LangfuseNotFoundError" } });
  });
});

/** "method path" of every route `router` answers (patterns by their source). */
const answeredRoutes = (router: Router) =>
  (router.stack as { route?: { path: string | RegExp; methods: Record<string, boolean> } }[]).flatMap(({ route }) =>
    route ? Object.keys(route.methods).map((method) => `${method} ${String(route.path)}`) : [],
  );

// The route guard of /api/v1 (openapi.integration.test.ts) holds its routes to its one table and the
// OpenAPI document. These routes are Langfuse's contract, deliberately outside that document; they
// are held to their own one table the same way.
describe("no Langfuse route outside its one table", () => {
  const tabled = () => LANGFUSE_OPERATIONS.map((operation) => `${operation.method} ${String(routePattern(operation.path))}`);

  it("every route the router answers is in LANGFUSE_OPERATIONS", () => {
    expect(answeredRoutes(langfuseRouter(app.services, { ratePerMinute: null })).sort()).toEqual(tabled().sort());
  });

  it("a route added beside the table is caught", () => {
    const router = langfuseRouter(app.services, { ratePerMinute: null });
    router.get("/v2/datasets", (_req, res) => res.end());
    expect(answeredRoutes(router).filter((route) => !tabled().includes(route))).toEqual(["get /v2/datasets"]);
  });
});
