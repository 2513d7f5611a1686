// The provider client and the tests' provider agree with the official SDKs on both wire protocols:
// JSON answers with usage, streamed answers (OpenAI's usage chunk only when asked for), a slow first
// token, and a stream that the client leaves is no longer written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { fakeAnswerText, startFakeProvider, type FakeProvider } from "../../../testing/fake-provider.ts";
import { providerFetch } from "../platform/outbound.ts";
import { streamModelAnswer, type StreamPiece } from "./provider-client.ts";

let provider: FakeProvider;
beforeAll(async () => {
  provider = await startFakeProvider();
});
afterAll(() => provider.close());

/** `streams`: whether the client's calls ask for a stream (a call that asks for none is read whole before fetch resolves). */
const openai = (streams = false) => new OpenAI({ apiKey: provider.apiKey, baseURL: provider.openaiBaseUrl, fetch: providerFetch(true, { streams }), maxRetries: 0 });
const anthropic = () => new Anthropic({ apiKey: provider.apiKey, baseURL: provider.anthropicBaseUrl, fetch: providerFetch(true, { streams: false }), maxRetries: 0 });
const messages = [{ role: "user" as const, content: "Hello there" }];

describe("JSON answers", () => {
  it("OpenAI's chat completion: the echo, a stop reason and the usage", async () => {
    const answer = await openai().chat.completions.create({ model: "gpt-4o-mini", messages });
    expect(answer.choices[0]).toMatchObject({ message: { role: "assistant", content: fakeAnswerText("Hello there") }, finish_reason: "stop" });
    expect(answer.usage).toEqual({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
  });

  it("Anthropic's message: a text block, end_turn and the usage", async () => {
    const answer = await anthropic().messages.create({ model: "claude-haiku-4-5", max_tokens: 100, messages });
    expect(answer.content).toEqual([{ type: "text", text: fakeAnswerText("Hello there") }]);
    expect(answer).toMatchObject({ stop_reason: "end_turn", usage: { input_tokens: 2, output_tokens: 3 } });
  });
});

describe("streamed answers", () => {
  it("OpenAI: no usage chunk unless stream_options.include_usage asks for it", async () => {
    const chunks = [];
    for await (const chunk of await openai(true).chat.completions.create({ model: "gpt-4o-mini", messages, stream: true })) chunks.push(chunk);
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe(fakeAnswerText("Hello there"));
  });

  it.each(["openai-compatible", "anthropic"] as const)("%s through the client: pieces, then the usage", async (kind) => {
    const connection = { kind, baseUrl: kind === "anthropic" ? provider.anthropicBaseUrl : provider.openaiBaseUrl, apiKey: provider.apiKey };
    const pieces: StreamPiece[] = [];
    for await (const piece of streamModelAnswer(connection, { allowPrivate: true, timeoutMs: 5_000 }, { model: "m", input: { type: "text", text: "Hello there" }, parameters: {} })) {
      pieces.push(piece);
    }
    const text = pieces.flatMap((piece) => (piece.type === "text" ? [piece.text] : []));
    expect(text.length).toBeGreaterThan(1);
    expect(text.join("")).toBe(fakeAnswerText("Hello there"));
    expect(pieces.filter((piece) => piece.type === "usage").at(-1)).toMatchObject({ type: "usage", outputTokens: 3 });
  });

  it("a slow first token: the headers come at once, the first piece only after the delay", async () => {
    provider.answer.firstTokenDelayMs = 1_000;
    try {
      const started = performance.now();
      const stream = await openai(true).chat.completions.create({ model: "gpt-4o-mini", messages, stream: true });
      const headersAfter = performance.now() - started;
      let firstAfter = 0;
      for await (const chunk of stream) if (!firstAfter && chunk.choices[0]?.delta.content) firstAfter = performance.now() - started;
      // The gap, not absolute times: a busy machine delays both ends alike.
      expect(firstAfter - headersAfter).toBeGreaterThanOrEqual(500);
    } finally {
      provider.answer.firstTokenDelayMs = 0;
    }
  });
});
