// A run whose connection or person is deleted while it runs is recorded all the same, as the foreign
// keys' ON DELETE SET NULL would have left its row: the id gone, the connection's name kept. Before,
// the record's insert failed its foreign key check, the answer ended in an error and the run, paid
// for, was recorded nowhere.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { fakeAnswerText, startFakeProvider, type FakeProvider } from "../../../testing/fake-provider.ts";
import { createSignedInAccount, createWorld, type SignedInAccount } from "../../../testing/teams-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
let provider: FakeProvider;
let prompt: { id: string };
let teamId: string;

type Event = { type: "delta"; text: string } | { type: "done"; run: { id: string; status: string; output: string } & Record<string, unknown> };

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  world = await createWorld(h);
  teamId = (await world.team()).id;
  prompt = await world.callers.editor.prompts.create({
    teamId, name: "greeter", title: "Greeter", visibility: "team", type: "text", template: "Say {{ word }} twice.", model: "gpt-4o-mini",
  });
});
afterAll(() => Promise.all([h.close(), provider.close()]));
afterEach(() => {
  provider.answer.hold = null;
});

/** Holds the provider's next answers until `release()`. */
function holdAnswers() {
  let release!: () => void;
  provider.answer.hold = new Promise<void>((resolve) => (release = resolve));
  return release;
}

/**
 * A streamed run whose provider holds its answer while `meanwhile` runs, then answers: its events to
 * the end (throws if the answer ends without its done event, as a failed record made it end).
 */
async function runWhile(api: SignedInAccount["api"], connectionId: string, meanwhile: () => Promise<unknown>) {
  const release = holdAnswers();
  const streams = provider.openStreams;
  const events: Event[] = [];
  const reading = (async () => {
    for await (const event of (await api.playground.run({ promptId: prompt.id, version: 1, connectionId, variables: { word: "hello" } })) as AsyncIterable<Event>) events.push(event);
  })();
  await expect.poll(() => provider.openStreams).toBe(streams + 1);
  await meanwhile();
  release();
  await reading;
  const done = events.at(-1);
  if (done?.type !== "done") throw new Error("the run ended without its done event");
  return { text: events.flatMap((event) => (event.type === "delta" ? [event.text] : [])).join(""), run: done.run };
}

const newConnection = (name: string) =>
  world.callers.orgAdmin.providers.create({ organizationId: world.organization.id, kind: "openai-compatible", name, baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });

describe("a run whose connection or person goes while it runs", () => {
  it("the connection deleted: the answer completes and the run is recorded without it, its name kept", async () => {
    const connection = await newConnection("Doomed");
    const { text, run } = await runWhile(world.callers.editor, connection.id, () => world.callers.orgAdmin.providers.delete({ id: connection.id }));
    expect(text).toBe(fakeAnswerText("Say hello twice."));
    expect(await h.database.db.providerConnection.count({ where: { id: connection.id } })).toBe(0);
    expect(await h.database.db.promptRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      status: "succeeded", connectionId: null, connectionName: "Doomed", userId: world.accounts.editor.id, output: text,
    });
    expect(run).toMatchObject({ status: "succeeded", connectionId: null, connectionName: "Doomed" });
  });

  it("the person deleted: the answer completes and the run is recorded without them", async () => {
    const connection = await newConnection("Kept");
    const person = await createSignedInAccount(h, { fullName: "Gone Soon" });
    await h.database.db.organizationMember.create({ data: { organizationId: world.organization.id, userId: person.id, role: "member" } });
    await h.database.db.teamMember.create({ data: { teamId, userId: person.id, role: "editor" } });
    const { text, run } = await runWhile(person.api, connection.id, () => h.database.db.user.delete({ where: { id: person.id } }));
    expect(text).toBe(fakeAnswerText("Say hello twice."));
    expect(await h.database.db.promptRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      status: "succeeded", userId: null, apiKeyId: null, connectionId: connection.id, connectionName: "Kept",
    });
  });
});
