// POST /api/v1/prompts/{name}/run over HTTP, against a real database and the tests' model
// provider over HTTP: a run key gets the output and the run is recorded as the key; the scope, the
// labels and the contract refuse before any provider call; streamed answers arrive as events in order;
// a provider's failure is a 502 with its status and message.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPromptClient, PromptlyApiError, type RunStreamEvent } from "@promptly/client";
import { DEFAULT_MODEL_PRICES, PROVIDER_MSG, RUNTIME_MSG, RUN_MSG, RUN_OUTPUT_MAX_CHARS, runtimeError, runtimeRunResult, type RuntimeRunResult } from "@promptly/shared";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { fakeAnswerText, startFakeProvider, type FakeProvider } from "@promptly/api/testing/fake-provider";
import { createApp } from "../../app.ts";
import { createLogger } from "../../logger.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

let h: Harness;
let provider: FakeProvider;
let server: TestServer;
const keys: Record<string, { id: string; key: string }> = {};
/** The server's log lines. */
const logLines: string[] = [];
let replyId: string;
let acmeConnectionId: string;
let acmeId: string;
let admin: Awaited<ReturnType<Harness["signedInClient"]>>["api"];

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  server = await listenForTests(createApp({ services: h.services, logger: createLogger("info", { write: (line: string) => void logLines.push(line) }) }));
  const person = await createAccount(h, { fullName: "Ada Admin" });
  const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }], "Acme");
  acmeId = organization.id;
  const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
  admin = (await h.signedInClient(person.id)).api;
  acmeConnectionId = (await admin.providers.create({ organizationId: organization.id, kind: "openai-compatible", name: "Local", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey })).id;
  // Tested, it is the one a run that names no connection uses (the only one that passed its test).
  await admin.providers.test({ id: acmeConnectionId });

  const reply = await admin.prompts.create({
    teamId, name: "support/reply", title: "Support reply", visibility: "team", type: "text",
    template: "Hello {{ customer }}, about {{ topic }}", model: "gpt-4o-mini",
    variables: [{ name: "customer", type: "string" }, { name: "topic", type: "enum", options: ["billing", "shipping"] }],
  });
  replyId = reply.id;
  await admin.promptLabels.set({ promptId: reply.id, label: "production", version: 1 });
  await admin.promptVersions.create({ promptId: reply.id, template: "Hi {{ customer }}", model: "gpt-4o-mini", variables: [{ name: "customer", type: "string" }] });
  await admin.promptLabels.set({ promptId: reply.id, label: "staging", version: 2 });

  const create = async (name: string, settings: { labels?: string[]; scopes?: ("read" | "write" | "run")[] } = {}) =>
    (keys[name] = await admin.apiKeys.create({ teamId, name, labels: settings.labels, scopes: settings.scopes }));
  await create("run", { scopes: ["run"] });
  await create("read");
  await create("write", { scopes: ["write"] });
  await create("production-run", { labels: ["production"], scopes: ["run"] });
});
afterEach(() => {
  provider.failWith = null;
});
afterAll(async () => {
  await server?.close();
  await Promise.all([h.close(), provider.close()]);
});

