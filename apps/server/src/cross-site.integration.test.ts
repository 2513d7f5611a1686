// Requests from another site are refused whatever their method: a link on another page carries the
// SameSite=Lax session cookie, and playground.run, a subscription served over GET, spends the
// organization's provider key. Both tRPC paths (the query fast path and the adapter) refuse them; the
// app's own requests (same-origin) and tools that send no browser headers work as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "@promptly/api/testing";
import { fakeAnswerText, startFakeProvider, type FakeProvider } from "@promptly/api/testing/fake-provider";
import { createApp } from "./app.ts";
import { listenForTests, type TestServer } from "../test/test-server.ts";
import { playgroundEditor } from "../test/playground-editor.ts";

let harness: Harness;
let provider: FakeProvider;
let servers: { fastPath: boolean; server: TestServer }[];
let cookie: string;
let promptId: string;
let runUrl: string;

/** What the web app's EventSource sends for playground.run (besides the cookie). */
const APP_STREAM = { accept: "text/event-stream", "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" };
/** What a link on another site sends when followed. */
const LINK = { accept: "text/html,application/xhtml+xml", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };

beforeAll(async () => {
  [harness, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  servers = await Promise.all(
    [true, false].map(async (fastPath) => ({ fastPath, server: await listenForTests(createApp({ services: harness.services, trpcFastPath: fastPath })) })),
  );
  const editor = await playgroundEditor(harness, provider);
  cookie = editor.cookie;
  promptId = editor.input.promptId;
  const input = { ...editor.input, parameters: { maxTokens: 1_000_000 } };
  runUrl = `/trpc/playground.run?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
});
afterAll(async () => {
  await Promise.all((servers ?? []).map(({ server }) => server.close()));
  await Promise.all([harness.close(), provider.close()]);
});

const runs = () => harness.database.db.promptRun.count({ where: { promptId } });

/** The whole answer to `path` with the session cookie and `headers`. */
async function get(base: string, path: string, headers: Record<string, string>) {
  const response = await fetch(`${base}${path}`, { headers: { cookie, ...headers } });
  return { status: response.status, body: await response.text() };
}

describe.each([true, false])("playground.run from another site (tRPC fast path %s)", (fastPath) => {
  const base = () => servers.find((entry) => entry.fastPath === fastPath)!.server.base;

  it.each([
    ["a followed link marked cross-site", { ...LINK, "sec-fetch-site": "cross-site" }],
    ["an event stream marked cross-site", { ...APP_STREAM, "sec-fetch-site": "cross-site" }],
    ["an event stream marked same-site (another origin of the site)", { ...APP_STREAM, "sec-fetch-site": "same-site" }],
    ["an event stream with a foreign Origin", { accept: "text/event-stream", origin: "https://evil.example" }],
    ["an event stream with a foreign Origin and same-origin metadata", { ...APP_STREAM, origin: "https://evil.example" }],
  ])("%s: 403, no provider call and no run", async (_name, headers) => {
    const [before, calls] = [await runs(), provider.calls.length];
    const answer = await get(base(), runUrl, headers);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { message: "Cross-site requests are not allowed", data: { code: "FORBIDDEN", httpStatus: 403 } } });
    // The app's own run afterwards is the only one recorded: nothing of the refused one is under way.
    const own = await get(base(), runUrl, APP_STREAM);
    expect(own.status).toBe(200);
    expect(own.body).toContain(JSON.stringify(fakeAnswerText("Say hello.")));
    expect(await runs()).toBe(before + 1);
    expect(provider.calls.length).toBe(calls + 1);
  });

  it("a followed link in a browser without Sec-Fetch-Site (no Origin either): refused, no run", async () => {
    const [before, calls] = [await runs(), provider.calls.length];
    const answer = await get(base(), runUrl, { accept: "text/html,application/xhtml+xml" });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { message: "Subscriptions are served as server-sent events only: send Accept: text/event-stream" } });
    expect((await get(base(), runUrl, { accept: "text/event-stream" })).status).toBe(200);
    expect(await runs()).toBe(before + 1);
    expect(provider.calls.length).toBe(calls + 1);
  });

  it("the app's own request (same-origin, or a tool's without browser headers) runs and is recorded", async () => {
    const before = await runs();
    for (const headers of [APP_STREAM, { accept: "text/event-stream" }] as Record<string, string>[]) {
      const answer = await get(base(), runUrl, headers);
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('"type":"done"');
    }
    expect(await runs()).toBe(before + 2);
  });

  it("a query from another site is refused too; the app's and a tool's are answered", async () => {
    for (const headers of [{ ...LINK, "sec-fetch-site": "cross-site" }, { origin: "https://evil.example" }] as Record<string, string>[]) {
      expect((await get(base(), "/trpc/auth.me", headers)).status).toBe(403);
    }
    for (const headers of [{ "sec-fetch-site": "same-origin" }, { "sec-fetch-site": "none" }, {}] as Record<string, string>[]) {
      const answer = await get(base(), "/trpc/auth.me", headers);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ result: { data: { json: { profile: { fullName: "Ed Editor" } } } } });
    }
  });
});
