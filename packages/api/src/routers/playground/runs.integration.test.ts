// Runs of prompt versions on models: streamed from a local server that speaks OpenAI's and Anthropic's
// APIs (through the official SDKs, as in production), always recorded (succeeded, failed with the
// provider's reason, stopped), refused before any call when the contract, the caller, the connection's
// teams or the organization's runs-at-once limit say no; and the figures per version.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MSG, PLAYGROUND_DRAFT_TTL_MS, PROVIDER_MSG, RUNTIME_MSG, RUN_MSG, RUN_OUTPUT_MAX_CHARS, type RunPromptInput } from "@promptly/shared";
import { appProcess, createHarness, type Harness } from "../../../testing/harness.ts";
import { fakeAnswerText, startFakeProvider, type FakeProvider } from "../../../testing/fake-provider.ts";
import { CALLER_KINDS, createWorld, failure, type SignedInAccount } from "../../../testing/teams-support.ts";
import { createPrompt } from "../../../testing/prompts-support.ts";
import { streamRun } from "../../services/runs/runs.ts";
import { findRunConnection } from "../../services/models/connections.ts";
import { pruneExpired } from "../../services/platform/housekeeping.ts";
import { sealSecret } from "../../services/platform/secret-box.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
let provider: FakeProvider;
let team: { id: string };
let openai: { id: string };
let anthropic: { id: string };
let prompt: { id: string };

type Api = SignedInAccount["api"];
type Event = { type: "delta"; text: string } | { type: "done"; run: { id: string; status: string; output: string; error: string | null } & Record<string, unknown> };

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  world = await createWorld(h);
  team = await world.team();
  const organizationId = world.organization.id;
  openai = await world.callers.orgAdmin.providers.create({ organizationId, kind: "openai-compatible", name: "Local", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
  anthropic = await world.callers.orgAdmin.providers.create({ organizationId, kind: "anthropic", name: "Claude", baseUrl: provider.anthropicBaseUrl, apiKey: provider.apiKey });
  prompt = await world.callers.editor.prompts.create({
    teamId: team.id, name: "greeter", title: "Greeter", visibility: "team", type: "text", template: "Say {{ word }} twice.", model: "gpt-4o-mini",
  });
});
afterAll(() => Promise.all([h.close(), provider.close()]));
afterEach(() => {
  provider.failWith = null;
  Object.assign(provider.answer, { firstTokenDelayMs: 0, chunkDelayMs: 0, repeat: 1 });
  h.services.config.providerMaxConcurrentRuns = undefined;
  h.services.config.providerTimeoutMs = 5_000;
});

const runInput = (overrides: Partial<RunPromptInput> = {}): RunPromptInput => ({
  promptId: prompt.id, version: 1, connectionId: openai.id, variables: { word: "hello" }, ...overrides,
});

/** Every event of a run, to its end. */
async function runToEnd(api: Api, input: RunPromptInput) {
  const events: Event[] = [];
  for await (const event of (await api.playground.run(input)) as AsyncIterable<Event>) events.push(event);
  const done = events.at(-1);
  if (done?.type !== "done") throw new Error("the run ended without its done event");
  return { deltas: events.filter((event) => event.type === "delta").map((event) => event.text), run: done.run };
}

const rowOf = (id: string) => h.database.db.promptRun.findUniqueOrThrow({ where: { id } });

