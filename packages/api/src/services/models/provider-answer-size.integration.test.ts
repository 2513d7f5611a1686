// A provider's answer is read up to BUFFERED_ANSWER_MAX_BYTES, whole (an evaluation's case, an API run
// without a stream: as sent and once decompressed) or streamed (a run's events, OpenAI's and
// Anthropic's alike): a provider that answers endlessly, a stream that never ends (one event without a
// line break), or a small gzip that inflates past the cap, fails the call as a provider failure, saying
// why, and the server goes on answering calls. A run's answer, its text and its tool calls together, is
// cut at the output's limit long before that. A local server stands in for the provider.
import { randomUUID } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_MSG, RUN_MSG, RUN_OUTPUT_MAX_CHARS } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createWorld } from "../../../testing/teams-support.ts";
import { BUFFERED_ANSWER_MAX_BYTES } from "../platform/outbound.ts";
import { streamRun } from "../runs/runs.ts";
import { completeModelAnswer, describeProviderError, streamModelAnswer } from "./provider-client.ts";
import { anthropicEvent, anthropicStart, openaiEvent, eventStream } from "../../../testing/provider-events.ts";

const apiKey = "sk-answer-size-0001";
const completion = (text: string) =>
  JSON.stringify({
    id: "chatcmpl-1", object: "chat.completion", created: 0, model: "m",
    choices: [{ index: 0, finish_reason: "stop", logprobs: null, message: { role: "assistant", content: text, refusal: null } }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });

const MiB = 1024 * 1024;

/** 64 KiB of a tool call's arguments, or of text. */
const many = "x".repeat(64 * 1024);
/** Text of three quarters of a run's limit, and a tool call's arguments of a half (too many with the text) or of a tenth. */
const longText = "t".repeat((RUN_OUTPUT_MAX_CHARS / 4) * 3);
const toolArguments = (length: number) => JSON.stringify({ note: "a".repeat(length - 11) });
/** What follows the head of an event that never ends (its JSON string left open): `x`s, never a line break. */
const endlessLine = Buffer.alloc(MiB, "x");
/** Some 80 KiB of gzip members that hold nothing. */
const emptyGzipMembers = Buffer.concat(Array.from({ length: 4096 }, () => gzipSync(Buffer.alloc(0))));

/** What the server answers at each path, and how much of an endless answer it wrote. */
const answers: Record<string, (res: ServerResponse) => void> = {
  // Declared too large: refused before it is read.
  "/declared/v1/chat/completions": (res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": String(BUFFERED_ANSWER_MAX_BYTES + MiB) });
    writeEndlessly(res);
  },
  // No length said (chunked): read until past the cap.
  "/endless/v1/chat/completions": (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    writeEndlessly(res);
  },
  // Some 40 KB that inflate to 40 MiB.
  "/bomb/v1/chat/completions": (res) => {
    const body = gzipSync(Buffer.concat([Buffer.from(completion("")), Buffer.alloc(BUFFERED_ANSWER_MAX_BYTES + 8 * MiB, 0x20)]));
    res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(body.length) });
    res.end(body);
  },
  "/small-gzip/v1/chat/completions": (res) => {
    const body = gzipSync(completion("compressed hello"));
    res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(body.length) });
    res.end(body);
  },
  "/plain/v1/chat/completions": (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(completion("hello"));
  },
  // Text, then a tool call past the run's limit with it, in one JSON answer.
  "/text-and-tool-whole/v1/chat/completions": (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const message = { role: "assistant", content: longText, refusal: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "note", arguments: toolArguments(RUN_OUTPUT_MAX_CHARS / 2) } }] };
    res.end(JSON.stringify({ ...JSON.parse(completion("")), choices: [{ index: 0, finish_reason: "tool_calls", logprobs: null, message }] }));
  },
  // Streamed answers that never end: a tool call whose arguments keep coming, one event without a line
  // break, one event of data lines without the blank line that ends it, text that keeps coming.
  "/tool-arguments/v1/chat/completions": (res) => {
    res.writeHead(200, eventStream);
    const head = openaiEvent({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: "" } }] });
    writeEndlessly(res, { head, piece: Buffer.from(openaiEvent({ tool_calls: [{ index: 0, function: { arguments: many } }] })), open: true });
  },
  "/one-line/v1/chat/completions": (res) => {
    res.writeHead(200, eventStream);
    writeEndlessly(res, { head: openaiEvent({ role: "assistant", content: "" }) + `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{"content":"`, piece: endlessLine, open: true });
  },
  "/data-lines/v1/chat/completions": (res) => {
    res.writeHead(200, eventStream);
    writeEndlessly(res, { head: openaiEvent({ role: "assistant", content: "" }), piece: Buffer.from(`data: ${many}\n`), open: true });
  },
  // A compressed stream of empty gzip members: nothing once decoded, endlessly.
  "/empty-gzip/v1/chat/completions": (res) => {
    res.writeHead(200, { ...eventStream, "content-encoding": "gzip" });
    writeEndlessly(res, { piece: emptyGzipMembers });
  },
  "/text/v1/chat/completions": (res) => {
    res.writeHead(200, eventStream);
    writeEndlessly(res, { head: openaiEvent({ role: "assistant", content: "" }), piece: Buffer.from(openaiEvent({ content: many })), open: true });
  },
  // Text, then a tool call past the run's limit with it (or within it), its arguments in 10,000-character pieces.
  "/text-and-tool/v1/chat/completions": (res) => textAndTool(res, RUN_OUTPUT_MAX_CHARS / 2),
  "/text-and-small-tool/v1/chat/completions": (res) => textAndTool(res, RUN_OUTPUT_MAX_CHARS / 10),
  "/tool-arguments/v1/messages": (res) => {
    res.writeHead(200, eventStream);
    const head = anthropicStart + anthropicEvent({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} } });
    writeEndlessly(res, { head, piece: Buffer.from(anthropicEvent({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: many } })), open: true });
  },
  "/one-line/v1/messages": (res) => {
    res.writeHead(200, eventStream);
    const head =
      anthropicStart + anthropicEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) +
      `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"`;
    writeEndlessly(res, { head, piece: endlessLine, open: true });
  },
};
function textAndTool(res: ServerResponse, argumentsLength: number) {
  res.writeHead(200, eventStream);
  res.write(openaiEvent({ role: "assistant", content: longText }));
  res.write(openaiEvent({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "note", arguments: "" } }] }));
  const text = toolArguments(argumentsLength);
  for (let at = 0; at < text.length; at += 10_000) res.write(openaiEvent({ tool_calls: [{ index: 0, function: { arguments: text.slice(at, at + 10_000) } }] }));
  res.end(openaiEvent({}) + "data: [DONE]\n\n");
}

