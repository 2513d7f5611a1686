// A call that asked for no stream (an evaluation's item, Test connection) is held to its time limit to the
// end of its answer, even when the provider answers with an event stream it keeps open (a keep-alive
// comment now and then): the SDKs' own timeout ends when fetch resolves, so the answer is read whole
// before it does, and the call fails as timed out, its connection closed. A local server stands in for
// the provider.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_MSG } from "@promptly/shared";
import { completeModelAnswer, describeProviderError, listProviderModels, type OpenConnection } from "./provider-client.ts";

/** Each answer's close, as the server sees it. */
let closed: Promise<void>[] = [];

/** An event stream that never ends: a comment every 100 ms, whatever was asked. */
function trickle(res: ServerResponse) {
  closed.push(new Promise((resolve) => res.on("close", () => resolve())));
  res.writeHead(200, { "content-type": "text/event-stream" });
  const every = setInterval(() => res.write(":\n\n"), 100);
  res.on("close", () => clearInterval(every));
}

const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => trickle(res));
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
const connectionOf = (kind: (typeof kinds)[number]): OpenConnection => ({
  name: "Trickle", kind, baseUrl: kind === "anthropic" ? baseUrl : `${baseUrl}/v1`, apiKey: "sk-answer-time-0001",
});
const timeoutMs = 1_000;
/** Without the limit the call stays pending for good: the test's own time limit is ten times the call's. */
const waitsAtMost = 10 * timeoutMs;

describe("an event stream answered to a call that asked for none", () => {
  // The SDK's call asked for no stream: only the caller says so, not the words of its request (a tool's
  // schema may hold `"stream":true`; a prompt's text is escaped).
  const tools = [{ name: "configure", parameters: { type: "object", properties: { options: { type: "object", default: { stream: true } } } } }];
  const wholeCalls = [
    ["an evaluation's item, with its signal", true, { model: "m", input: { type: "text", text: "x" }, parameters: {} }],
    ['its request holding `"stream":true`, without a signal', false, { model: "m", input: { type: "text", text: 'Answer with {"stream":true}' }, parameters: {}, tools }],
  ] as const;

  it.each(kinds.flatMap((kind) => wholeCalls.map(([what, withSignal, request]) => [kind, what, withSignal, request] as const)))(
    "%s: a whole answer (%s) fails as timed out at the call's limit, the connection closed",
    async (kind, _what, withSignal, request) => {
      closed = [];
      const connection = connectionOf(kind);
      const failure = await completeModelAnswer(connection, { allowPrivate: true, timeoutMs, ...(withSignal ? { signal: new AbortController().signal } : {}) }, request).then(
        () => null,
        (error: unknown) => describeProviderError(error, connection, { timeoutMs }),
      );
      expect(failure).toMatchObject({ status: null, message: PROVIDER_MSG.timedOut("Trickle", timeoutMs) });
      await expect(closed[0]).resolves.toBeUndefined();
    },
    waitsAtMost,
  );

  it.each(kinds)(
    "%s: Test connection's model list (no signal of its own) fails as timed out at the call's limit",
    async (kind) => {
      closed = [];
      expect(await listProviderModels(connectionOf(kind), { allowPrivate: true, timeoutMs })).toMatchObject({
        ok: false, status: null, message: PROVIDER_MSG.timedOut("Trickle", timeoutMs),
      });
      await expect(closed[0]).resolves.toBeUndefined();
    },
    waitsAtMost,
  );
});
