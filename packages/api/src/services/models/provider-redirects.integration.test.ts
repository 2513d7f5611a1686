// A provider that answers with a redirect is never followed, whatever ALLOW_PRIVATE_PROVIDER_URLS says:
// "Test connection", a streamed run and a whole answer (an evaluation's case) fail naming the redirect,
// and the server it points to is never reached. And no outbound call connects to a private IP literal,
// however it was reached. A local server stands in for a provider on the internet (127.0.0.1 counted
// as public, the only change to the rule); the "internal" server listens on 127.0.0.2.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createWorld } from "../../../testing/teams-support.ts";
import { countAsPublicInTests, outboundFetch, PrivateAddressError, providerFetch } from "../platform/outbound.ts";
import { completeModelAnswer, describeProviderError } from "./provider-client.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
let restoreRule: () => void;

/** A server on `host` that answers every request with `answer`, counting the connections it accepts. */
async function startServer(host: string, answer: (res: import("node:http").ServerResponse) => void) {
  const seen = { connections: 0, requests: 0 };
  const server: Server = createServer((req, res) => {
    seen.requests++;
    req.resume();
    answer(res);
  });
  server.on("connection", () => seen.connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { port, seen, close };
}

let internal: Awaited<ReturnType<typeof startServer>>;
let redirector: Awaited<ReturnType<typeof startServer>>;
/** Where the redirector sends every request. */
let location = "";
let openai: { id: string; name: string; baseUrl: string | null };
let anthropic: { id: string; name: string; baseUrl: string | null };
let prompt: { id: string };
const apiKey = "sk-redirected-key-0001";

beforeAll(async () => {
  restoreRule = countAsPublicInTests(["127.0.0.1"]);
  [h, internal, redirector] = await Promise.all([
    createHarness({ allowPrivateProviderUrls: false }),
    // What a provider on the inside would answer: a model list, a completion.
    startServer("127.0.0.2", (res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "internal-model", object: "model", created: 0, owned_by: "inside" }] }));
    }),
    startServer("127.0.0.1", (res) => {
      res.writeHead(307, { location, "content-type": "text/plain" });
      res.end("Moved");
    }),
  ]);
  world = await createWorld(h);
  const team = await world.team();
  const organizationId = world.organization.id;
  const base = `http://127.0.0.1:${redirector.port}`;
  openai = await world.callers.orgAdmin.providers.create({ organizationId, kind: "openai-compatible", name: "Moved", baseUrl: `${base}/v1`, apiKey });
  anthropic = await world.callers.orgAdmin.providers.create({ organizationId, kind: "anthropic", name: "Moved Claude", baseUrl: base, apiKey });
  prompt = await world.callers.editor.prompts.create({
    teamId: team.id, name: "moved", title: "Moved", visibility: "team", type: "text", template: "Say {{ word }}.", model: "gpt-4o-mini",
  });
});
afterAll(async () => {
  restoreRule?.();
  await Promise.all([h?.close(), internal?.close(), redirector?.close()]);
});
beforeEach(() => {
  location = `http://127.0.0.2:${internal.port}/v1/models`;
  h.services.config.allowPrivateProviderUrls = false;
});

const refused = (host: string, name = "The provider") => `${name} answered 307 (a redirect to ${host}), and provider calls do not follow redirects`;

type Event = { type: "delta"; text: string } | { type: "done"; run: { id: string; status: string; output: string; error: string | null } };

/** A playground run to its end: its recorded run. */
async function streamedRun(connectionId: string, model: string) {
  const events: Event[] = [];
  const input = { promptId: prompt.id, version: 1, connectionId, model, variables: { word: "hello" } };
  for await (const event of (await world.callers.editor.playground.run(input)) as AsyncIterable<Event>) events.push(event);
  const done = events.at(-1);
  if (done?.type !== "done") throw new Error("the run ended without its done event");
  return done.run;
}