describe("a streamed run", () => {
  it("streams the answer in pieces from an OpenAI-compatible server and records it with tokens, time to first token and cost", async () => {
    const calls = provider.calls.length;
    const { deltas, run } = await runToEnd(world.callers.editor, runInput({ parameters: { temperature: 0.2 } }));
    const answer = fakeAnswerText("Say hello twice.");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(answer);
    const sent = provider.calls.slice(calls).find((call) => call.path === "/v1/chat/completions")!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ model: "gpt-4o-mini", stream: true, stream_options: { include_usage: true }, temperature: 0.2, messages: [{ role: "user", content: "Say hello twice." }] });

    const row = await rowOf(run.id);
    expect(row).toMatchObject({
      promptId: prompt.id, version: 1, userId: world.accounts.editor.id, apiKeyId: null, connectionId: openai.id, connectionName: "Local", model: "gpt-4o-mini",
      parameters: { temperature: 0.2 }, variables: { word: "hello" }, input: { type: "text", text: "Say hello twice." }, output: answer,
      inputTokens: 3, outputTokens: answer.split(" ").length, status: "succeeded", error: null, notice: null,
    });
    expect(row.ttftMs).not.toBeNull();
    expect(row.totalMs).toBeGreaterThanOrEqual(row.ttftMs!);
    // gpt-4o-mini: $0.15 in and $0.60 out per million tokens (the built-in table).
    expect(row.cost).toBeCloseTo((3 * 0.15 + answer.split(" ").length * 0.6) / 1_000_000, 12);
    // The run the answer ends with is the recorded one as a reader gets it, its person named.
    expect(run).toEqual(await world.callers.editor.runs.get({ id: run.id }));
    expect(run.actor).toEqual({ kind: "person", name: "Ed Editor" });
  });

  it("streams from Anthropic's Messages API: the system message apart, max_tokens from the version's config", async () => {
    const chat = await world.callers.editor.prompts.create({
      teamId: team.id, name: "chat-greeter", title: "Chat greeter", visibility: "team", type: "chat", model: "claude-haiku-4-5", config: { max_tokens: 300 },
      messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Greet {{ name }}." }],
    });
    const calls = provider.calls.length;
    const { deltas, run } = await runToEnd(world.callers.editor, { promptId: chat.id, version: 1, connectionId: anthropic.id, variables: { name: "Ada" } });
    expect(deltas.join("")).toBe(fakeAnswerText("Greet Ada."));
    const sent = provider.calls.slice(calls).find((call) => call.path === "/v1/messages")!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ model: "claude-haiku-4-5", stream: true, system: "Be brief.", max_tokens: 300, messages: [{ role: "user", content: "Greet Ada." }] });
    const row = await rowOf(run.id);
    expect(row).toMatchObject({ status: "succeeded", model: "claude-haiku-4-5", parameters: { maxTokens: 300 }, inputTokens: 4, outputTokens: 3 });
    expect(row.cost).toBeCloseTo((4 * 1 + 3 * 5) / 1_000_000, 12);
  });

  it("runs two columns at once, each recorded", async () => {
    const [first, second] = await Promise.all([
      runToEnd(world.callers.editor, runInput({ variables: { word: "left" } })),
      runToEnd(world.callers.editor, runInput({ connectionId: anthropic.id, model: "claude-haiku-4-5", variables: { word: "right" } })),
    ]);
    expect(first.deltas.join("")).toBe(fakeAnswerText("Say left twice."));
    expect(second.deltas.join("")).toBe(fakeAnswerText("Say right twice."));
    expect((await rowOf(first.run.id)).status).toBe("succeeded");
    expect((await rowOf(second.run.id)).model).toBe("claude-haiku-4-5");
  });

  it("stopped midway: the provider's stream is closed and the run recorded as stopped with what came", async () => {
    Object.assign(provider.answer, { chunkDelayMs: 20, repeat: 200 });
    const abandoned = provider.abandonedStreams;
    const before = await h.database.db.promptRun.count({ where: { promptId: prompt.id, status: "stopped" } });
    let received = "";
    for await (const event of (await world.callers.editor.playground.run(runInput())) as AsyncIterable<Event>) {
      if (event.type === "delta") received += event.text;
      if (received.length > 20) break;
    }
    await expect.poll(() => provider.abandonedStreams).toBe(abandoned + 1);
    const [row] = await h.database.db.promptRun.findMany({ where: { promptId: prompt.id, status: "stopped" }, orderBy: { createdAt: "desc" }, take: 1 });
    expect(await h.database.db.promptRun.count({ where: { promptId: prompt.id, status: "stopped" } })).toBe(before + 1);
    expect(row).toMatchObject({ output: received, error: RUN_MSG.stopped });
  });

  it("cuts an answer over the size limit, with a notice, and closes the provider's stream", async () => {
    // 200,000 characters a word at a time take seconds on a busy machine: the usual 5 s timeout would race them.
    h.services.config.providerTimeoutMs = 60_000;
    provider.answer.repeat = Math.ceil(RUN_OUTPUT_MAX_CHARS / fakeAnswerText("Say hello twice.").length) + 10;
    const { deltas, run } = await runToEnd(world.callers.editor, runInput());
    expect(deltas.join("").length).toBe(RUN_OUTPUT_MAX_CHARS);
    expect(await rowOf(run.id)).toMatchObject({ status: "succeeded", notice: RUN_MSG.outputCut });
    expect((await rowOf(run.id)).output.length).toBe(RUN_OUTPUT_MAX_CHARS);
  });
});

describe("a provider's failure is a recorded run", () => {
  it.each([
    [401, PROVIDER_MSG.keyRefused("Local"), "401: Incorrect API key provided."],
    [429, PROVIDER_MSG.rateLimited("Local"), "429: Rate limit reached for requests."],
    [500, PROVIDER_MSG.providerFailed("Local", 500), "500: The server had an error while processing your request."],
  ])("%i: failed in plain words, the provider's own in errorDetail", async (status, reason, detail) => {
    provider.failWith = status;
    const { deltas, run } = await runToEnd(world.callers.editor, runInput());
    expect(deltas).toEqual([]);
    expect(run).toMatchObject({ error: reason, errorDetail: detail });
    expect(await rowOf(run.id)).toMatchObject({ status: "failed", error: reason, errorDetail: detail, output: "", inputTokens: null, cost: null, ttftMs: null });
  });

  it("a wrong key (Anthropic) is failed with the provider's 401", async () => {
    const wrong = await world.callers.orgAdmin.providers.create({
      organizationId: world.organization.id, kind: "anthropic", name: "Wrong key", baseUrl: provider.anthropicBaseUrl, apiKey: "sk-wrong",
    });
    const { run } = await runToEnd(world.callers.editor, runInput({ connectionId: wrong.id, model: "claude-haiku-4-5" }));
    expect(await rowOf(run.id)).toMatchObject({ status: "failed", error: PROVIDER_MSG.keyRefused("Wrong key"), errorDetail: "401: invalid x-api-key", connectionName: "Wrong key" });
  });

  it("a provider that quotes the connection's key: the key is in neither the answer nor the record", async () => {
    const key = "sk-ant-quotedKey0123456789abcdefWXYZ";
    const quoting = await world.callers.orgAdmin.providers.create({
      organizationId: world.organization.id, kind: "anthropic", name: "Quoting", baseUrl: provider.anthropicBaseUrl, apiKey: key,
    });
    provider.failMessage = `invalid x-api-key: ${key}`;
    try {
      const { run } = await runToEnd(world.callers.editor, runInput({ connectionId: quoting.id, model: "claude-haiku-4-5" }));
      expect(run).toMatchObject({ error: PROVIDER_MSG.keyRefused("Quoting"), errorDetail: "401: invalid x-api-key: [redacted]" });
      expect(await rowOf(run.id)).toMatchObject({ status: "failed", error: run.error, errorDetail: run.errorDetail });
    } finally {
      provider.failMessage = null;
    }
  });

  it("a provider slower than the timeout: failed, saying so", async () => {
    h.services.config.providerTimeoutMs = 1_000;
    provider.answer.firstTokenDelayMs = 3_000;
    const { run } = await runToEnd(world.callers.editor, runInput());
    expect(await rowOf(run.id)).toMatchObject({ status: "failed", error: PROVIDER_MSG.timedOut("Local", 1_000) });
  });
});