/** How much of the last endless answer the server wrote (it writes only as fast as the client reads). */
let endlessWritten = 0;
/** The most an endless answer is written; a streamed one is then held open, never ended. */
const ENDLESS_MAX = 64 * MiB;

/**
 * Writes `head`, then `piece` again and again (as the client reads them) until the client leaves, or
 * until ENDLESS_MAX; then ends the answer, or with `open` holds it open without end.
 */
function writeEndlessly(res: ServerResponse, { head = "", piece = Buffer.alloc(MiB, 0x20), open = false }: { head?: string; piece?: Buffer; open?: boolean } = {}) {
  endlessWritten = 0;
  const write = () => {
    while (!res.destroyed && endlessWritten < ENDLESS_MAX) {
      endlessWritten += piece.length;
      if (!res.write(piece)) return void res.once("drain", write);
    }
    if (!open) res.end();
  };
  res.on("error", () => undefined);
  res.write(head);
  write();
}

const server = createServer((req, res) => {
  req.resume();
  (answers[new URL(req.url ?? "/", "http://localhost").pathname] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res);
});
let base = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

/** A whole answer from `path`, or its failure as a person reads it. */
async function wholeAnswer(path: string) {
  const connection = { id: randomUUID(), name: "Big", kind: "openai-compatible" as const, baseUrl: `${base}${path}/v1`, apiKey };
  try {
    const answer = await completeModelAnswer(connection, { allowPrivate: true, timeoutMs: 30_000 }, { model: "m", input: { type: "text", text: "Hello" }, parameters: {} });
    return { ok: true as const, text: answer.text };
  } catch (error) {
    return { ok: false as const, ...describeProviderError(error, connection) };
  }
}

