// A streamed answer cut at the size limit still records the tokens and cost the call used: an
// OpenAI-style provider tells its usage in the stream's last chunk, so after the cut the rest of the
// stream is read (its text dropped) until the usage comes. Before, the cut left the stream at once and
// the run was recorded with no tokens and no cost though the call was paid.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RUN_MSG, RUN_OUTPUT_MAX_CHARS } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { startFakeProvider, type FakeProvider } from "../../../testing/fake-provider.ts";
import { createWorld } from "../../../testing/teams-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
let provider: FakeProvider;
let prompt: { id: string };
let connectionId: string;

type Event = { type: "delta"; text: string } | { type: "done"; run: { id: string; status: string } & Record<string, unknown> };

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  world = await createWorld(h);
  const teamId = (await world.team()).id;
  connectionId = (await world.callers.orgAdmin.providers.create({ organizationId: world.organization.id, kind: "openai-compatible", name: "Local", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey })).id;
  prompt = await world.callers.editor.prompts.create({ teamId, name: "greeter", title: "Greeter", visibility: "team", type: "text", template: "Say {{ word }} twice.", model: "gpt-4o-mini" });
});
afterAll(() => Promise.all([h.close(), provider.close()]));
afterEach(() => {
  provider.answer.text = null;
});

describe("a streamed answer cut at the size limit", () => {
  it("records the tokens and the cost the provider told after the cut", async () => {
    // Words of 1,000 characters, past the limit by half: the usage chunk comes after them all.
    const words = Math.ceil((RUN_OUTPUT_MAX_CHARS * 1.5) / 1_000);
    provider.answer.text = `${"a".repeat(999)} `.repeat(words);
    const events: Event[] = [];
    for await (const event of (await world.callers.editor.playground.run({ promptId: prompt.id, version: 1, connectionId, variables: { word: "hello" } })) as AsyncIterable<Event>) events.push(event);
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("the run ended without its done event");
    expect(events.flatMap((event) => (event.type === "delta" ? [event.text] : [])).join("").length).toBe(RUN_OUTPUT_MAX_CHARS);
    const row = await h.database.db.promptRun.findUniqueOrThrow({ where: { id: done.run.id } });
    expect(row).toMatchObject({ status: "succeeded", notice: RUN_MSG.outputCut, inputTokens: 3, outputTokens: words });
    expect(row.output.length).toBe(RUN_OUTPUT_MAX_CHARS);
    // gpt-4o-mini: $0.15 in and $0.60 out per million tokens (the built-in table).
    expect(row.cost).toBeCloseTo((3 * 0.15 + words * 0.6) / 1_000_000, 12);
  });
});