describe("what a process keeps of a connection (its opened key, its sockets)", () => {
  it("follows the connection: a replaced key is the next run's, a new base URL is called, a removed connection runs no more", async () => {
    const changing = await world.callers.orgAdmin.providers.create({
      organizationId: world.organization.id, kind: "openai-compatible", name: "Changing", baseUrl: provider.openaiBaseUrl, apiKey: "sk-old-key-0000",
    });
    const statusOf = async () => (await runToEnd(world.callers.editor, runInput({ connectionId: changing.id }))).run;
    expect(await statusOf()).toMatchObject({ status: "failed", error: PROVIDER_MSG.keyRefused("Changing") });
    await world.callers.orgAdmin.providers.update({ id: changing.id, apiKey: provider.apiKey });
    expect(await statusOf()).toMatchObject({ status: "succeeded", output: fakeAnswerText("Say hello twice.") });
    await world.callers.orgAdmin.providers.update({ id: changing.id, apiKey: "sk-other-key-1111" });
    expect(await statusOf()).toMatchObject({ status: "failed", error: PROVIDER_MSG.keyRefused("Changing") });

    // A base URL where nothing listens: a port a server of our own held and gave back.
    const { createServer } = await import("node:net");
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    await world.callers.orgAdmin.providers.update({ id: changing.id, apiKey: provider.apiKey, baseUrl: `http://127.0.0.1:${closedPort}/v1` });
    expect(await statusOf()).toMatchObject({ status: "failed", error: PROVIDER_MSG.unreachable("Changing", `127.0.0.1:${closedPort}`), errorDetail: `connect ECONNREFUSED 127.0.0.1:${closedPort}` });
    await world.callers.orgAdmin.providers.update({ id: changing.id, apiKey: provider.apiKey, baseUrl: provider.openaiBaseUrl });
    expect(await statusOf()).toMatchObject({ status: "succeeded" });

    await world.callers.orgAdmin.providers.delete({ id: changing.id });
    const calls = provider.calls.length;
    expect(await failure(world.callers.editor.playground.run(runInput({ connectionId: changing.id })))).toEqual({ code: "NOT_FOUND", message: PROVIDER_MSG.notFound });
    expect(provider.calls.length).toBe(calls);
  });
});

