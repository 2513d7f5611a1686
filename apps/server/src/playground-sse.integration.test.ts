// A run over the real HTTP server: playground.run is a tRPC subscription sent as server-sent events,
// piece by piece and uncompressed (the host does not gzip event streams: it would hold the pieces back), and a page that goes away mid-answer
// (the request aborted) aborts the provider call: its stream is closed and the run recorded as stopped.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "@promptly/api/testing";
import { fakeAnswerText, startFakeProvider, type FakeProvider } from "@promptly/api/testing/fake-provider";
import { createApp } from "./app.ts";
import { listenForTests, type TestServer } from "../test/test-server.ts";
import { playgroundEditor } from "../test/playground-editor.ts";

let harness: Harness;
let provider: FakeProvider;
let server: TestServer;
let cookie: string;
let input: { promptId: string; version: number; connectionId: string; variables: Record<string, unknown> };

beforeAll(async () => {
  [harness, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  server = await listenForTests(createApp({ services: harness.services }));
  ({ cookie, input } = await playgroundEditor(harness, provider));
});
afterAll(async () => {
  await server?.close();
  await Promise.all([harness.close(), provider.close()]);
});

type Event = { type: "delta"; text: string } | { type: "done"; run: { id: string; status: string; output: string } };

/** Opens the subscription and reads its server-sent events; `until` may end the reading (the page leaves). */
async function subscribe(until: (events: Event[]) => boolean = () => false) {
  const abort = new AbortController();
  const url = `${server.base}/trpc/playground.run?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
  const response = await fetch(url, { headers: { cookie, accept: "text/event-stream", "accept-encoding": "gzip" }, signal: abort.signal });
  const events: Event[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame.split("\n").filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trim()).join("\n");
        const named = frame.split("\n").find((line) => line.startsWith("event:"));
        if (!data || named) continue;
        events.push((JSON.parse(data) as { json: Event }).json);
      }
      if (until(events)) {
        abort.abort();
        break;
      }
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  }
  return { response, events };
}

describe("playground.run over HTTP", () => {
  it("streams the answer as server-sent events, uncompressed, and ends with the recorded run", async () => {
    const { response, events } = await subscribe();
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("content-encoding")).toBeNull();
    const deltas = events.filter((event) => event.type === "delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((event) => event.text).join("")).toBe(fakeAnswerText("Say hello."));
    const done = events.at(-1);
    expect(done).toMatchObject({ type: "done", run: { status: "succeeded", output: fakeAnswerText("Say hello.") } });
  });

  it("a page that leaves mid-answer aborts the provider call: its stream closes and the run is recorded as stopped", async () => {
    Object.assign(provider.answer, { chunkDelayMs: 20, repeat: 200 });
    const abandoned = provider.abandonedStreams;
    try {
      const { events } = await subscribe((seen) => seen.length >= 3);
      expect(events.every((event) => event.type === "delta")).toBe(true);
      await expect.poll(() => provider.abandonedStreams, { timeout: 5_000 }).toBe(abandoned + 1);
      await expect
        .poll(() => harness.database.db.promptRun.findFirst({ where: { promptId: input.promptId, status: "stopped" }, select: { error: true } }), { timeout: 5_000 })
        .toEqual({ error: "Stopped" });
    } finally {
      Object.assign(provider.answer, { chunkDelayMs: 0, repeat: 1 });
    }
  });
});
