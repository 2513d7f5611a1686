// A run still answering when the server stops is recorded: the shutdown limit (SHUTDOWN_TIMEOUT_MS)
// may be shorter than a provider's answer, so closing the connections stops the run, and its record
// (stopped) is written before the database is closed. Before, nothing waited for it: stop() closed
// the database while the record was still in insertRun's queue, and the run, paid for, was lost.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { startFakeProvider, type FakeProvider } from "@promptly/api/testing/fake-provider";
import { RUN_MSG } from "@promptly/shared";
import { sharedServicesEnv, startServerProcess, type ServerProcess } from "../test/server-process.ts";

let h: Harness;
let provider: FakeProvider;
let server: ServerProcess;

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  // The harness's secret: the connection's key was sealed with it.
  server = await startServerProcess({ ...sharedServicesEnv(h.database.url), APP_SECRET: h.services.config.secret, ALLOW_PRIVATE_PROVIDER_URLS: "true", SHUTDOWN_TIMEOUT_MS: "300" });
});
afterAll(async () => {
  await server?.dispose();
  await Promise.all([h.close(), provider.close()]);
});

it("a run in flight at SIGTERM, cut at the shutdown limit: recorded as stopped before the process exits", async () => {
  const person = await createAccount(h);
  const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }]);
  const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }])).id;
  const api = (await h.signedInClient(person.id)).api;
  const connection = await api.providers.create({ organizationId: organization.id, kind: "openai-compatible", name: "Local", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
  const prompt = await api.prompts.create({ teamId, name: "long", title: "Long", visibility: "team", type: "text", template: "Think long.", model: "gpt-4o-mini" });
  await api.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  const key = await api.apiKeys.create({ teamId, name: "run", scopes: ["run"] });
  // The model answers only after the process has stopped (released at the end): longer than the limit.
  let release!: () => void;
  provider.answer.hold = new Promise<void>((resolve) => (release = resolve));

  const streams = provider.openStreams;
  const answer = fetch(`${server.base}/api/v1/prompts/long/run`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
    body: JSON.stringify({ stream: true, connectionId: connection.id }),
  }).then((response) => response.text());
  answer.catch(() => undefined);
  await expect.poll(() => provider.openStreams, { timeout: 15_000 }).toBe(streams + 1);
  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  release();

  expect(server.output()).toContain("requests still running at the shutdown limit were cut");
  const runs = await h.database.db.promptRun.findMany({ where: { promptId: prompt.id } });
  expect(runs, server.output()).toMatchObject([{ status: "stopped", error: RUN_MSG.stopped, apiKeyId: key.id, output: "" }]);
  expect(server.output()).not.toContain("runs not recorded by the shutdown limit");
}, 60_000);
