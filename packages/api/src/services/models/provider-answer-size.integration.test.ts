// A provider's whole answer (not streamed: an evaluation's case, an API run without a stream) is read up
// to BUFFERED_ANSWER_MAX_BYTES, as sent and once decompressed: a provider that answers endlessly, or a
// small gzip that inflates past the cap, fails the call as a provider failure, saying why, and the
// server goes on answering calls. A local server stands in for the provider.
import { randomUUID } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_MSG } from "@promptly/shared";
import { BUFFERED_ANSWER_MAX_BYTES } from "../platform/outbound.ts";
import { completeModelAnswer, describeProviderError } from "./provider-client.ts";

const apiKey = "sk-answer-size-0001";
const completion = (text: string) =>
  JSON.stringify({
    id: "chatcmpl-1", object: "chat.completion", created: 0, model: "m",
    choices: [{ index: 0, finish_reason: "stop", logprobs: null, message: { role: "assistant", content: text, refusal: null } }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });

const MiB = 1024 * 1024;
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
};
let endlessWritten = 0;

/** Writes 1 MiB pieces (as the client reads them) until the client leaves, or 64 MiB. */
function writeEndlessly(res: ServerResponse) {
  const piece = Buffer.alloc(MiB, 0x20);
  endlessWritten = 0;
  const write = () => {
    while (!res.destroyed && endlessWritten < 64 * MiB) {
      endlessWritten += piece.length;
      if (!res.write(piece)) return void res.once("drain", write);
    }
    res.end();
  };
  res.on("error", () => undefined);
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
    expect(endlessWritten).toBeLessThan(64 * MiB);
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
