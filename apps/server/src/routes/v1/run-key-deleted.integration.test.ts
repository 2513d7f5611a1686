// POST /api/v1/prompts/{name}/run with the key deleted while the model answers: the caller still gets
// its answer (whole: 200 with the output; streamed: the deltas and done), and the run is recorded as
// ON DELETE SET NULL would have left it, without the key. Before, the record's insert failed its
// foreign key check: a 500 instead of the answer, or a stream cut without its done event.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runtimeRunResult } from "@promptly/shared";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { fakeAnswerText, startFakeProvider, type FakeProvider } from "@promptly/api/testing/fake-provider";
import { createApp } from "../../app.ts";
import { createLogger } from "../../logger.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

let h: Harness;
let provider: FakeProvider;
let server: TestServer;
let admin: Awaited<ReturnType<Harness["signedInClient"]>>["api"];
let teamId: string;
let connectionId: string;

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  server = await listenForTests(createApp({ services: h.services, logger: createLogger("error", { write: () => {} }) }));
  const person = await createAccount(h, { fullName: "Ada Admin" });
  const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }], "Acme");
  teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
  admin = (await h.signedInClient(person.id)).api;
  connectionId = (await admin.providers.create({ organizationId: organization.id, kind: "openai-compatible", name: "Local", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey })).id;
  const reply = await admin.prompts.create({ teamId, name: "reply", title: "Reply", visibility: "team", type: "text", template: "Hello {{ customer }}", model: "gpt-4o-mini" });
  await admin.promptLabels.set({ promptId: reply.id, label: "production", version: 1 });
});
afterEach(() => {
  provider.answer.hold = null;
});
afterAll(async () => {
  await server?.close();
  await Promise.all([h.close(), provider.close()]);
});

/** Runs with a new key whose answer the provider holds until the key is deleted; the response and the key's id. */
async function runDeletingKey(stream: boolean, open: () => number) {
  const key = await admin.apiKeys.create({ teamId, name: `doomed-${stream}`, scopes: ["run"] });
  let release!: () => void;
  provider.answer.hold = new Promise<void>((resolve) => (release = resolve));
  const before = open();
  const responding = fetch(`${server.base}/api/v1/prompts/reply/run`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
    body: JSON.stringify({ variables: { customer: "Ada" }, connectionId, stream }),
  });
  await expect.poll(open).toBe(before + 1);
  await h.database.db.apiKey.delete({ where: { id: key.id } });
  release();
  return { response: await responding, keyId: key.id };
}

describe("a run whose API key is deleted while it runs", () => {
  it("answered whole: 200 with the output, the run recorded without the key", async () => {
    const { response, keyId } = await runDeletingKey(false, () => provider.openAnswers);
    expect(response.status).toBe(200);
    const answer = runtimeRunResult.parse(await response.json());
    expect(answer.output).toBe(fakeAnswerText("Hello Ada"));
    expect(await h.database.db.apiKey.count({ where: { id: keyId } })).toBe(0);
    expect(await h.database.db.promptRun.findUniqueOrThrow({ where: { id: answer.run.id } })).toMatchObject({
      status: "succeeded", apiKeyId: null, userId: null, connectionId, connectionName: "Local", output: answer.output,
    });
  });

  it("streamed: the deltas and done, the run recorded without the key", async () => {
    const { response } = await runDeletingKey(true, () => provider.openStreams);
    expect(response.status).toBe(200);
    const text = await response.text();
    const frames = text.split("\n\n").filter(Boolean);
    const done = frames.at(-1)!;
    expect(done.startsWith("event: done\n")).toBe(true);
    const answer = runtimeRunResult.parse(JSON.parse(done.split("\n").find((line) => line.startsWith("data: "))!.slice(6)));
    expect(answer.output).toBe(fakeAnswerText("Hello Ada"));
    expect(await h.database.db.promptRun.findUniqueOrThrow({ where: { id: answer.run.id } })).toMatchObject({ status: "succeeded", apiKeyId: null, connectionName: "Local" });
  });
});