describe("a provider's whole answer past the cap", () => {
  it("fails the call, saying the answer was too large, when its length says so", async () => {
    const failure = await wholeAnswer("/declared");
    expect(failure).toMatchObject({ ok: false, status: null, message: PROVIDER_MSG.answerTooLarge("Big", 32) });
    expect(failure).toMatchObject({ detail: expect.stringContaining("larger than 32 MiB") });
  });

  it("fails the call when the body without a length runs past the cap, read no further", async () => {
    const failure = await wholeAnswer("/endless");
    expect(failure).toMatchObject({ ok: false, status: null, message: PROVIDER_MSG.answerTooLarge("Big", 32), detail: expect.stringContaining("larger than 32 MiB") });
    expect(endlessWritten).toBeLessThan(ENDLESS_MAX);
  });

  it("fails the call when a small gzip inflates past the cap", async () => {
    const failure = await wholeAnswer("/bomb");
    expect(failure).toMatchObject({ ok: false, status: null, message: PROVIDER_MSG.answerTooLarge("Big", 32), detail: expect.stringContaining("larger than 32 MiB once decompressed") });
  });

  it("leaves answers within the cap as they were, compressed or not, after those", async () => {
    expect(await wholeAnswer("/plain")).toEqual({ ok: true, text: "hello" });
    expect(await wholeAnswer("/small-gzip")).toEqual({ ok: true, text: "compressed hello" });
  });
});

type Done = { type: "done"; run: { id: string; status: string; output: string | null; error: string | null; errorDetail: string | null; notice: string | null; totalMs: number; toolCalls: unknown } };