describe("a run on a connection whose key no longer opens (sealed under another app secret)", () => {
  it("is refused with the reason by the connection's name, calling nobody", async () => {
    const resealed = await world.callers.orgAdmin.providers.create({ organizationId: world.organization.id, kind: "openai-compatible", name: "Resealed", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
    const foreign = sealSecret("another-app-secret-another-app-secret-0", "provider key v1", resealed.id, Buffer.from(provider.apiKey));
    await h.services.db.$executeRaw`UPDATE provider_connections SET api_key_sealed = ${foreign} WHERE id = ${resealed.id}::uuid`;
    const calls = provider.calls.length;
    const refused = await runToEnd(world.callers.editor, runInput({ connectionId: resealed.id })).then(
      () => null,
      (error: { code?: string; message: string }) => ({ code: error.code, message: error.message }),
    );
    expect(refused).toEqual({ code: "PRECONDITION_FAILED", message: PROVIDER_MSG.keyUnreadable("Resealed") });
    expect(provider.calls.length).toBe(calls);
  });
});

describe("refused before any call, and recorded nowhere", () => {
  const nothingHappens = async (work: () => Promise<void>) => {
    const calls = provider.calls.length;
    const runs = await h.database.db.promptRun.count();
    await work();
    expect(provider.calls.length).toBe(calls);
    expect(await h.database.db.promptRun.count()).toBe(runs);
  };

  it("variables that break the contract: the same problems compile gives", async () => {
    await nothingHappens(async () => {
      expect(await failure(world.callers.editor.playground.run(runInput({ variables: {} })))).toEqual({
        code: "BAD_REQUEST", message: `${RUNTIME_MSG.compileFailed}'word' is required`,
      });
    });
  });

  it("a connection limited to other teams", async () => {
    const other = await world.team("Other");
    const limited = await world.callers.orgAdmin.providers.create({
      organizationId: world.organization.id, kind: "openai-compatible", name: "Other team's", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey, teamIds: [other.id],
    });
    await nothingHappens(async () => {
      expect(await failure(world.callers.editor.playground.run(runInput({ connectionId: limited.id })))).toEqual({ code: "FORBIDDEN", message: RUN_MSG.connectionNotForTeam });
    });
    await world.callers.orgAdmin.providers.update({ id: limited.id, teamIds: [other.id, team.id] });
    expect((await runToEnd(world.callers.editor, runInput({ connectionId: limited.id }))).run.status).toBe("succeeded");
  });

  it("a model the connection does not offer", async () => {
    const narrow = await world.callers.orgAdmin.providers.create({
      organizationId: world.organization.id, kind: "openai-compatible", name: "Narrow", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey, models: ["local-llama"],
    });
    await nothingHappens(async () => {
      expect(await failure(world.callers.editor.playground.run(runInput({ connectionId: narrow.id })))).toEqual({ code: "BAD_REQUEST", message: RUN_MSG.modelNotOffered("gpt-4o-mini") });
    });
  });

  it("over the organization's runs-at-once limit: refused with a clear message, free again once a run ends", async () => {
    h.services.config.providerMaxConcurrentRuns = 1;
    Object.assign(provider.answer, { chunkDelayMs: 20, repeat: 50 });
    const first = ((await world.callers.editor.playground.run(runInput())) as AsyncGenerator<Event>)[Symbol.asyncIterator]();
    expect((await first.next()).value).toMatchObject({ type: "delta" });
    await nothingHappens(async () => {
      expect(await failure(world.callers.admin.playground.run(runInput()))).toEqual({ code: "TOO_MANY_REQUESTS", message: RUN_MSG.tooManyRuns(1) });
    });
    await first.return(undefined);
    Object.assign(provider.answer, { chunkDelayMs: 0, repeat: 1 });
    expect((await runToEnd(world.callers.admin, runInput())).run.status).toBe("succeeded");
  });
});

describe("the runs-at-once place", () => {
  it("is freed when the caller left while the run was being prepared, even if its answer is never read", async () => {
    h.services.config.providerMaxConcurrentRuns = 1;
    const left = new AbortController();
    left.abort();
    const organizationId = world.organization.id;
    const input = { ...runInput(), variables: { word: "hello" }, parameters: {} };
    const unread = await streamRun(h.services, { userId: world.accounts.editor.id }, { id: prompt.id, teamId: team.id, organizationId }, input, left.signal);
    expect((await runToEnd(world.callers.admin, runInput())).run.status).toBe("succeeded");
    // Read after all, it is recorded as stopped, not run.
    const events = [];
    for await (const event of unread) events.push(event);
    expect(events).toEqual([expect.objectContaining({ type: "done", run: expect.objectContaining({ status: "stopped" }) })]);
  });
});

describe("runs that end at once", () => {
  it("are recorded together, each run answered with its own row: its input, output, tokens and cost, committed", async () => {
    h.services.config.providerMaxConcurrentRuns = 20;
    // A process of its own, its statements counted.
    const other = appProcess(h);
    try {
      const organizationId = world.organization.id;
      // Each run's words, so its text, answer and token counts are its own.
      const words = Array.from({ length: 20 }, (_, i) => Array.from({ length: i + 1 }, () => `w${i}`).join(" "));
      const before = other.queries();
      const ends = await Promise.all(
        words.map(async (word) => {
          const events: unknown[] = [];
          const input = { ...runInput(), variables: { word }, parameters: {} };
          for await (const event of await streamRun(other.services, { userId: world.accounts.editor.id }, { id: prompt.id, teamId: team.id, organizationId }, input)) events.push(event);
          return { word, done: events.at(-1) as Extract<Event, { type: "done" }> };
        }),
      );
      // Each run alone sends three statements (its version, its connection, its record): fewer, the records were written together.
      expect(other.queries() - before).toBeLessThan(3 * words.length);
      expect(new Set(ends.map(({ done }) => done.run.id)).size).toBe(words.length);
      for (const { word, done } of ends) {
        const text = `Say ${word} twice.`;
        const answer = fakeAnswerText(text);
        const [inputTokens, outputTokens] = [text.split(" ").length, answer.split(" ").length];
        expect(done.run).toMatchObject({ status: "succeeded", variables: { word }, input: { type: "text", text }, output: answer, inputTokens, outputTokens });
        expect(done.run.cost).toBeCloseTo((inputTokens * 0.15 + outputTokens * 0.6) / 1_000_000, 12);
        // What the run answered is its row, as another connection reads it once the run has ended.
        expect(done.run).toEqual(await world.callers.editor.runs.get({ id: done.run.id }));
      }
    } finally {
      await other.close();
    }
  });

  it("a record refused (its prompt deleted while it ran) fails its own run only: the others written with it are recorded", async () => {
    h.services.config.providerMaxConcurrentRuns = 20;
    Object.assign(provider.answer, { chunkDelayMs: 10, repeat: 2 });
    const organizationId = world.organization.id;
    const doomed = await world.callers.editor.prompts.create({ teamId: team.id, name: "doomed", title: "Doomed", visibility: "team", type: "text", template: "Say {{ word }} twice.", model: "gpt-4o-mini" });
    const runs = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const of = i % 2 ? doomed : prompt;
        const input = { ...runInput(), promptId: of.id, variables: { word: `w${i}` }, parameters: {} };
        const events = await streamRun(h.services, { userId: world.accounts.editor.id }, { id: of.id, teamId: team.id, organizationId }, input);
        // Under way: its first piece read.
        expect((await events.next()).value).toMatchObject({ type: "delta" });
        return { promptId: of.id, events };
      }),
    );
    await h.database.db.prompt.delete({ where: { id: doomed.id } });
    const ends = await Promise.all(
      runs.map(async ({ promptId, events }) => {
        try {
          let last: unknown;
          for await (const event of events) last = event;
          return { promptId, done: last as Extract<Event, { type: "done" }> };
        } catch (error) {
          return { promptId, error };
        }
      }),
    );
    for (const end of ends) {
      // Refused by its prompt's foreign key: a run of a prompt that is gone (NOT_FOUND), nothing written.
      if (end.promptId === doomed.id) expect(end).toMatchObject({ error: expect.objectContaining({ code: "NOT_FOUND", message: MSG.notFound }) });
      else expect((await rowOf(end.done!.run.id)).status).toBe("succeeded");
    }
  });
});

