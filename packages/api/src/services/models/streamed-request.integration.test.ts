// A streamed answer reaches the SDKs as undici's own body stream (outbound.ts's providerRequest), not
// fetch's: it must read as fetch's did. A compressed stream is decoded piece by piece, leaving the loop
// or aborting closes the provider's connection, and a connection cut mid-answer fails the call as
// fetch's body would. A local server stands in for the provider.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createGzip } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerFetch } from "../platform/outbound.ts";
import { streamModelAnswer, type OpenConnection, type StreamPiece } from "./provider-client.ts";
import { wholeEvents } from "./whole-events.ts";
import { anthropicEvent, anthropicStart, openaiEvent } from "../../../testing/provider-events.ts";

const anthropicText = (text: string) => anthropicEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } });
const anthropicEnd =
  anthropicEvent({ type: "content_block_stop", index: 0 }) +
  anthropicEvent({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 3 } }) +
  anthropicEvent({ type: "message_stop" });
const words = ["Once ", "upon ", "a ", "time"];

/** Each answer's events, by kind: the words as text pieces, then the end. */
const events = {
  openai: [openaiEvent({ role: "assistant", content: "" }), ...words.map((word) => openaiEvent({ content: word })), "data: [DONE]\n\n"],
  anthropic: [anthropicStart, anthropicEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }), ...words.map(anthropicText), anthropicEnd],
};
/** The head of an answer that is a tool call, its arguments cut short (the rest never comes). */
const halfToolCall = {
  openai: openaiEvent({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "delete_account", arguments: '{"id": "12' } }] }),
  anthropic:
    anthropicStart +
    anthropicEvent({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "delete_account", input: {} } }) +
    anthropicEvent({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"id": "12' } }),
};

/** The test's way to see the provider's side: each answer's close. */
let closed: Promise<void>[] = [];
let mode: "gzip" | "hold" | "cut" | "plain" | "half-tool-call" = "gzip";

function answer(kind: "openai" | "anthropic", res: ServerResponse) {
  const list = events[kind];
  closed.push(new Promise((resolve) => res.on("close", () => resolve())));
  if (mode === "gzip") {
    // Compressed, each event flushed as it goes: the client decodes pieces as they come.
    res.writeHead(200, { "content-type": "text/event-stream", "content-encoding": "gzip" });
    const gzip = createGzip();
    gzip.pipe(res);
    for (const event of list) gzip.write(event, () => gzip.flush());
    gzip.end();
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  if (mode === "plain") return void res.end(list.join(""));
  if (mode === "half-tool-call") return void res.write(halfToolCall[kind]);
  // The head of the answer and its first word; then held open, or the connection cut.
  res.write(list.slice(0, kind === "openai" ? 2 : 3).join(""), () => {
    if (mode === "cut") res.socket?.destroy();
  });
}

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  req.resume();
  req.on("end", () => answer(req.url?.includes("/messages") ? "anthropic" : "openai", res));
});
let baseUrl = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const kinds = ["openai-compatible", "anthropic"] as const;
const connectionOf = (kind: (typeof kinds)[number]): OpenConnection => ({ kind, baseUrl: kind === "anthropic" ? baseUrl : `${baseUrl}/v1`, apiKey: "sk-streamed-0001" });
const ask = (kind: (typeof kinds)[number], signal?: AbortSignal) =>
  streamModelAnswer(connectionOf(kind), { allowPrivate: true, timeoutMs: 10_000, signal }, { model: "m", input: { type: "text", text: "A story" }, parameters: {} });
const textOf = (pieces: StreamPiece[]) => pieces.flatMap((piece) => (piece.type === "text" ? [piece.text] : [])).join("");

describe("a streamed answer read from undici's body", () => {
  it.each(kinds)("%s: a gzip-compressed event stream is decoded, every piece in order", async (kind) => {
    mode = "gzip";
    const pieces: StreamPiece[] = [];
    for await (const piece of ask(kind)) pieces.push(piece);
    expect(textOf(pieces)).toBe(words.join(""));
  });

  it.each(kinds)("%s: leaving the loop after the first piece closes the provider's connection", async (kind) => {
    mode = "hold";
    closed = [];
    for await (const piece of ask(kind)) {
      if (piece.type === "text") break;
    }
    // The answer was held open by the server: only the client's close ends it.
    await expect(closed[0]).resolves.toBeUndefined();
  });

  it.each(kinds)("%s: an abort after the first piece ends the answer and closes the provider's connection", async (kind) => {
    mode = "hold";
    closed = [];
    const controller = new AbortController();
    const pieces: StreamPiece[] = [];
    const reading = (async () => {
      for await (const piece of ask(kind, controller.signal)) {
        pieces.push(piece);
        if (piece.type === "text") controller.abort();
      }
    })();
    // As with fetch: the SDKs end (or fail with their abort error) once the signal is aborted.
    await reading.catch((error: unknown) => expect((error as Error).name).toMatch(/Abort/));
    expect(textOf(pieces)).toBe(words[0]);
    await expect(closed[0]).resolves.toBeUndefined();
  });

  it.each(kinds)("%s: an abort while a tool call is coming ends the answer without the call's half", async (kind) => {
    mode = "half-tool-call";
    closed = [];
    const controller = new AbortController();
    const pieces: StreamPiece[] = [];
    const reading = (async () => {
      for await (const piece of ask(kind, controller.signal)) {
        pieces.push(piece);
        if (piece.type === "toolCallText") controller.abort();
      }
    })();
    await reading.catch((error: unknown) => expect((error as Error).name).toMatch(/Abort/));
    expect(pieces.some((piece) => piece.type === "toolCallText")).toBe(true);
    expect(pieces.filter((piece) => piece.type === "toolCall")).toEqual([]);
    await expect(closed[0]).resolves.toBeUndefined();
  });

  it.each(kinds)("%s: a connection cut mid-answer fails the call as fetch's body did (TypeError terminated)", async (kind) => {
    mode = "cut";
    const pieces: StreamPiece[] = [];
    const failure = await (async () => {
      for await (const piece of ask(kind)) pieces.push(piece);
    })().then(
      () => null,
      (error: unknown) => error,
    );
    expect(textOf(pieces)).toBe(words[0]);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe("terminated");
  });

  it("an event stream answered to a call that asked for none is read whole by text(), as fetch's is (the connection not left unread)", async () => {
    mode = "plain";
    for (const fetchAnswer of [providerFetch(true, { streams: false }), wholeEvents(providerFetch(true, { streams: false }))]) {
      const response = await fetchAnswer(`${baseUrl}/v1/chat/completions`, { method: "POST", body: "{}" });
      expect(await response.text()).toBe(events.openai.join(""));
    }
  });
});
