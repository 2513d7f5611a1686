// A provider's failure reads the same wherever a run shows it: in plain words naming the connection and
// what to do, the provider's or the network's own words kept apart as the detail. A local server answers
// each status; a port nothing listens on stands for a server that is down.
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_MSG, type RunPromptInput } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createWorld } from "../../../testing/teams-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
let server: Server;
let port: number;
let closedPort: number;
let promptId: string;
/** What the server answers next: a status, its headers, and its error message. */
let answer: { status: number; headers?: Record<string, string>; message: string; hang?: boolean } = { status: 500, message: "boom" };

beforeAll(async () => {
  h = await createHarness();
  world = await createWorld(h);
  server = createHttpServer((req, res) => {
    req.resume();
    if (answer.hang) return;
    res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
    res.end(JSON.stringify({ error: { message: answer.message, type: "test" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  // A port a server of our own held and gave back: nothing listens there.
  closedPort = await new Promise<number>((resolve) => {
    const probe = createNetServer().listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  h.services.config.allowPrivateProviderUrls = true;
  const team = await world.team();
  const organizationId = world.organization.id;
  await world.callers.orgAdmin.providers.create({ organizationId, kind: "openai-compatible", name: "Local vLLM", baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: "sk-test-key-0000" });
  await world.callers.orgAdmin.providers.create({ organizationId, kind: "openai-compatible", name: "Down", baseUrl: `http://127.0.0.1:${closedPort}/v1`, apiKey: "sk-test-key-0000" });
  promptId = (await world.callers.editor.prompts.create({ teamId: team.id, name: "errors", title: "Errors", visibility: "team", type: "text", template: "Hi {{ who }}", model: "m-1" })).id;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await h.close();
});

type Done = { type: "done"; run: { status: string; error: string | null; errorDetail: string | null } };

async function runOn(name: string) {
  const connections = await world.callers.editor.playground.connections({ promptId });
  const connectionId = connections.find((connection) => connection.name === name)!.id;
  const input: RunPromptInput = { promptId, version: 1, connectionId, model: "m-1", variables: { who: "you" } };
  let done: Done | undefined;
  for await (const event of (await world.callers.editor.playground.run(input)) as AsyncIterable<Done | { type: "delta" }>) if (event.type === "done") done = event;
  const row = await h.database.db.promptRun.findFirstOrThrow({ where: { promptId }, orderBy: { createdAt: "desc" }, select: { status: true, error: true, errorDetail: true } });
  expect(row).toEqual({ status: "failed", error: done!.run.error, errorDetail: done!.run.errorDetail });
  return { error: row.error, detail: row.errorDetail };
}

describe("a provider's failure in plain words, its own words as the detail", () => {
  it.each([
    [401, undefined, PROVIDER_MSG.keyRefused("Local vLLM"), "Local vLLM refused the key: update it under Model Providers"],
    [403, undefined, PROVIDER_MSG.keyRefused("Local vLLM"), "Local vLLM refused the key: update it under Model Providers"],
    [404, undefined, PROVIDER_MSG.noSuchModel("Local vLLM", "m-1"), "Local vLLM has no model 'm-1': choose another model, or check the connection's models under Model Providers"],
    [429, { "retry-after": "20" }, PROVIDER_MSG.rateLimited("Local vLLM", 20_000), "Local vLLM is rate limiting requests (429): retry in 20 s"],
    [429, undefined, PROVIDER_MSG.rateLimited("Local vLLM"), "Local vLLM is rate limiting requests (429): retry in a moment"],
    [503, undefined, PROVIDER_MSG.providerFailed("Local vLLM", 503), "Local vLLM failed with status 503: try again later"],
  ])("%i (%j)", async (status, headers, message, words) => {
    expect(message).toBe(words);
    answer = { status, headers, message: `upstream says ${status}` };
    expect(await runOn("Local vLLM")).toEqual({ error: words, detail: `${status}: upstream says ${status}` });
  });

  it("nothing listening: could not reach it, at its host and port, the network's words as the detail", async () => {
    expect(await runOn("Down")).toEqual({
      error: `Could not reach Down at 127.0.0.1:${closedPort}: is the server running?`,
      detail: `connect ECONNREFUSED 127.0.0.1:${closedPort}`,
    });
  });

  it("no answer in time: timed out, after how long", async () => {
    h.services.config.providerTimeoutMs = 1_000;
    answer = { status: 200, message: "", hang: true };
    try {
      expect((await runOn("Local vLLM")).error).toBe("Local vLLM did not answer within 1 s: try again, or with a shorter input");
    } finally {
      h.services.config.providerTimeoutMs = 5_000;
      server.closeAllConnections();
    }
  });

  it("Test connection says the same, and the connection keeps it as its last test", async () => {
    answer = { status: 401, message: "bad key" };
    const [local] = (await world.callers.orgAdmin.providers.list({ organizationId: world.organization.id })).filter((item) => item.name === "Local vLLM");
    expect(await world.callers.orgAdmin.providers.test({ id: local!.id })).toEqual({ ok: false, status: 401, message: PROVIDER_MSG.keyRefused("Local vLLM"), detail: "401: bad key" });
    const [after] = (await world.callers.orgAdmin.providers.list({ organizationId: world.organization.id })).filter((item) => item.name === "Local vLLM");
    expect(after!.lastTest).toEqual({ at: expect.any(Date), ok: false, error: PROVIDER_MSG.keyRefused("Local vLLM") });
  });
});