describe("who may run (team editors and above, organization admins)", () => {
  const EXPECTED: Record<(typeof CALLER_KINDS)[number], string> = {
    anonymous: "UNAUTHORIZED",
    outsider: "NOT_FOUND",
    orgMember: "NOT_FOUND",
    viewer: "FORBIDDEN",
    editor: "OK",
    admin: "OK",
    orgAdmin: "OK",
    superUser: "OK",
  };
  it.each(CALLER_KINDS)("playground.run as %s", async (kind) => {
    const runs = await h.database.db.promptRun.count();
    let result = "OK";
    try {
      await runToEnd(world.callers[kind], runInput());
    } catch (error) {
      result = (error as { code: string }).code;
    }
    expect(result).toBe(EXPECTED[kind]);
    expect(await h.database.db.promptRun.count()).toBe(runs + (result === "OK" ? 1 : 0));
  });

  it.each(CALLER_KINDS)("playground.stage as %s", async (kind) => {
    const drafts = await h.database.db.playgroundDraft.count();
    let result = "OK";
    try {
      await world.callers[kind].playground.stage({ promptId: prompt.id, template: "Say {{ word }} once." });
    } catch (error) {
      result = (error as { code: string }).code;
    }
    expect(result).toBe(EXPECTED[kind]);
    expect(await h.database.db.playgroundDraft.count()).toBe(drafts + (result === "OK" ? 1 : 0));
  });

  it.each(CALLER_KINDS)("playground.connections as %s", async (kind) => {
    let result = "OK";
    try {
      await world.callers[kind].playground.connections({ promptId: prompt.id });
    } catch (error) {
      result = (error as { code: string }).code;
    }
    expect(result).toBe(EXPECTED[kind]);
  });

  it("offers the runners the connections open to the prompt's team, by name, with nothing of their keys", async () => {
    const organizationId = world.organization.id;
    const elsewhere = await world.team("Elsewhere");
    const mine = await world.callers.orgAdmin.providers.create({
      organizationId, kind: "openai-compatible", name: "A mine", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey, models: ["local-llama"], teamIds: [team.id, elsewhere.id],
    });
    const theirs = await world.callers.orgAdmin.providers.create({ organizationId, kind: "openai", name: "B theirs", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey, teamIds: [elsewhere.id] });
    const offered = await world.callers.editor.playground.connections({ promptId: prompt.id });
    expect(offered.map((connection) => connection.id)).not.toContain(theirs.id);
    expect(offered.find((connection) => connection.id === mine.id)).toEqual({ id: mine.id, kind: "openai-compatible", name: "A mine", models: ["local-llama"], lastTest: null });
    expect(offered.map((connection) => connection.name)).toEqual([...offered.map((connection) => connection.name)].sort());
    expect(offered.map((connection) => connection.id)).toEqual(expect.arrayContaining([openai.id, anthropic.id]));
    await world.callers.orgAdmin.providers.delete({ id: mine.id });
    await world.callers.orgAdmin.providers.delete({ id: theirs.id });
  });
});