describe("a provider's streamed answer past the cap", () => {
  let h: Harness;
  let world: Awaited<ReturnType<typeof createWorld>>;
  let prompt: { id: string; teamId: string; organizationId: string };
  /** The provider's time limit of these runs: a run the cap ends ends long before it. */
  const timeoutMs = 30_000;

  beforeAll(async () => {
    h = await createHarness();
    h.services.config.providerTimeoutMs = timeoutMs;
    world = await createWorld(h);
    const team = await world.team();
    const created = await world.callers.editor.prompts.create({ teamId: team.id, name: "greeter", title: "Greeter", visibility: "team", type: "text", template: "Say hello.", model: "m" });
    prompt = { id: created.id, teamId: team.id, organizationId: world.organization.id };
  });
  afterAll(() => h.close());

  /** A connection named `Big <kind> <path>` whose answers come from `path` of the local server. */
  const connectionTo = (kind: "openai-compatible" | "anthropic", path: string) =>
    world.callers.orgAdmin.providers.create({ organizationId: world.organization.id, kind, name: nameOf(kind, path), baseUrl: kind === "anthropic" ? `${base}${path}` : `${base}${path}/v1`, apiKey });
  const nameOf = (kind: string, path: string) => `Big ${kind} ${path}`;

  /**
   * A streamed run (the playground's) of the prompt through a connection to `path`, to its end, and its
   * record as stored; `answer` "whole": the run asked for without a stream (the provider's answer read whole).
   */
  async function streamedRun(kind: "openai-compatible" | "anthropic", path: string, answer: "streamed" | "whole" = "streamed") {
    const connection = await connectionTo(kind, path);
    const events: unknown[] = [];
    const input = { promptId: prompt.id, version: 1, connectionId: connection.id, variables: {}, parameters: {} };
    for await (const event of await streamRun(h.services, { userId: world.accounts.editor.id }, prompt, input, undefined, undefined, answer)) events.push(event);
    const { run } = events.at(-1) as Done;
    const stored = await h.database.db.promptRun.findUniqueOrThrow({ where: { id: run.id }, select: { status: true, output: true, error: true, errorDetail: true, toolCalls: true } });
    return { run, stored };
  }

  it.each([
    ["openai-compatible", "/one-line", "one event without a line break"],
    ["anthropic", "/one-line", "one event without a line break"],
    ["openai-compatible", "/data-lines", "one event of data lines never ended"],
  ] as const)("fails a run of %s at %s (%s), saying the answer was too large, long before the timeout", async (kind, path, _what) => {
    const { run, stored } = await streamedRun(kind, path);
    const failed = { status: "failed", error: PROVIDER_MSG.answerTooLarge(nameOf(kind, path), 32), errorDetail: expect.stringContaining("larger than 32 MiB") };
    expect(run).toMatchObject({ ...failed, output: "", toolCalls: [] });
    expect(stored).toMatchObject({ ...failed, output: "", toolCalls: [] });
    // Read no further than the cap (and what the sockets hold), the call closed: it ended by the cap, not the timeout.
    expect(endlessWritten).toBeLessThan(BUFFERED_ANSWER_MAX_BYTES + 16 * MiB);
    expect(run.totalMs).toBeLessThan(timeoutMs / 3);
  });

  it("still cuts a run's endless text at the output's limit, as a run that succeeded", async () => {
    const { run, stored } = await streamedRun("openai-compatible", "/text");
    expect(run).toMatchObject({ status: "succeeded", error: null, notice: RUN_MSG.outputCut });
    expect(stored.output).toHaveLength(RUN_OUTPUT_MAX_CHARS);
    expect(endlessWritten).toBeLessThan(BUFFERED_ANSWER_MAX_BYTES);
  });

  it.each(["openai-compatible", "anthropic"] as const)("cuts a run of %s at a tool call whose arguments never end, as a long text, without the call", async (kind) => {
    const { run, stored } = await streamedRun(kind, "/tool-arguments");
    const cut = { status: "succeeded", error: null, errorDetail: null, output: "", toolCalls: [] };
    expect(run).toMatchObject({ ...cut, notice: RUN_MSG.outputCut });
    expect(stored).toMatchObject(cut);
    // Its arguments read no further than the limit (and what the sockets hold).
    expect(endlessWritten).toBeLessThan(BUFFERED_ANSWER_MAX_BYTES);
    expect(run.totalMs).toBeLessThan(timeoutMs / 3);
  });

  it.each([
    ["streamed", "/text-and-tool"],
    ["whole", "/text-and-tool-whole"],
  ] as const)("counts a tool call with the text (answer %s): past the limit together, the text is kept and the call left out", async (answer, path) => {
    const { run, stored } = await streamedRun("openai-compatible", path, answer);
    expect(run).toMatchObject({ status: "succeeded", error: null, notice: RUN_MSG.outputCut, output: longText, toolCalls: [] });
    expect(stored).toMatchObject({ output: longText, toolCalls: [] });
  });

  it("keeps a tool call that fits within the limit with the text", async () => {
    const { run } = await streamedRun("openai-compatible", "/text-and-small-tool");
    expect(run).toMatchObject({ status: "succeeded", notice: null, output: longText, toolCalls: [{ id: "call_1", name: "note", arguments: toolArguments(RUN_OUTPUT_MAX_CHARS / 10) }] });
  });

  it("fails a compressed stream past the cap as sent, though it decodes to nothing", async () => {
    const connection = { id: randomUUID(), name: "Big", kind: "openai-compatible" as const, baseUrl: `${base}/empty-gzip/v1`, apiKey };
    const failure = await (async () => {
      try {
        for await (const _piece of streamModelAnswer(connection, { allowPrivate: true, timeoutMs }, { model: "m", input: { type: "text", text: "Hello" }, parameters: {} }));
        return null;
      } catch (error) {
        return describeProviderError(error, connection);
      }
    })();
    expect(failure).toMatchObject({ status: null, message: PROVIDER_MSG.answerTooLarge("Big", 32), detail: expect.stringMatching(/larger than 32 MiB$/) });
    // Read no further than the cap (and what the sockets hold): the server would have written 64 MiB.
    expect(endlessWritten).toBeLessThan(BUFFERED_ANSWER_MAX_BYTES + 16 * MiB);
  });

  it("fails a reader that takes all of an endless text (a judge's), saying the answer was too large", async () => {
    const connection = { id: randomUUID(), name: "Big", kind: "openai-compatible" as const, baseUrl: `${base}/text/v1`, apiKey };
    let read = 0;
    const failure = await (async () => {
      try {
        for await (const piece of streamModelAnswer(connection, { allowPrivate: true, timeoutMs }, { model: "m", input: { type: "text", text: "Hello" }, parameters: {} })) {
          if (piece.type === "text") read += piece.text.length;
        }
        return null;
      } catch (error) {
        return describeProviderError(error, connection);
      }
    })();
    expect(failure).toMatchObject({ status: null, message: PROVIDER_MSG.answerTooLarge("Big", 32), detail: expect.stringContaining("larger than 32 MiB") });
    expect(read).toBeLessThanOrEqual(BUFFERED_ANSWER_MAX_BYTES);
    expect(endlessWritten).toBeLessThan(BUFFERED_ANSWER_MAX_BYTES + 16 * MiB);
  });
});
