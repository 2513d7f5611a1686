// The caching prompt client (@promptly/client's createPromptClient) against a real app and database:
// requests are counted by the server in front of the app, time is the client's injected clock. TTL,
// one background refresh for 50 concurrent gets, stale answers while refreshing, ETag revalidation, the
// bound of the cache (past it the entry not read lately goes and is fetched again), a
// failed refresh keeping the entry, fallbacks and typed errors with the server down, 5xx retries,
// 404 / 401 / 403 refusals, compile errors as the server words them, and the example script.
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import express from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPromptClient, PromptCompileError, PromptlyApiError, type PromptClientOptions, type VariableContract } from "@promptly/client";
import { RUNTIME_MSG, runtimeCompiled, runtimeError } from "@promptly/shared";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

/** A background refresh on a busy machine (the whole suite on two cores) took 1.3 s once: vi.waitFor's 1 s default is too short. */
const WAIT = { timeout: 10_000 };

let h: Harness;
let admin: Awaited<ReturnType<Harness["signedInClient"]>>["api"];
let teamId: string;
const keys: Record<string, string> = {};
const promptIds: Record<string, string> = {};

/** The app behind a front that counts every /api/v1 request and its status, and can answer 503 instead. */
interface CountedServer extends TestServer {
  requests: { url: string; status: number; ifNoneMatch: string | undefined }[];
  /** How many requests reached the server (counted when they arrive). */
  arrived: number;
  failWith503: boolean;
  /** While set, requests wait for it at the front before the app answers them. */
  held: Promise<void> | null;
}

const servers: CountedServer[] = [];

async function startServer(): Promise<CountedServer> {
  const front = express();
  const counted = { requests: [], arrived: 0, failWith503: false, held: null } as unknown as CountedServer;
  front.use("/api/v1", async (req, res, next) => {
    counted.arrived += 1;
    res.on("finish", () => counted.requests.push({ url: req.originalUrl, status: res.statusCode, ifNoneMatch: req.get("if-none-match") }));
    await counted.held;
    if (!counted.failWith503) return next();
    res.status(503).json({ error: { code: "INTERNAL_SERVER_ERROR", message: "Something went wrong on our side. Please try again." } });
  });
  front.use(createApp({ services: h.services }));
  const server = await listenForTests(front);
  Object.assign(counted, server);
  servers.push(counted);
  return counted;
}

/** A client on a clock the test moves; retries wait 5 ms, not 250. */
function clientOf(server: { base: string }, options: Partial<PromptClientOptions> = {}) {
  const clock = { ms: 1_000_000 };
  const client = createPromptClient({ url: server.base, apiKey: keys["read"]!, retryDelayMs: 5, now: () => clock.ms, ...options });
  return { client, clock };
}