/** An evaluation case's whole answer (not streamed, the buffered fetch), as the failure a person reads. */
async function wholeAnswer(connection: { id: string; baseUrl: string | null }, kind: "openai-compatible" | "anthropic") {
  const error = await completeModelAnswer(
    { id: connection.id, kind, baseUrl: connection.baseUrl, apiKey },
    { allowPrivate: h.services.config.allowPrivateProviderUrls ?? false, timeoutMs: 5_000 },
    { model: "m", input: { type: "text", text: "Hello" }, parameters: {} },
  ).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).not.toBeNull();
  return describeProviderError(error, { kind, baseUrl: connection.baseUrl, apiKey });
}

describe("a provider's redirect is not followed", () => {
  it.each([
    ["a loopback address", () => `http://127.0.0.2:${internal.port}/v1/models`, "127.0.0.2"],
    ["an IPv4-mapped IPv6 address", () => `http://[::ffff:127.0.0.2]:${internal.port}/v1/models`, "[::ffff:7f00:2]"],
    ["a decimal IPv4 address", () => `http://2130706434:${internal.port}/v1/models`, "127.0.0.2"],
    ["the metadata address", () => "http://169.254.169.254/latest/meta-data/", "169.254.169.254"],
  ])("Test connection, redirected to %s, fails naming the redirect", async (_, target, host) => {
    location = target();
    const before = redirector.seen.requests;
    for (const { id, name } of [openai, anthropic]) {
      expect(await world.callers.orgAdmin.providers.test({ id })).toEqual({ ok: false, status: 307, message: refused(host, name), detail: null });
    }
    expect(redirector.seen.requests).toBe(before + 2);
    expect(internal.seen.connections).toBe(0);
  });

  it("a streamed run fails, recorded with the redirect named and nothing of the internal answer", async () => {
    for (const [connection, model] of [[openai, "gpt-4o-mini"], [anthropic, "claude-haiku-4-5"]] as const) {
      const run = await streamedRun(connection.id, model);
      expect(run).toMatchObject({ status: "failed", output: "", error: refused("127.0.0.2", connection.name) });
      expect(await h.database.db.promptRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "failed", error: refused("127.0.0.2", connection.name) });
    }
    expect(internal.seen.connections).toBe(0);
  });

  it("a whole answer (an evaluation's case) fails naming the redirect", async () => {
    expect(await wholeAnswer(openai, "openai-compatible")).toEqual({ status: 307, message: refused("127.0.0.2"), detail: null });
    expect(await wholeAnswer(anthropic, "anthropic")).toEqual({ status: 307, message: refused("127.0.0.2"), detail: null });
    expect(internal.seen.connections).toBe(0);
  });

  it("with ALLOW_PRIVATE_PROVIDER_URLS too: a redirect to a private address is still not followed", async () => {
    h.services.config.allowPrivateProviderUrls = true;
    expect(await world.callers.orgAdmin.providers.test({ id: openai.id })).toEqual({ ok: false, status: 307, message: refused("127.0.0.2", "Moved"), detail: null });
    expect(await streamedRun(openai.id, "gpt-4o-mini")).toMatchObject({ status: "failed", error: refused("127.0.0.2", "Moved") });
    expect(await wholeAnswer(anthropic, "anthropic")).toEqual({ status: 307, message: refused("127.0.0.2"), detail: null });
    expect(internal.seen.connections).toBe(0);
  });

  it("a redirect without a Location still fails as a redirect", async () => {
    location = "";
    expect(await world.callers.orgAdmin.providers.test({ id: openai.id })).toEqual({
      ok: false,
      status: 307,
      message: "Moved answered 307 (a redirect), and provider calls do not follow redirects",
      detail: null,
    });
  });
});

describe("no outbound call connects to a private IP literal", () => {
  it.each(["127.0.0.2", "[::ffff:127.0.0.2]", "2130706434", "0x7f.0.0.2"])("%s is refused at connect time, providers and webhooks alike", async (host) => {
    const url = `http://${host}:${internal.port}/v1/models`;
    for (const fetch of [providerFetch(false, { streams: false }), outboundFetch(false)]) {
      const error = await fetch(url, { method: "POST", body: "{}" }).then(
        () => null,
        (caught: unknown) => caught as { cause?: unknown },
      );
      expect(error?.cause).toBeInstanceOf(PrivateAddressError);
    }
    expect(internal.seen.connections).toBe(0);
  });
});
