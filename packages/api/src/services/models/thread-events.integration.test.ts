// A provider's event stream may hold events a chat completion never has: the openai SDK reads an event
// named `thread.…` (its Assistants API's) apart, printing it to the process's error output when its data is
// not JSON (with no regard to the client's logLevel) and handing it on, an object without `choices`, when it
// is. Such events are dropped before the SDK sees them: a provider cannot write to the server's log once
// per event, and the answer's own events read as they would without them. A local server stands in for the provider.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { openaiEvent } from "../../../testing/provider-events.ts";
import { streamModelAnswer, type StreamPiece } from "./provider-client.ts";

const chunk = (content: string) => openaiEvent({ content });
const answer = [
  chunk("Once "),
  "event: thread.message.delta\ndata: not JSON, the answer's text in it\n\n",
  chunk("upon "),
  'event: thread.run.created\ndata: {"id":"run_1"}\n\n',
  "event: thread.run.step.delta\n\n",
  chunk("a time"),
  "data: [DONE]\n\n",
].join("");

const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(answer);
  });
});
let baseUrl = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
afterEach(() => vi.restoreAllMocks());

it("thread.* events in a streamed answer are dropped: nothing is printed and the answer reads whole", async () => {
  const printed = vi.spyOn(console, "error");
  const pieces: StreamPiece[] = [];
  const connection = { kind: "openai-compatible" as const, baseUrl: `${baseUrl}/v1`, apiKey: "sk-thread-events-0001" };
  for await (const piece of streamModelAnswer(connection, { allowPrivate: true, timeoutMs: 10_000 }, { model: "m", input: { type: "text", text: "A story" }, parameters: {} })) {
    pieces.push(piece);
  }
  expect(printed).not.toHaveBeenCalled();
  expect(pieces.flatMap((piece) => (piece.type === "text" ? [piece.text] : [])).join("")).toBe("Once upon a time");
});