beforeAll(async () => {
  h = await createHarness();
  const person = await createAccount(h, { fullName: "Ada Admin" });
  const organization = await createOrganization(h, [{ userId: person.id, role: "member" }], "Acme");
  teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
  admin = (await h.signedInClient(person.id)).api;

  const variables = [{ name: "customer", type: "string" as const }, { name: "topic", type: "enum" as const, options: ["billing", "shipping"] }];
  const reply = await admin.prompts.create({
    teamId, name: "support/reply", title: "Support reply", visibility: "team", type: "text", template: "Hello {{ customer }}, about {{ topic }}", variables,
  });
  await admin.promptVersions.create({ promptId: reply.id, template: "Hi {{ customer }}, on {{ topic }}", variables });
  await admin.promptLabels.set({ promptId: reply.id, label: "production", version: 1 });
  await admin.promptLabels.set({ promptId: reply.id, label: "staging", version: 2 });
  promptIds["support/reply"] = reply.id;
  // One prompt per test that moves a label, so tests do not see each other's moves.
  for (const name of ["moving/refresh", "moving/etag"]) {
    const prompt = await admin.prompts.create({ teamId, name, title: name, visibility: "team", type: "text", template: "First {{ who }}" });
    await admin.promptVersions.create({ promptId: prompt.id, template: "Second {{ who }}" });
    await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
    promptIds[name] = prompt.id;
  }
  const chat = await admin.prompts.create({
    teamId, name: "greeter", title: "Greeter", visibility: "team", type: "chat",
    messages: [{ role: "system", content: "Greet {{ name }}" }, { role: "user", content: "Hi" }],
  });
  await admin.promptLabels.set({ promptId: chat.id, label: "production", version: 1 });

  keys["read"] = (await admin.apiKeys.create({ teamId, name: "read" })).key;
  keys["production"] = (await admin.apiKeys.create({ teamId, name: "production only", labels: ["production"] })).key;
  const revoked = await admin.apiKeys.create({ teamId, name: "revoked" });
  await admin.apiKeys.revoke({ id: revoked.id });
  keys["revoked"] = revoked.key;
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
  await h.close();
});

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => expect.fail(`expected a rejection, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

describe("the cache", () => {
  let server: CountedServer;
  beforeAll(async () => {
    server = await startServer();
  });

  it("within the TTL answers from the cache without a request; every selector is its own key", async () => {
    const { client, clock } = clientOf(server, { cacheTtlSeconds: 60 });
    const before = server.arrived;
    const first = await client.get("support/reply");
    expect(first).toMatchObject({ name: "support/reply", version: 1, isFallback: false, template: "Hello {{ customer }}, about {{ topic }}" });
    expect(server.arrived - before).toBe(1);

    clock.ms += 59_999;
    expect(await client.get("support/reply")).toBe(first);
    expect(await client.get("support/reply", { label: "production" })).toBe(first);
    expect(server.arrived - before).toBe(1);

    const staging = await client.get("support/reply", { label: "staging" });
    const version1 = await client.get("support/reply", { version: 1 });
    expect([staging.version, version1.version]).toEqual([2, 1]);
    expect(version1).not.toBe(first);
    expect(server.arrived - before).toBe(3);
    await client.get("support/reply", { label: "staging" });
    await client.get("support/reply", { version: 1 });
    expect(server.arrived - before).toBe(3);
  });

  it("keeps at most cacheMaxEntries entries: past it the one not read lately goes, and its next get fetches it again", async () => {
    const { client } = clientOf(server, { cacheMaxEntries: 3 });
    const before = server.arrived;
    const first = await client.get("support/reply", { unit: "a" });
    await client.get("support/reply", { unit: "b" });
    await client.get("support/reply", { unit: "c" });
    expect(server.arrived - before).toBe(3);
    // Read since: a and c. A fourth entry makes b, the one not read, go.
    expect(await client.get("support/reply", { unit: "a" })).toBe(first);
    await client.get("support/reply", { unit: "c" });
    await client.get("support/reply", { unit: "d" });
    expect(server.arrived - before).toBe(4);
    expect(await client.get("support/reply", { unit: "a" })).toBe(first);
    await client.get("support/reply", { unit: "c" });
    await client.get("support/reply", { unit: "d" });
    expect(server.arrived - before).toBe(4);
    await client.get("support/reply", { unit: "b" });
    expect(server.arrived - before).toBe(5);
  });

  it("keeps 1,000 entries by default: a unit's entry goes after 1,000 other units were fetched", async () => {
    const { client } = clientOf(server);
    const before = server.arrived;
    await client.get("support/reply", { unit: "first" });
    for (let batch = 0; batch < 1000; batch += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, i) => client.get("support/reply", { unit: `user-${batch + i}` })));
    }
    expect(server.arrived - before).toBe(1001);
    await client.get("support/reply", { unit: "user-999" });
    expect(server.arrived - before).toBe(1001);
    await client.get("support/reply", { unit: "first" });
    expect(server.arrived - before).toBe(1002);
  });

  it("50 concurrent gets of a missing key share one request", async () => {
    const { client } = clientOf(server);
    const before = server.arrived;
    const answers = await Promise.all(Array.from({ length: 50 }, () => client.get("greeter")));
    expect(server.arrived - before).toBe(1);
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatchObject({ type: "chat", version: 1, isFallback: false });
  });

  it("after the TTL: 50 concurrent gets answer the cached version at once and send exactly one refresh; the next get has the new version", async () => {
    const { client, clock } = clientOf(server, { cacheTtlSeconds: 1 });
    const before = server.arrived;
    const first = await client.get("moving/refresh");
    expect(first.version).toBe(1);
    await admin.promptLabels.set({ promptId: promptIds["moving/refresh"]!, label: "production", version: 2 });

    clock.ms += 1000;
    const answers = await Promise.all(Array.from({ length: 50 }, () => client.get("moving/refresh")));
    // Stale while refreshing: every get answered the cached object, none waited for the server.
    expect(answers.every((answer) => answer === first)).toBe(true);
    await vi.waitFor(() => expect(server.requests.filter((r) => r.url.startsWith("/api/v1/prompts/moving/refresh"))).toHaveLength(2), WAIT);
    expect(server.arrived - before).toBe(2);
    await vi.waitFor(async () => expect((await client.get("moving/refresh")).version).toBe(2), WAIT);
    expect(server.arrived - before).toBe(2);
    expect((await client.get("moving/refresh")).compile({ who: "Bo" })).toEqual({ ok: true, text: "Second Bo" });
  });

  it("a refresh sends If-None-Match; 304 keeps the entry and renews its TTL from when the refresh was sent", async () => {
    // Resolves when the client has stored the refresh's answer (onRefresh).
    let refreshed!: () => void;
    const stored = new Promise<void>((resolve) => (refreshed = resolve));
    // What the client sends, in the order it sends it.
    const sent: string[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      sent.push(String(input));
      return fetch(input, init);
    };
    const { client, clock } = clientOf(server, { cacheTtlSeconds: 10, fetch: recordingFetch, onRefresh: () => refreshed() });
    const first = await client.get("moving/etag");
    const mine = () => server.requests.filter((r) => r.url.startsWith("/api/v1/prompts/moving/etag"));
    expect(mine()).toEqual([{ url: "/api/v1/prompts/moving/etag?label=production", status: 200, ifNoneMatch: undefined }]);

    // The refresh is answered only after 9.9 s more have passed, as on a slow network or a busy process.
    let answer!: () => void;
    server.held = new Promise((resolve) => (answer = resolve));
    const arrived = server.arrived;
    clock.ms += 10_000;
    expect(await client.get("moving/etag")).toBe(first);
    await vi.waitFor(() => expect(server.arrived).toBe(arrived + 1), WAIT);
    clock.ms += 9_900;
    server.held = null;
    answer();
    await stored;
    await vi.waitFor(() => expect(mine()).toHaveLength(2), WAIT);
    expect(mine()[1]).toMatchObject({ status: 304, ifNoneMatch: expect.stringMatching(/^".+"$/) });

    // Renewed from the 304: the same object, and no request until 10 s after the refresh was sent (an
    // entry left stale would send one now, before the miss sent after it).
    const before = sent.length;
    expect(await client.get("moving/etag")).toBe(first);
    await client.get("greeter");
    expect(sent.slice(before)).toEqual([`${server.base}/api/v1/prompts/greeter?label=production`]);
    expect(mine()).toHaveLength(2);

    // A change after that is a 200 with the new version, asked for at once: the TTL did not restart when the late 304 was read.
    await admin.promptLabels.set({ promptId: promptIds["moving/etag"]!, label: "production", version: 2 });
    clock.ms += 100;
    await vi.waitFor(async () => {
      await client.get("moving/etag");
      expect(mine()).toHaveLength(3);
    }, WAIT);
    expect(mine()[2]!.status).toBe(200);
    await vi.waitFor(async () => expect((await client.get("moving/etag")).version).toBe(2), WAIT);
  });
});

describe("failures", () => {
  it("a failed refresh (the server is down) keeps the cached entry and says why through onRefreshError", async () => {
    const server = await startServer();
    const refreshErrors: PromptlyApiError[] = [];
    const { client, clock } = clientOf(server, { cacheTtlSeconds: 1, maxRetries: 1, onRefreshError: (error) => refreshErrors.push(error) });
    const first = await client.get("support/reply");
    await server.close();

    clock.ms += 5000;
    expect(await client.get("support/reply")).toBe(first);
    await vi.waitFor(() => expect(refreshErrors).toHaveLength(1), WAIT);
    expect(refreshErrors[0]).toBeInstanceOf(PromptlyApiError);
    expect(refreshErrors[0]).toMatchObject({ status: 0, code: "NETWORK_ERROR" });
    // Still served, and the next get tries again.
    expect(await client.get("support/reply")).toBe(first);
    await vi.waitFor(() => expect(refreshErrors).toHaveLength(2), WAIT);
    expect((await client.get("support/reply")).isFallback).toBe(false);
  });

  describe("the server is down", () => {
    let base: string;
    beforeAll(async () => {
      const server = await startServer();
      base = server.base;
      await server.close();
    });

    it("a miss with a fallback answers it, marked, and it compiles", async () => {
      const { client } = clientOf({ base });
      const text = await client.get("support/reply", { fallback: "Dear {{ customer }}" });
      expect(text).toMatchObject({ name: "support/reply", isFallback: true, version: 0, type: "text", template: "Dear {{ customer }}" });
      expect(text.compile({ customer: "Ann" })).toEqual({ ok: true, text: "Dear Ann" });
      expect(() => text.compile({})).toThrow(PromptCompileError);
      // A fallback describes nothing: its contract is the one compile checks, typed as the library's.
      const contract: readonly VariableContract[] = text.variables;
      expect(contract).toEqual([{ name: "customer", type: "string", required: true }]);

      const chat = await client.get("greeter", { fallback: [{ role: "system", content: "Greet {{ name }}" }] });
      expect(chat).toMatchObject({ isFallback: true, type: "chat" });
      expect(chat.compile({ name: "Bo" })).toEqual({ ok: true, messages: [{ role: "system", content: "Greet Bo" }] });
      expect(chat.variables).toEqual([{ name: "name", type: "string", required: true }]);
    });

    it("a miss without a fallback throws PromptlyApiError with status 0 (after its retries)", async () => {
      const { client } = clientOf({ base }, { maxRetries: 2 });
      const error = await rejection(client.get("support/reply"));
      expect(error).toBeInstanceOf(PromptlyApiError);
      expect(error).toMatchObject({ status: 0, code: "NETWORK_ERROR" });
      expect((error as Error).message).toContain(base);
    });
  });

  it("a server that does not answer within fetchTimeoutMs is a TIMEOUT (status 0), or the fallback", async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
      const { client } = clientOf({ base }, { fetchTimeoutMs: 100, maxRetries: 1 });
      const started = Date.now();
      const error = await rejection(client.get("support/reply"));
      expect(error).toMatchObject({ status: 0, code: "TIMEOUT", message: "Promptly did not answer within 100 ms" });
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
      expect((await client.get("support/reply", { fallback: "Hi" })).isFallback).toBe(true);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("a streamed run's event that is not what the API sends is an INVALID_RESPONSE, not a SyntaxError", async () => {
    // A server (or a proxy in front of it) answering the run's stream with events the API never sends.
    const events = [
      ["delta", "{not json"],
      ["delta", '{"text":7}'],
      ["done", "{not json"],
    ];
    let next = 0;
    const scripted: Server = createServer((req, res) => {
      req.resume();
      const [event, data] = events[next++]!;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`event: ${event}\ndata: ${data}\n\n`);
    });
    await new Promise<void>((resolve) => scripted.listen(0, "127.0.0.1", resolve));
    try {
      const { client } = clientOf({ base: `http://127.0.0.1:${(scripted.address() as { port: number }).port}` });
      for (const message of ["The server sent a piece of the run's output that is not text", "The server sent a piece of the run's output that is not text", "The server's last event is not a run"]) {
        const error = await rejection((async () => {
          for await (const _event of client.run("support/reply", {}, { stream: true }));
        })());
        expect(error).toBeInstanceOf(PromptlyApiError);
        expect(error).toMatchObject({ status: 200, code: "INVALID_RESPONSE", message });
      }
    } finally {
      scripted.closeAllConnections();
      await new Promise((resolve) => scripted.close(resolve));
    }
  });

  it("a 5xx is retried maxRetries times, then thrown as PromptlyApiError with the server's code and message (or the fallback)", async () => {
    const server = await startServer();
    server.failWith503 = true;
    const { client } = clientOf(server, { maxRetries: 2 });
    const error = await rejection(client.get("support/reply"));
    expect(server.arrived).toBe(3);
    expect(error).toBeInstanceOf(PromptlyApiError);
    expect(error).toMatchObject({ status: 503, code: "INTERNAL_SERVER_ERROR", message: "Something went wrong on our side. Please try again." });
    expect((await client.get("support/reply", { fallback: "Hello" })).isFallback).toBe(true);
    expect(server.arrived).toBe(6);

    // Recovered: the next miss asks again and caches a real answer.
    server.failWith503 = false;
    expect(await client.get("support/reply", { fallback: "Hello" })).toMatchObject({ isFallback: false, version: 1 });
  });
});