describe("the runs of a prompt", () => {
  it("are listed (newest first, by version, model and status, a page at a time), opened, and counted per version, by every reader", async () => {
    const fresh = await createPrompt(world.callers.editor, team.id, { visibility: "team", template: "Tell {{ question }}." });
    await world.callers.editor.promptVersions.create({ promptId: fresh.id, type: "text", template: "Now tell {{ question }}.", model: "gpt-4o-mini" });
    const input = (version: number, overrides: Partial<RunPromptInput> = {}) =>
      ({ promptId: fresh.id, version, connectionId: openai.id, model: "gpt-4o-mini", variables: { question: "a joke" }, ...overrides }) satisfies RunPromptInput;
    const a = await runToEnd(world.callers.editor, input(1));
    const b = await runToEnd(world.callers.editor, input(1, { model: "local-llama" }));
    provider.failWith = 429;
    const c = await runToEnd(world.callers.editor, input(1));
    provider.failWith = null;
    const d = await runToEnd(world.callers.editor, input(2));

    const viewer = world.callers.viewer;
    const all = await viewer.runs.list({ promptId: fresh.id });
    expect(all.items.map((run) => run.id)).toEqual([d.run.id, c.run.id, b.run.id, a.run.id]);
    expect((await viewer.runs.list({ promptId: fresh.id, version: 1 })).items).toHaveLength(3);
    expect((await viewer.runs.list({ promptId: fresh.id, model: "local-llama" })).items.map((run) => run.id)).toEqual([b.run.id]);
    expect((await viewer.runs.list({ promptId: fresh.id, status: "failed" })).items.map((run) => run.id)).toEqual([c.run.id]);
    const firstPage = await viewer.runs.list({ promptId: fresh.id, limit: 3 });
    const secondPage = await viewer.runs.list({ promptId: fresh.id, limit: 3, cursor: firstPage.nextCursor! });
    expect([...firstPage.items, ...secondPage.items].map((run) => run.id)).toEqual(all.items.map((run) => run.id));
    expect(secondPage.nextCursor).toBeNull();

    const opened = await viewer.runs.get({ id: a.run.id });
    expect(opened).toMatchObject({ input: { type: "text", text: "Tell a joke." }, output: fakeAnswerText("Tell a joke."), variables: { question: "a joke" } });
    expect(await failure(world.callers.orgMember.runs.get({ id: a.run.id }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await failure(world.callers.orgMember.runs.list({ promptId: fresh.id }))).toMatchObject({ code: "NOT_FOUND" });

    const stats = await viewer.runs.stats({ promptId: fresh.id });
    expect(stats.map((row) => [row.version, row.runs, row.errorRate])).toEqual([[2, 1, 0], [1, 3, 1 / 3]]);
    const v1 = stats[1]!;
    expect(v1.p50TotalMs).not.toBeNull();
    expect(v1.p95TotalMs).toBeGreaterThanOrEqual(v1.p50TotalMs!);
    // Mean cost over the runs with a known price: gpt-4o-mini's one success (local-llama has no price, the failure no usage).
    expect(v1.meanCost).toBeCloseTo((await rowOf(a.run.id)).cost!, 12);
    expect(v1.meanOutputTokens).toBe(((await rowOf(a.run.id)).outputTokens! + (await rowOf(b.run.id)).outputTokens!) / 2);

    const analytics = await viewer.analytics.prompt({ promptId: fresh.id, days: 7 });
    expect(analytics.runs).toEqual(stats);
  });
});

describe("the playground's drafts: the edited, unsaved body, run and recorded as a draft", () => {
  const sentMessages = (from: number) => (provider.calls.slice(from).find((call) => call.path === "/v1/chat/completions")!.body as { messages: unknown }).messages;

  it("runs a text prompt's edited template, compiled with the version's contract, and records it as a draft; the saved template is not one", async () => {
    const calls = provider.calls.length;
    const edited = await runToEnd(world.callers.editor, runInput({ template: "Shout {{ word }} and {{ other }}.", variables: { word: "hi", other: "bye" } }));
    expect(sentMessages(calls)).toEqual([{ role: "user", content: "Shout hi and bye." }]);
    expect(edited.deltas.join("")).toBe(fakeAnswerText("Shout hi and bye."));
    expect(edited.run).toMatchObject({ draft: true, version: 1, input: { type: "text", text: "Shout hi and bye." } });
    expect(await rowOf(edited.run.id)).toMatchObject({ draft: true, status: "succeeded" });

    // A variable only the draft uses is a required string, as the editor would make it.
    expect(await failure(world.callers.editor.playground.run(runInput({ template: "Shout {{ word }} and {{ other }}." })))).toEqual({
      code: "BAD_REQUEST", message: `${RUNTIME_MSG.compileFailed}'other' is required`,
    });
    const untouched = await runToEnd(world.callers.editor, runInput({ template: "Say {{ word }} twice." }));
    expect(untouched.run.draft).toBe(false);
  });

  it("runs a chat prompt's edited messages; a body of the other type is refused, with no call and no record", async () => {
    const chat = await world.callers.editor.prompts.create({
      teamId: team.id, name: "chatter", title: "Chatter", visibility: "team", type: "chat", model: "gpt-4o-mini",
      messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Explain {{ topic }}." }],
    });
    const calls = provider.calls.length;
    const { run } = await runToEnd(world.callers.editor, {
      promptId: chat.id, version: 1, connectionId: openai.id, variables: { topic: "tides" },
      messages: [{ role: "system", content: "Be very brief." }, { role: "user", content: "Explain {{ topic }} to a child." }],
    });
    expect(sentMessages(calls)).toEqual([{ role: "system", content: "Be very brief." }, { role: "user", content: "Explain tides to a child." }]);
    expect(run.draft).toBe(true);

    const runs = await h.database.db.promptRun.count();
    const before = provider.calls.length;
    expect(await failure(world.callers.editor.playground.run({ promptId: chat.id, version: 1, connectionId: openai.id, variables: { topic: "tides" }, template: "Explain {{ topic }}." })))
      .toEqual({ code: "BAD_REQUEST", message: RUN_MSG.draftTemplateForChat });
    expect(await failure(world.callers.editor.playground.run(runInput({ messages: [{ role: "user", content: "Say {{ word }}." }] }))))
      .toEqual({ code: "BAD_REQUEST", message: RUN_MSG.draftMessagesForText });
    expect(provider.calls.length).toBe(before);
    expect(await h.database.db.promptRun.count()).toBe(runs);
  });

  it("continues a conversation: the compiled text is the first user message, the follow-up turns come after it", async () => {
    const calls = provider.calls.length;
    const first = fakeAnswerText("Say hello twice.");
    const { deltas, run } = await runToEnd(world.callers.editor, runInput({ followUp: [{ role: "assistant", content: first }, { role: "user", content: "Now in French." }] }));
    const conversation = [{ role: "user", content: "Say hello twice." }, { role: "assistant", content: first }, { role: "user", content: "Now in French." }];
    expect(sentMessages(calls)).toEqual(conversation);
    expect(deltas.join("")).toBe(fakeAnswerText("Now in French."));
    expect(await rowOf(run.id)).toMatchObject({ draft: true, input: { type: "chat", messages: conversation } });
  });

  it("are listed with the version's runs but left out of its figures", async () => {
    const fresh = await createPrompt(world.callers.editor, team.id, { visibility: "team", template: "Tell {{ question }}." });
    const input = { promptId: fresh.id, version: 1, connectionId: openai.id, model: "gpt-4o-mini", variables: { question: "a joke" } } satisfies RunPromptInput;
    const saved = await runToEnd(world.callers.editor, input);
    const draft = await runToEnd(world.callers.editor, { ...input, template: "Tell {{ question }} loudly, and at length.", parameters: { maxTokens: 500 } });

    const listed = await world.callers.viewer.runs.list({ promptId: fresh.id });
    expect(listed.items.map((run) => [run.id, run.draft])).toEqual([[draft.run.id, true], [saved.run.id, false]]);
    const stats = await world.callers.viewer.runs.stats({ promptId: fresh.id });
    expect(stats.map((row) => [row.version, row.runs])).toEqual([[1, 1]]);
    expect(stats[0]!.meanOutputTokens).toBe((await rowOf(saved.run.id)).outputTokens);
  });
});

describe("staged drafts: a body too long for a run's URL, posted first and run by its id", () => {
  const sentMessages = (from: number) => (provider.calls.slice(from).find((call) => call.path === "/v1/chat/completions")!.body as { messages: unknown }).messages;
  const longTemplate = `Say {{ word }} ${"and again ".repeat(6_000)}`.slice(0, 60_000);

  it("runs a staged 60,000-character template (several runs of one draft at once, each a recorded draft) as the provider receives it", async () => {
    expect(longTemplate).toHaveLength(60_000);
    // Two 60,000-character bodies at once take seconds on a busy machine: the usual 5 s timeout would race them.
    h.services.config.providerTimeoutMs = 60_000;
    const { draftId } = await world.callers.editor.playground.stage({ promptId: prompt.id, template: longTemplate });
    const calls = provider.calls.length;
    const [left, right] = await Promise.all([
      runToEnd(world.callers.editor, runInput({ draftId, variables: { word: "left" } })),
      runToEnd(world.callers.editor, runInput({ draftId, variables: { word: "right" } })),
    ]);
    const sent = provider.calls.slice(calls).filter((call) => call.path === "/v1/chat/completions").map((call) => (call.body as { messages: { content: string }[] }).messages[0]!.content);
    expect(sent.sort()).toEqual([longTemplate.replace("{{ word }}", "left"), longTemplate.replace("{{ word }}", "right")]);
    expect(await rowOf(left.run.id)).toMatchObject({ draft: true, status: "succeeded", input: { type: "text", text: longTemplate.replace("{{ word }}", "left") } });
    expect((await rowOf(right.run.id)).draft).toBe(true);
  });

  it("carries a conversation's turns: a staged follow-up continues the compiled prompt", async () => {
    const reply = `Now in French, ${"please ".repeat(3_000)}`;
    const first = fakeAnswerText("Say hello twice.");
    const { draftId } = await world.callers.editor.playground.stage({ promptId: prompt.id, followUp: [{ role: "assistant", content: first }, { role: "user", content: reply }] });
    const calls = provider.calls.length;
    const { run } = await runToEnd(world.callers.editor, runInput({ draftId }));
    expect(sentMessages(calls)).toEqual([{ role: "user", content: "Say hello twice." }, { role: "assistant", content: first }, { role: "user", content: reply }]);
    expect(run.draft).toBe(true);
  });

  it("is refused, with no call and no record, when another person's, another prompt's, expired, or named beside an inline body", async () => {
    const other = await createPrompt(world.callers.editor, team.id, { visibility: "team", template: "Say {{ word }}." });
    const mine = await world.callers.editor.playground.stage({ promptId: prompt.id, template: "Whisper {{ word }}." });
    const theirs = await world.callers.admin.playground.stage({ promptId: prompt.id, template: "Whisper {{ word }}." });
    const otherPrompts = await world.callers.editor.playground.stage({ promptId: other.id, template: "Whisper {{ word }}." });
    const expired = { code: "NOT_FOUND", message: RUN_MSG.draftExpired };
    const runs = await h.database.db.promptRun.count();
    const calls = provider.calls.length;

    expect(await failure(world.callers.editor.playground.run(runInput({ draftId: theirs.draftId })))).toEqual(expired);
    expect(await failure(world.callers.editor.playground.run(runInput({ draftId: otherPrompts.draftId })))).toEqual(expired);
    expect(await failure(world.callers.editor.playground.run(runInput({ draftId: "00000000-0000-4000-8000-000000000000" })))).toEqual(expired);
    for (const inline of [{ template: "Say {{ word }}." }, { followUp: [{ role: "user" as const, content: "More." }] }]) {
      expect(await failure(world.callers.editor.playground.run(runInput({ draftId: mine.draftId, ...inline })))).toEqual({ code: "BAD_REQUEST", message: RUN_MSG.draftWithInline });
    }
    // The stager's own draft runs, until its time is up.
    expect((await runToEnd(world.callers.editor, runInput({ draftId: mine.draftId }))).run.input).toEqual({ type: "text", text: "Whisper hello." });
    const runsBefore = await h.database.db.promptRun.count();
    h.clock.advance(PLAYGROUND_DRAFT_TTL_MS);
    try {
      expect(await failure(world.callers.editor.playground.run(runInput({ draftId: mine.draftId })))).toEqual(expired);
    } finally {
      h.clock.advance(-PLAYGROUND_DRAFT_TTL_MS);
    }
    expect(provider.calls.length).toBe(calls + 1);
    expect(await h.database.db.promptRun.count()).toBe(runsBefore);
    expect(runsBefore).toBe(runs + 1);
  });

  it("a team's API key may not stage, as it may not run from the playground (the runtime API is its door)", async () => {
    const { key } = await world.accounts.admin.api.apiKeys.create({ teamId: team.id, name: "Runner", scopes: ["run"] });
    const tool = h.client({ authorization: `Bearer ${key}` }).api;
    const drafts = await h.database.db.playgroundDraft.count();
    const refused = await failure(tool.playground.stage({ promptId: prompt.id, template: "Hum {{ word }}." }));
    expect(refused).toEqual(await failure(tool.playground.run(runInput())));
    expect(refused.code).toBe("FORBIDDEN");
    expect(await h.database.db.playgroundDraft.count()).toBe(drafts);
  });

  it("is validated with the run's own limits", async () => {
    expect(await failure(world.callers.editor.playground.stage({ promptId: prompt.id, template: "x".repeat(100_001) }))).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(RUN_MSG.draftTooLong) });
    const turns = Array.from({ length: 51 }, (_, i) => ({ role: i % 2 ? ("user" as const) : ("assistant" as const), content: "Hi." }));
    expect(await failure(world.callers.editor.playground.stage({ promptId: prompt.id, followUp: turns }))).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(RUN_MSG.followUpTooLong) });
  });

  it("expired ones are deleted by the hourly housekeeping; live ones stay", async () => {
    const db = h.database.db;
    const live = await world.callers.editor.playground.stage({ promptId: prompt.id, template: "Live {{ word }}." });
    const old = await world.callers.editor.playground.stage({ promptId: prompt.id, template: "Old {{ word }}." });
    await db.playgroundDraft.update({ where: { id: old.draftId }, data: { expiresAt: new Date(h.clock.now().getTime() - 1) } });
    const result = await pruneExpired(db, h.clock.now());
    expect(result.playgroundDrafts).toBeGreaterThanOrEqual(1);
    expect(await db.playgroundDraft.findUnique({ where: { id: old.draftId } })).toBeNull();
    expect(await db.playgroundDraft.findUnique({ where: { id: live.draftId } })).not.toBeNull();
  });
});

