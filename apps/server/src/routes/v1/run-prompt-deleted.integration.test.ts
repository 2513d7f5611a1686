// A run whose prompt is deleted while the model answers: its record, refused by the prompt's foreign key,
// is not written, and the run is answered as a run of a prompt that is gone (what one asked for now is
// told), never as a failure of ours. The key's run (REST): 404 with the runtime's "Prompt not found",
// or, streamed, that body as its last event; a person's (playground.run over HTTP): NOT_FOUND. Before,
// a 500 (INTERNAL_SERVER_ERROR), or a stream cut without its last event.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RUNTIME_MSG } from "@promptly/shared";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { startFakeProvider, type FakeProvider } from "@promptly/api/testing/fake-provider";
import { createApp } from "../../app.ts";
import { createLogger } from "../../logger.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

let h: Harness;
let provider: FakeProvider;
let server: TestServer;
let admin: Awaited<ReturnType<Harness["signedInClient"]>>["api"];
let cookie: string;
let teamId: string;
let connectionId: string;
let key: string;

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  server = await listenForTests(createApp({ services: h.services, logger: createLogger("error", { write: () => {} }) }));
  const person = await createAccount(h, { fullName: "Ada Admin" });
  const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }], "Acme");
  teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
  const client = await h.signedInClient(person.id);
  admin = client.api;
  cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  connectionId = (await admin.providers.create({ organizationId: organization.id, kind: "openai-compatible", name: "Local", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey })).id;
  key = (await admin.apiKeys.create({ teamId, name: "runner", scopes: ["run"] })).key;
});
afterEach(() => {
  provider.answer.hold = null;
});
afterAll(async () => {
  await server?.close();
  await Promise.all([h.close(), provider.close()]);
});

/** A new prompt `name` with production on v1, run by `start` while the provider holds its answer until the prompt is deleted. */
async function runDeletingPrompt(name: string, open: () => number, start: (promptId: string) => Promise<Response>) {
  const prompt = await admin.prompts.create({ teamId, name, title: "Doomed", visibility: "team", type: "text", template: "Hello {{ customer }}", model: "gpt-4o-mini" });
  await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  let release!: () => void;
  provider.answer.hold = new Promise<void>((resolve) => (release = resolve));
  const before = open();
  const responding = start(prompt.id);
  try {
    await expect.poll(open).toBe(before + 1);
    await h.database.db.prompt.delete({ where: { id: prompt.id } });
  } finally {
    // Released however the steps above end: a held answer would keep the server (and the file) open until its timeout.
    release();
  }
  const response = await responding;
  return { response, promptId: prompt.id };
}

const runByKey = (name: string, stream: boolean) =>
  fetch(`${server.base}/api/v1/prompts/${name}/run`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ variables: { customer: "Ada" }, connectionId, stream }),
  });

/** The frames of an event stream, each its event's name and its data. */
const framesOf = (text: string) =>
  text.split("\n\n").filter(Boolean).map((frame) => {
    const lines = frame.split("\n");
    return { event: lines.find((line) => line.startsWith("event:"))?.slice(6).trim(), data: lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trim()).join("\n") };
  });

const runsOf = (promptId: string) => h.database.db.promptRun.count({ where: { promptId } });

describe("a run whose prompt is deleted while it runs", () => {
  it("a key's run answered whole: 404, its prompt not found, nothing recorded", async () => {
    const { response, promptId } = await runDeletingPrompt("gone-whole", () => provider.openAnswers, () => runByKey("gone-whole", false));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "NOT_FOUND", message: RUNTIME_MSG.promptNotFound("gone-whole", { label: "production" }) } });
    expect(await runsOf(promptId)).toBe(0);
  });

  it("a key's run streamed: the deltas, then the 404's body as its error event, nothing recorded", async () => {
    const { response, promptId } = await runDeletingPrompt("gone-streamed", () => provider.openStreams, () => runByKey("gone-streamed", true));
    expect(response.status).toBe(200);
    const frames = framesOf(await response.text());
    expect(frames.slice(0, -1).every((frame) => frame.event === "delta")).toBe(true);
    expect(frames.at(-1)!.event).toBe("error");
    expect(JSON.parse(frames.at(-1)!.data)).toEqual({ error: { code: "NOT_FOUND", message: RUNTIME_MSG.promptNotFound("gone-streamed", { label: "production" }) } });
    expect(await runsOf(promptId)).toBe(0);
  });

  it("a person's run (playground.run over HTTP): its error is NOT_FOUND, nothing recorded", async () => {
    const { response, promptId } = await runDeletingPrompt("gone-playground", () => provider.openStreams, (id) => {
      const input = { promptId: id, version: 1, connectionId, variables: { customer: "Ada" } };
      return fetch(`${server.base}/trpc/playground.run?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, { headers: { cookie, accept: "text/event-stream" } });
    });
    expect(response.status).toBe(200);
    const failure = framesOf(await response.text()).find((frame) => frame.event === "serialized-error");
    expect(failure).toBeDefined();
    expect(JSON.parse(failure!.data)).toMatchObject({ json: { data: { code: "NOT_FOUND", httpStatus: 404 } } });
    expect(await runsOf(promptId)).toBe(0);
  });
});