describe("refusals are typed errors with the server's status, code and message, never retried", () => {
  let server: CountedServer;
  beforeAll(async () => {
    server = await startServer();
  });

  it.each([
    ["an unknown prompt", "read", "nope/nothing", {}, 404, "NOT_FOUND", RUNTIME_MSG.promptNotFound("nope/nothing", { label: "production" })],
    ["an unknown version", "read", "support/reply", { version: 9 }, 404, "NOT_FOUND", RUNTIME_MSG.promptNotFound("support/reply", { version: 9 })],
    ["a production-only key asking for staging", "production", "support/reply", { label: "staging" }, 403, "FORBIDDEN", RUNTIME_MSG.labelsOnly(["production"])],
    ["a production-only key asking for a version", "production", "support/reply", { version: 1 }, 403, "FORBIDDEN", RUNTIME_MSG.labelsOnly(["production"])],
    ["a revoked key", "revoked", "support/reply", {}, 401, "UNAUTHORIZED", null],
  ] as const)("%s", async (_case, key, name, selector, status, code, message) => {
    const { client } = clientOf(server, { apiKey: keys[key]!, maxRetries: 2 });
    const before = server.arrived;
    const error = await rejection(client.get(name, selector));
    expect(error).toBeInstanceOf(PromptlyApiError);
    expect(error).toMatchObject({ status, code });
    if (message) expect((error as Error).message).toBe(message);
    else expect((error as Error).message).toMatch(/revoked/i);
    expect(server.arrived - before).toBe(1);
    // With a fallback, the tool keeps working.
    expect((await client.get(name, { ...selector, fallback: "x" })).isFallback).toBe(true);
  });

  it("a production-only key gets production", async () => {
    const { client } = clientOf(server, { apiKey: keys["production"]! });
    expect((await client.get("support/reply")).version).toBe(1);
  });
});