describe("a run of a prompt that includes another", () => {
  it("sends the version, and an edited draft, with its includes resolved; the included prompt's variables are asked for", async () => {
    const tag = "@@@langfusePrompt:name=snippets/manner|label=latest@@@";
    await world.callers.editor.prompts.create({ teamId: team.id, name: "snippets/manner", title: "Manner", visibility: "team", type: "text", template: "in a {{ manner }} voice" });
    const includer = await world.callers.editor.prompts.create({
      teamId: team.id, name: "includer", title: "Includer", visibility: "team", type: "text", template: `Say {{ word }} ${tag}.`, model: "gpt-4o-mini",
    });
    const input = runInput({ promptId: includer.id, variables: { word: "hi", manner: "soft" } });
    const { run } = await runToEnd(world.callers.editor, input);
    expect((await rowOf(run.id)).input).toEqual({ type: "text", text: "Say hi in a soft voice." });
    const draft = await runToEnd(world.callers.editor, { ...input, template: `Whisper {{ word }} ${tag}!` });
    expect((await rowOf(draft.run.id)).input).toEqual({ type: "text", text: "Whisper hi in a soft voice!" });
    expect(await failure(runToEnd(world.callers.editor, runInput({ promptId: includer.id, variables: { word: "hi" } })))).toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("what a run reads of its connection, in plain SQL", () => {
  it("is what Prisma reads of it: open to all teams, to some, with models or without, and none for an unknown id", async () => {
    const organizationId = world.organization.id;
    const elsewhere = await h.database.db.team.create({ data: { organizationId, name: "Connections elsewhere" } });
    const limited = await world.callers.orgAdmin.providers.create({
      organizationId, kind: "openai", name: "Limited", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey, models: ["a-model", "b-model"], teamIds: [team.id, elsewhere.id],
    });
    const select = { id: true, organizationId: true, kind: true, name: true, baseUrl: true, apiKeySealed: true, models: true, teams: { select: { teamId: true } } } as const;
    const byTeam = (row: { teams: { teamId: string }[] } | null) => row && { ...row, teams: [...row.teams].sort((a, b) => a.teamId.localeCompare(b.teamId)) };
    for (const id of [openai.id, anthropic.id, limited.id, "00000000-0000-4000-8000-000000000000"]) {
      expect(byTeam(await findRunConnection(h.database.db, id)), id).toEqual(byTeam(await h.database.db.providerConnection.findUnique({ where: { id }, select })));
    }
  });
});