const runUrl = (name: string) => `${server.base}/api/v1/prompts/${name}/run`;
const post = (key: string, body: unknown, name = "support/reply") =>
  fetch(runUrl(name), { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
const runRow = (id: string) => h.database.db.promptRun.findUniqueOrThrow({ where: { id } });
const runCount = () => h.database.db.promptRun.count({ where: { promptId: replyId } });

/** The events of a text/event-stream answer, in order. */
async function eventsOf(response: Response): Promise<{ event: string; data: unknown }[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter(Boolean)
    .map((frame) => {
      const lines = frame.split("\n");
      return {
        event: lines.find((line) => line.startsWith("event: "))!.slice(7),
        data: JSON.parse(lines.filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).join("\n")) as unknown,
      };
    });
}

describe("POST /api/v1/prompts/{name}/run", () => {
  it("answers a run key the output of the production version and records the run as the key", async () => {
    const response = await post(keys["run"]!.key, { variables: { customer: "Ada", topic: "billing" } });
    expect(response.status).toBe(200);
    const answer: RuntimeRunResult = runtimeRunResult.parse(await response.json());
    expect(answer.output).toBe(fakeAnswerText("Hello Ada, about billing"));
    expect(answer.run).toMatchObject({ version: 1, model: "gpt-4o-mini", status: "succeeded" });
    expect(answer.run.outputTokens).toBeGreaterThan(0);
    expect(await runRow(answer.run.id)).toMatchObject({
      promptId: replyId, version: 1, apiKeyId: keys["run"]!.id, userId: null, status: "succeeded", output: answer.output,
      variables: { customer: "Ada", topic: "billing" },
    });
  });

  it("runs a label or a version when asked, and another model of the connection", async () => {
    const staged = runtimeRunResult.parse(await (await post(keys["run"]!.key, { label: "staging", variables: { customer: "Bo" } })).json());
    expect(staged).toMatchObject({ output: fakeAnswerText("Hi Bo"), run: { version: 2 } });
    const latest = runtimeRunResult.parse(await (await post(keys["run"]!.key, { label: "latest", model: "local-llama", variables: { customer: "Cy" } })).json());
    expect(latest).toMatchObject({ output: fakeAnswerText("Hi Cy"), run: { version: 2, model: "local-llama" } });
  });

  it.each([
    ["a read-only key", "read"],
    ["a write key (write does not imply run)", "write"],
  ])("refuses %s with 403, calling no provider and recording nothing", async (_name, key) => {
    const [calls, runs] = [provider.calls.length, await runCount()];
    const response = await post(keys[key]!.key, { variables: { customer: "Ada", topic: "billing" } });
    expect(response.status).toBe(403);
    expect(runtimeError.parse(await response.json()).error).toMatchObject({ code: "FORBIDDEN", message: RUNTIME_MSG.runScopeNeeded });
    expect([provider.calls.length, await runCount()]).toEqual([calls, runs]);
  });

  it("refuses a label-bound key another label as GET does, and runs its own", async () => {
    const key = keys["production-run"]!.key;
    const response = await post(key, { label: "staging", variables: { customer: "Ada" } });
    expect(response.status).toBe(403);
    expect(runtimeError.parse(await response.json()).error.message).toBe(RUNTIME_MSG.labelsOnly(["production"]));
    const get = await fetch(`${server.base}/api/v1/prompts/support/reply?label=staging`, { headers: { authorization: `Bearer ${key}` } });
    expect(get.status).toBe(403);
    expect((await post(key, { variables: { customer: "Ada", topic: "shipping" } })).status).toBe(200);
  });

  it("answers missing variables with the compile route's 400, naming each, before any provider call", async () => {
    const calls = provider.calls.length;
    const response = await post(keys["run"]!.key, { variables: {} });
    const compile = await fetch(`${server.base}/api/v1/prompts/support/reply/compile`, {
      method: "POST", headers: { authorization: `Bearer ${keys["run"]!.key}`, "content-type": "application/json" }, body: JSON.stringify({ variables: {} }),
    });
    expect(response.status).toBe(400);
    const { error } = runtimeError.parse(await response.json());
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.details?.map((detail) => detail.variable)).toEqual(["customer", "topic"]);
    expect(runtimeError.parse(await compile.json())).toEqual({ error });
    expect(provider.calls.length).toBe(calls);
  });

  it("streams the answer as delta events in order, then done with the recorded run", async () => {
    const response = await post(keys["run"]!.key, { stream: true, variables: { customer: "Ada", topic: "shipping" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = await eventsOf(response);
    const deltas = events.filter((event) => event.event === "delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(events.slice(0, -1)).toEqual(deltas);
    const expected = fakeAnswerText("Hello Ada, about shipping");
    expect(deltas.map((event) => (event.data as { text: string }).text).join("")).toBe(expected);
    const done = events.at(-1)!;
    expect(done.event).toBe("done");
    const answer = runtimeRunResult.parse(done.data);
    expect(answer).toMatchObject({ output: expected, run: { status: "succeeded" } });
    expect(await runRow(answer.run.id)).toMatchObject({ apiKeyId: keys["run"]!.id, status: "succeeded", output: expected });
  });

  it("sends the headers while the model thinks, before its first token", async () => {
    const before = { ...provider.answer };
    provider.answer.firstTokenDelayMs = 3_000;
    try {
      const started = performance.now();
      const response = await post(keys["run"]!.key, { stream: true, variables: { customer: "Cy", topic: "shipping" } });
      expect(response.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(2_000);
      const events = await eventsOf(response);
      expect(events.at(-1)!.event).toBe("done");
      expect(performance.now() - started).toBeGreaterThanOrEqual(3_000);
    } finally {
      Object.assign(provider.answer, before);
    }
  });

  it("a caller that leaves mid-stream aborts the provider call: its stream closes and the run is recorded as stopped", async () => {
    Object.assign(provider.answer, { chunkDelayMs: 20, repeat: 200 });
    const abandoned = provider.abandonedStreams;
    const leave = new AbortController();
    try {
      const response = await fetch(runUrl("support/reply"), {
        method: "POST", signal: leave.signal,
        headers: { authorization: `Bearer ${keys["run"]!.key}`, "content-type": "application/json" },
        body: JSON.stringify({ stream: true, variables: { customer: "Leaving", topic: "billing" } }),
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let seen = "";
      while (!seen.includes("event: delta")) seen += (await reader.read()).value ?? "";
      leave.abort();
      await expect.poll(() => provider.abandonedStreams, { timeout: 5_000 }).toBe(abandoned + 1);
      await expect
        .poll(() => h.database.db.promptRun.findFirst({ where: { promptId: replyId, variables: { equals: { customer: "Leaving", topic: "billing" } } }, select: { status: true, apiKeyId: true } }), { timeout: 5_000 })
        .toEqual({ status: "stopped", apiKeyId: keys["run"]!.id });
    } finally {
      Object.assign(provider.answer, { chunkDelayMs: 0, repeat: 1 });
    }
  });

  it("answers a provider's 401 with 502, its status and its message, and records the failed run", async () => {
    provider.failWith = 401;
    const before = await runCount();
    const response = await post(keys["run"]!.key, { variables: { customer: "Ada", topic: "billing" } });
    expect(response.status).toBe(502);
    // The provider's failure, passed on: a warning in the server's log, not an error of the server.
    const requestId = response.headers.get("x-request-id");
    const line = logLines.map((entry) => JSON.parse(entry) as { requestId?: string; level: number; res?: { statusCode: number } }).find((entry) => entry.requestId === requestId && entry.res);
    expect(line).toMatchObject({ level: 40, res: { statusCode: 502 } });
    expect(runtimeError.parse(await response.json())).toEqual({
      error: { code: "BAD_GATEWAY", message: PROVIDER_MSG.keyRefused("Local"), reason: "PROVIDER_FAILED", providerStatus: 401, detail: "401: Incorrect API key provided." },
    });
    expect(await runCount()).toBe(before + 1);
    const [last] = await h.database.db.promptRun.findMany({ where: { promptId: replyId }, orderBy: { createdAt: "desc" }, take: 1 });
    expect(last).toMatchObject({ status: "failed", apiKeyId: keys["run"]!.id });
  });

  it("answers a provider's message that quotes a key without the key", async () => {
    provider.failWith = 401;
    provider.failMessage = "Incorrect API key provided: sk-abc***************wxyz.";
    try {
      const response = await post(keys["run"]!.key, { variables: { customer: "Ada", topic: "billing" } });
      expect(response.status).toBe(502);
      expect(runtimeError.parse(await response.json()).error).toMatchObject({ message: PROVIDER_MSG.keyRefused("Local"), detail: "401: Incorrect API key provided: [redacted]" });
    } finally {
      provider.failMessage = null;
    }
  });

  it("ends a stream the provider fails with an error event carrying the 502's body", async () => {
    provider.failWith = 500;
    const events = await eventsOf(await post(keys["run"]!.key, { stream: true, variables: { customer: "Ada", topic: "billing" } }));
    expect(events.map((event) => event.event)).toEqual(["error"]);
    expect(events[0]!.data).toMatchObject({ error: { code: "BAD_GATEWAY", providerStatus: 500 }, run: { status: "failed" } });
  });

  it("uses the only connection that passed its test, else a default, and asks to name one when none qualifies", async () => {
    const person = await createAccount(h, { fullName: "Bea Boss" });
    const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }], "Beta");
    const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
    const boss = (await h.signedInClient(person.id)).api;
    const key = (await boss.apiKeys.create({ teamId, name: "runner", scopes: ["run"] })).key;
    await boss.prompts.create({ teamId, name: "solo", title: "Solo", visibility: "team", type: "text", template: "Hi", model: "gpt-4o-mini" });
    const none = await post(key, { label: "latest" }, "solo");
    expect(none.status).toBe(400);
    expect(runtimeError.parse(await none.json()).error).toMatchObject({ message: RUNTIME_MSG.noConnection, reason: "NO_CONNECTION" });
    const connection = (kind: string) => ({ organizationId: organization.id, kind: "openai-compatible" as const, name: kind, baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
    const first = await boss.providers.create(connection("First"));
    // A connection limited to another team is not the key's team's to use, nor to count.
    const otherTeamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Other")).id;
    const limited = await boss.providers.create({ ...connection("Other team's"), teamIds: [otherTeamId] });
    // Never tested: not used silently.
    const untested = await post(key, { label: "latest" }, "solo");
    expect(untested.status).toBe(400);
    expect(runtimeError.parse(await untested.json()).error).toMatchObject({ message: RUNTIME_MSG.chooseConnection(1), reason: "CONNECTION_REQUIRED" });
    await boss.providers.test({ id: first.id });
    await boss.providers.test({ id: limited.id });
    const only = await post(key, { label: "latest" }, "solo");
    expect(only.status).toBe(200);
    expect(await runRow(((await only.json()) as { run: { id: string } }).run.id)).toMatchObject({ connectionId: first.id });
    const notOpen = await post(key, { label: "latest", connectionId: limited.id }, "solo");
    expect(notOpen.status).toBe(403);
    expect(runtimeError.parse(await notOpen.json()).error).toMatchObject({ message: RUN_MSG.connectionNotForTeam });
    // Another organization's connection does not exist for this key.
    const elsewhere = await post(key, { label: "latest", connectionId: acmeConnectionId }, "solo");
    expect(elsewhere.status).toBe(404);
    expect(runtimeError.parse(await elsewhere.json()).error).toMatchObject({ message: PROVIDER_MSG.notFound });
    const second = await boss.providers.create(connection("Second"));
    await boss.providers.test({ id: second.id });
    const two = await post(key, { label: "latest" }, "solo");
    expect(two.status).toBe(400);
    expect(runtimeError.parse(await two.json()).error).toMatchObject({ message: RUNTIME_MSG.chooseConnection(2), reason: "CONNECTION_REQUIRED" });
    expect((await post(key, { label: "latest", connectionId: first.id }, "solo")).status).toBe(200);
    // The team's default, then, is what a run naming none uses.
    await boss.teams.setDefaultConnection({ id: teamId, connectionId: second.id });
    const chosen = await post(key, { label: "latest" }, "solo");
    expect(await runRow(((await chosen.json()) as { run: { id: string } }).run.id)).toMatchObject({ connectionId: second.id });
  });
});

describe("the TypeScript client's run", () => {
  const client = () => createPromptClient({ url: server.base, apiKey: keys["run"]!.key });

  it("answers the output and the recorded run", async () => {
    const answer = await client().run("support/reply", { customer: "Di" }, { label: "staging" });
    expect(answer).toMatchObject({ output: fakeAnswerText("Hi Di"), run: { version: 2, status: "succeeded" } });
    expect(await runRow(answer.run.id)).toMatchObject({ apiKeyId: keys["run"]!.id, output: answer.output });
  });

  it("streams the deltas in order, then the run", async () => {
    const events: RunStreamEvent[] = [];
    for await (const event of client().run("support/reply", { customer: "Ed", topic: "billing" }, { stream: true })) events.push(event);
    const expected = fakeAnswerText("Hello Ed, about billing");
    const deltas = events.slice(0, -1);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((event) => (event.type === "delta" ? event.text : "?")).join("")).toBe(expected);
    expect(events.at(-1)).toMatchObject({ type: "done", output: expected, run: { status: "succeeded" } });
  });

  it("throws the server's refusals and a provider's failure as PromptlyApiError", async () => {
    const missing = await client().run("support/reply", {}).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(PromptlyApiError);
    expect((missing as PromptlyApiError).details?.map((detail) => detail.variable)).toEqual(["customer", "topic"]);
    const readOnly = await createPromptClient({ url: server.base, apiKey: keys["read"]!.key }).run("support/reply", { customer: "A", topic: "billing" }).catch((error: unknown) => error);
    expect(readOnly).toMatchObject({ status: 403, code: "FORBIDDEN", message: RUNTIME_MSG.runScopeNeeded });
    provider.failWith = 401;
    const failed = await client().run("support/reply", { customer: "A", topic: "billing" }).catch((error: unknown) => error);
    expect(failed).toMatchObject({ status: 502, code: "BAD_GATEWAY", providerStatus: 401, detail: "401: Incorrect API key provided." });
    const streamed = (async () => {
      for await (const _event of client().run("support/reply", { customer: "A", topic: "billing" }, { stream: true }));
    })();
    await expect(streamed).rejects.toMatchObject({ status: 502, code: "BAD_GATEWAY", providerStatus: 401 });
  });

  it("throws a streamed run's error event with the status its code has whole: a prompt deleted while it ran 404, a provider's failure 502", async () => {
    const teamId = (await admin.prompts.get({ id: replyId })).teamId;
    const doomed = await admin.prompts.create({ teamId, name: "doomed/run", title: "Doomed", visibility: "team", type: "text", template: "Hello {{ customer }}", model: "gpt-4o-mini" });
    await admin.promptLabels.set({ promptId: doomed.id, label: "production", version: 1 });
    // The provider holds its answer (the stream's 200 already sent) until the prompt is gone: the run ends with the 404's body as its error event.
    let release!: () => void;
    provider.answer.hold = new Promise<void>((resolve) => (release = resolve));
    const before = provider.openStreams;
    const deleted = (async () => {
      for await (const _event of client().run("doomed/run", { customer: "Ada" }, { stream: true }));
    })();
    try {
      await expect.poll(() => provider.openStreams).toBe(before + 1);
      await h.database.db.prompt.delete({ where: { id: doomed.id } });
    } finally {
      provider.answer.hold = null;
      release();
    }
    const gone = await deleted.then(() => null, (error: unknown) => error);
    expect(gone).toBeInstanceOf(PromptlyApiError);
    expect(gone).toMatchObject({ status: 404, code: "NOT_FOUND", message: RUNTIME_MSG.promptNotFound("doomed/run", { label: "production" }) });

    provider.failWith = 500;
    const failed = (async () => {
      for await (const _event of client().run("support/reply", { customer: "B", topic: "billing" }, { stream: true }));
    })();
    await expect(failed).rejects.toMatchObject({ status: 502, code: "BAD_GATEWAY", providerStatus: 500 });
  });

  it("runs a split label's version for a unit as given (not Latin-1, a space at its end): the one a fetch with ?unit= gives", async () => {
    const teamId = (await admin.prompts.get({ id: replyId })).teamId;
    const split = await admin.prompts.create({ teamId, name: "split/run", title: "Split", visibility: "team", type: "text", template: "Version one", model: "gpt-4o-mini" });
    await admin.promptVersions.create({ promptId: split.id, template: "Version two", model: "gpt-4o-mini" });
    await admin.promptLabels.set({ promptId: split.id, label: "production", version: 1 });
    await admin.promptLabels.split({ promptId: split.id, label: "production", version: 2, weight: 50 });
    const fetched = async (unit: string) => {
      const response = await fetch(`${server.base}/api/v1/prompts/split/run?unit=${encodeURIComponent(unit)}`, { headers: { authorization: `Bearer ${keys["read"]!.key}` } });
      return ((await response.json()) as { version: number }).version;
    };
    // A unit whose trailing space changes its version: a header would have lost the space.
    let spaced: string | undefined;
    for (let i = 0; spaced === undefined && i < 200; i++) if ((await fetched(`user-${i} `)) !== (await fetched(`user-${i}`))) spaced = `user-${i} `;
    expect(spaced).toBeDefined();
    for (const unit of ["用户-42", spaced!]) {
      const version = await fetched(unit);
      for (let i = 0; i < 3; i++) expect((await client().run("split/run", {}, { unit })).run.version).toBe(version);
    }
  });

  it("a stop through the signal rejects with the signal's reason, not a network error, and the run is recorded as stopped", async () => {
    Object.assign(provider.answer, { chunkDelayMs: 20, repeat: 200 });
    try {
      const stop = new AbortController();
      const before = await h.database.db.promptRun.count({ where: { promptId: replyId, status: "stopped" } });
      const streamed = (async () => {
        for await (const event of client().run("support/reply", { customer: "Stopper", topic: "billing" }, { stream: true, signal: stop.signal })) {
          if (event.type === "delta") stop.abort();
        }
      })();
      await expect(streamed).rejects.toMatchObject({ name: "AbortError" });
      await expect.poll(() => h.database.db.promptRun.count({ where: { promptId: replyId, status: "stopped" } }), { timeout: 5_000 }).toBe(before + 1);
      // Stopped before the request went out: the same.
      await expect(client().run("support/reply", { customer: "A", topic: "billing" }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    } finally {
      Object.assign(provider.answer, { chunkDelayMs: 0, repeat: 1 });
    }
  });
});

describe("a chat prompt with a placeholder", () => {
  let chatId: string;
  beforeAll(async () => {
    const teamId = (await admin.prompts.get({ id: replyId })).teamId;
    const chat = await admin.prompts.create({
      teamId, name: "support/history", title: "Support with history", visibility: "team", type: "chat", model: "gpt-4o-mini",
      messages: [{ role: "system", content: "You help {{ customer }}." }, { type: "placeholder", name: "history" }, { role: "user", content: "And now?" }],
    });
    chatId = chat.id;
    await admin.promptLabels.set({ promptId: chat.id, label: "production", version: 1 });
  });

  it("runs with the placeholder filled: the provider is sent its messages in its place, as given", async () => {
    const history = [{ role: "user", content: "My {{ order }} is late" }, { role: "assistant", content: "Sorry to hear it" }];
    const response = await post(keys["run"]!.key, { variables: { customer: "Ada" }, placeholders: { history } }, "support%2Fhistory");
    expect(response.status).toBe(200);
    expect(provider.calls.at(-1)!.body).toMatchObject({
      messages: [{ role: "system", content: "You help Ada." }, ...history, { role: "user", content: "And now?" }],
    });
    const emptied = await post(keys["run"]!.key, { variables: { customer: "Ada" }, placeholders: { history: [] } }, "support%2Fhistory");
    expect(emptied.status).toBe(200);
    expect(provider.calls.at(-1)!.body).toMatchObject({ messages: [{ role: "system", content: "You help Ada." }, { role: "user", content: "And now?" }] });
  });

  it("the typed client fetches it, compiles it with the placeholder filled or left in place, and runs it with placeholders", async () => {
    const client = createPromptClient({ url: server.base, apiKey: keys["run"]!.key });
    const prompt = await client.get("support/history");
    expect(prompt.placeholders).toEqual(["history"]);
    expect(prompt.variables.map((variable) => variable.name)).toEqual(["customer"]);
    const history = [{ role: "assistant" as const, content: "Hello again" }];
    expect(prompt.compile({ customer: "Ada" }, { history })).toEqual({
      ok: true, messages: [{ role: "system", content: "You help Ada." }, ...history, { role: "user", content: "And now?" }],
    });
    expect(prompt.compile({ customer: "Ada" })).toEqual({
      ok: true, messages: [{ role: "system", content: "You help Ada." }, { type: "placeholder", name: "history" }, { role: "user", content: "And now?" }],
    });
    const result = await client.run("support/history", { customer: "Ada" }, { placeholders: { history } });
    expect(result.run.status).toBe("succeeded");
    expect(provider.calls.at(-1)!.body).toMatchObject({ messages: [{ role: "system", content: "You help Ada." }, ...history, { role: "user", content: "And now?" }] });
    await expect(client.run("support/history", { customer: "Ada" })).rejects.toThrow(RUN_MSG.placeholdersUnfilled(["history"]));
  });

  it("refuses a run that leaves a placeholder unfilled, naming it, calling no provider and recording nothing", async () => {
    const [calls, runs] = [provider.calls.length, await h.database.db.promptRun.count({ where: { promptId: chatId } })];
    const response = await post(keys["run"]!.key, { variables: { customer: "Ada" } }, "support%2Fhistory");
    expect(response.status).toBe(400);
    expect(runtimeError.parse(await response.json()).error).toMatchObject({
      code: "BAD_REQUEST", message: RUN_MSG.placeholdersUnfilled(["history"]), details: [{ variable: "history", message: RUN_MSG.placeholderUnfilled }],
    });
    expect([provider.calls.length, await h.database.db.promptRun.count({ where: { promptId: chatId } })]).toEqual([calls, runs]);
  });
});

describe("a chat prompt with tools and a response format", () => {
  beforeAll(async () => {
    const teamId = (await admin.prompts.get({ id: replyId })).teamId;
    const chat = await admin.prompts.create({
      teamId, name: "support/weather", title: "Weather", visibility: "team", type: "chat", model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Will it rain in {{ city }}?" }],
      tools: [{ name: "get_weather", description: "The forecast", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }],
      responseFormat: { type: "json_schema", name: "forecast", schema: { type: "object", properties: { rain: { type: "boolean" } }, required: ["rain"] }, strict: false },
    });
    await admin.promptLabels.set({ promptId: chat.id, label: "production", version: 1 });
  });
  afterEach(() => {
    provider.answer.toolCall = null;
    provider.answer.text = null;
  });

  it("answers the tool calls the model made, as the run records them, whole and streamed", async () => {
    provider.answer.toolCall = { name: "get_weather", arguments: { city: "Oslo" } };
    const response = await post(keys["run"]!.key, { variables: { city: "Oslo" } }, "support%2Fweather");
    expect(response.status).toBe(200);
    const answer = runtimeRunResult.parse(await response.json());
    expect(answer.run.toolCalls).toEqual([{ id: expect.any(String), name: "get_weather", arguments: JSON.stringify({ city: "Oslo" }) }]);
    expect((await admin.runs.get({ id: answer.run.id })).toolCalls).toEqual(answer.run.toolCalls);

    const streamed = await post(keys["run"]!.key, { variables: { city: "Oslo" }, stream: true }, "support%2Fweather");
    const done = (await eventsOf(streamed)).at(-1)!;
    expect(done.event).toBe("done");
    expect(runtimeRunResult.parse(done.data).run.toolCalls).toEqual([{ id: expect.any(String), name: "get_weather", arguments: JSON.stringify({ city: "Oslo" }) }]);
  });

  it("says whether the answer matched the response format, and why not", async () => {
    provider.answer.text = JSON.stringify({ rain: true });
    const matched = runtimeRunResult.parse(await (await post(keys["run"]!.key, { variables: { city: "Oslo" } }, "support%2Fweather")).json());
    expect(matched.run).toMatchObject({ schemaMatched: true, schemaProblem: null, toolCalls: [] });
    provider.answer.text = JSON.stringify({ rain: "maybe" });
    const missed = runtimeRunResult.parse(await (await post(keys["run"]!.key, { variables: { city: "Oslo" } }, "support%2Fweather")).json());
    expect(missed.run).toMatchObject({ schemaMatched: false, schemaProblem: expect.stringContaining("rain") });
  });
});

describe("a run answered whole and the same run streamed", () => {
  /** What may differ between two runs of the same answer: the run's id, its times, the provider's id of a tool call. */
  const sameParts = <T extends { id: string; ttftMs: number | null; totalMs: number; toolCalls?: unknown }>({ id: _id, ttftMs: _ttft, totalMs: _total, toolCalls, ...rest }: T) => ({
    ...rest,
    toolCalls: (toolCalls as { id: string }[] | undefined)?.map((call) => ({ ...call, id: "<id>" })),
  });
  const recorded = async (id: string) => {
    const { createdAt: _createdAt, ...row } = await runRow(id);
    return sameParts(row);
  };

  /**
   * The run asked for whole (the provider asked for one JSON body) and streamed (its events): the same
   * answer (the JSON body, the last event's) and the same recorded run. Returns the whole answer's body.
   */
  async function bothWays(body: Record<string, unknown>, name = "support/reply") {
    const whole = await post(keys["run"]!.key, body, name);
    const wholeBody = (await whole.json()) as Record<string, unknown>;
    expect((provider.calls.at(-1)!.body as { stream?: boolean }).stream).toBeFalsy();
    const streamed = await post(keys["run"]!.key, { ...body, stream: true }, name);
    expect(streamed.status).toBe(200);
    const last = (await eventsOf(streamed)).at(-1)!;
    expect((provider.calls.at(-1)!.body as { stream?: boolean }).stream).toBe(true);
    if (whole.status === 200) {
      expect(last.event).toBe("done");
      const [a, b] = [runtimeRunResult.parse(wholeBody), runtimeRunResult.parse(last.data)];
      expect({ ...a, run: sameParts(a.run) }).toEqual({ ...b, run: sameParts(b.run) });
      expect(await recorded(a.run.id)).toEqual(await recorded(b.run.id));
    } else {
      expect(whole.status).toBe(502);
      expect(last.event).toBe("error");
      const { run, ...error } = last.data as { run: RuntimeRunResult["run"] };
      expect(wholeBody).toEqual(error);
      // The two runs just recorded: the streamed one is named by its error event, the whole one is the other
      // (two runs may share a created_at, so their order cannot tell them apart).
      const latest = await h.database.db.promptRun.findMany({ orderBy: [{ createdAt: "desc" }, { id: "asc" }], take: 2, select: { id: true } });
      expect(latest.map((row) => row.id)).toContain(run.id);
      const wholeRow = latest.find((row) => row.id !== run.id)!;
      expect(await recorded(wholeRow.id)).toEqual(await recorded(run.id));
    }
    return wholeBody;
  }

  /** The cost in JavaScript's arithmetic (runs.ts's costAt), which the insert's SQL must give to the bit. */
  const costOf = (price: { inputPerMillion: number; outputPerMillion: number }, run: RuntimeRunResult["run"]) =>
    (run.inputTokens! * price.inputPerMillion + run.outputTokens! * price.outputPerMillion) / 1_000_000;

  it("a text answer, at the built-in price, at the organization's own and at none", async () => {
    const builtIn = runtimeRunResult.parse(await bothWays({ variables: { customer: "Ada", topic: "billing" } }));
    const price = DEFAULT_MODEL_PRICES.find((entry) => entry.model === "gpt-4o-mini")!;
    expect(builtIn.run.cost).toBe(costOf(price, builtIn.run));

    const own = { inputPerMillion: 1.1, outputPerMillion: 3.3 };
    await admin.providers.setPrice({ organizationId: acmeId, model: "house-model", ...own });
    const priced = runtimeRunResult.parse(await bothWays({ model: "house-model", variables: { customer: "Bo", topic: "shipping" } }));
    expect(priced.run.cost).toBe(costOf(own, priced.run));

    const unpriced = runtimeRunResult.parse(await bothWays({ model: "local-llama", variables: { customer: "Cy", topic: "billing" } }));
    expect(unpriced.run.cost).toBeNull();
  });

  it("a tool call, and a JSON answer checked against the response format", async () => {
    try {
      provider.answer.toolCall = { name: "get_weather", arguments: { city: "Oslo" } };
      expect(runtimeRunResult.parse(await bothWays({ variables: { city: "Oslo" } }, "support%2Fweather")).run.toolCalls).toHaveLength(1);
      provider.answer.toolCall = null;
      provider.answer.text = JSON.stringify({ rain: "maybe" });
      expect(runtimeRunResult.parse(await bothWays({ variables: { city: "Oslo" } }, "support%2Fweather")).run.schemaMatched).toBe(false);
    } finally {
      provider.answer.toolCall = null;
      provider.answer.text = null;
    }
  });

  it("a whole answer past the output's limit is cut, and still records the tokens and cost the call used", async () => {
    try {
      provider.answer.text = "word ".repeat(Math.ceil(RUN_OUTPUT_MAX_CHARS / 5) + 10);
      const whole = await post(keys["run"]!.key, { variables: { customer: "Ada", topic: "billing" } }, "support/reply");
      expect(whole.status).toBe(200);
      const { output, run } = runtimeRunResult.parse(await whole.json());
      expect(output).toHaveLength(RUN_OUTPUT_MAX_CHARS);
      expect(run.inputTokens).toBeGreaterThan(0);
      expect(run.outputTokens).toBeGreaterThan(0);
      expect(run.cost).toBeGreaterThan(0);
    } finally {
      provider.answer.text = null;
    }
  });

  it.each([401, 500])("a provider's %i", async (status) => {
    provider.failWith = status;
    expect(runtimeError.parse(await bothWays({ variables: { customer: "Ada", topic: "billing" } })).error).toMatchObject({ code: "BAD_GATEWAY", providerStatus: status });
  });
});