describe("compile", () => {
  let server: CountedServer;
  beforeAll(async () => {
    server = await startServer();
  });

  /** The server's own compile of the same prompt, to show the client's is the same one. */
  async function serverCompile(variables: Record<string, unknown>) {
    const response = await fetch(`${server.base}/api/v1/prompts/support/reply/compile`, {
      method: "POST",
      headers: { authorization: `Bearer ${keys["read"]}`, "content-type": "application/json" },
      body: JSON.stringify({ variables }),
    });
    return { status: response.status, json: (await response.json()) as unknown };
  }

  it("fills the version's variables as the server does", async () => {
    const { client } = clientOf(server);
    const prompt = await client.get("support/reply");
    const values = { customer: "Ann", topic: "billing" };
    expect(prompt.compile(values)).toEqual({ ok: true, text: "Hello Ann, about billing" });
    expect(runtimeCompiled.parse((await serverCompile(values)).json)).toEqual({ version: 1, text: "Hello Ann, about billing" });
  });

  it("throws PromptCompileError naming every offending variable, with the server's message", async () => {
    const { client } = clientOf(server);
    const prompt = await client.get("support/reply");
    const values = { topic: "weather" };
    let thrown: unknown;
    try {
      prompt.compile(values);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PromptCompileError);
    const error = thrown as PromptCompileError;
    expect(error.problems).toEqual([
      { variable: "customer", message: "is required" },
      { variable: "topic", message: "must be one of 'billing', 'shipping'" },
    ]);
    const answer = await serverCompile(values);
    expect(answer.status).toBe(400);
    expect(error.message).toBe(runtimeError.parse(answer.json).error.message);
    expect(error.message.startsWith(RUNTIME_MSG.compileFailed)).toBe(true);
  });

  it("a chat prompt compiles to messages", async () => {
    const { client } = clientOf(server);
    const chat = await client.get("greeter");
    expect(chat.compile({ name: "Bo" })).toEqual({ ok: true, messages: [{ role: "system", content: "Greet Bo" }, { role: "user", content: "Hi" }] });
    expect(() => chat.compile()).toThrow(RUNTIME_MSG.compileFailed + "'name' is required");
  });

  it("the example script (npm run example -w @promptly/client) prints the compiled production text", async () => {
    const clientDir = fileURLToPath(new URL("../../../../../packages/client/", import.meta.url));
    const tsx = fileURLToPath(new URL("../../../../../node_modules/.bin/tsx", import.meta.url));
    const env = { ...process.env, PROMPTLY_URL: server.base, PROMPTLY_API_KEY: keys["read"]! };
    const { stdout } = await promisify(execFile)(tsx, ["examples/prompt.ts"], { cwd: clientDir, env });
    expect(stdout.trim()).toBe("Hello Ann, about billing");

    const refused = await rejection(promisify(execFile)(tsx, ["examples/prompt.ts"], { cwd: clientDir, env: { ...env, PROMPTLY_PROMPT: "nope" } }));
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining(`PromptlyApiError 404 NOT_FOUND: ${RUNTIME_MSG.promptNotFound("nope", { label: "production" })}`) });
  });
});
