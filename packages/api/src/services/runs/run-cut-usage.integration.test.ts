// The tokens and cost a run records for an Anthropic answer: its output's count comes only in the
// stream's last usage event (message_delta), so a run cut at the size limit, which leaves the stream at
// the cut, records it as unknown (and its cost so), never the first event's count of the answer so far
// (a token or so) as if it were the answer's. An answer read to its end records the count it told.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RUN_MSG, RUN_OUTPUT_MAX_CHARS } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { startFakeProvider, type FakeProvider } from "../../../testing/fake-provider.ts";
import { createWorld } from "../../../testing/teams-support.ts";
import { streamRun } from "./runs.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
let provider: FakeProvider;
let prompt: { id: string; teamId: string; organizationId: string };
let connectionId: string;

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  world = await createWorld(h);
  const teamId = (await world.team()).id;
  connectionId = (await world.callers.orgAdmin.providers.create({ organizationId: world.organization.id, kind: "anthropic", name: "Local", baseUrl: provider.anthropicBaseUrl, apiKey: provider.apiKey })).id;
  // A model of the built-in price table, so a run with both counts has a cost.
  const created = await world.callers.editor.prompts.create({ teamId, name: "greeter", title: "Greeter", visibility: "team", type: "text", template: "Say hello.", model: "claude-haiku-4-5" });
  prompt = { id: created.id, teamId, organizationId: world.organization.id };
});
afterAll(() => Promise.all([h.close(), provider.close()]));
afterEach(() => {
  provider.answer.text = null;
});

/** A streamed run (the playground's) to its end, and its record as stored. */
async function run() {
  const input = { promptId: prompt.id, version: 1, connectionId, variables: {}, parameters: {} };
  let done: { type: string; run?: { id: string } } | undefined;
  for await (const event of await streamRun(h.services, { userId: world.accounts.editor.id }, prompt, input)) done = event;
  if (done?.type !== "done") throw new Error("the run ended without its done event");
  return h.database.db.promptRun.findUniqueOrThrow({ where: { id: done.run!.id }, select: { status: true, notice: true, output: true, inputTokens: true, outputTokens: true, cost: true } });
}

describe("an Anthropic run's tokens", () => {
  it("records the output's count as unknown, and so the cost, when the answer is cut at the size limit", async () => {
    // Words of 1,000 characters, past the limit by half: message_delta comes after them all.
    provider.answer.text = `${"a".repeat(999)} `.repeat(Math.ceil((RUN_OUTPUT_MAX_CHARS * 1.5) / 1_000));
    const stored = await run();
    expect(stored).toMatchObject({ status: "succeeded", notice: RUN_MSG.outputCut, inputTokens: 2, outputTokens: null, cost: null });
    expect(stored.output).toHaveLength(RUN_OUTPUT_MAX_CHARS);
  });

  it("records the count message_delta told, and the cost, when the answer is read to its end", async () => {
    provider.answer.text = "one two three";
    const stored = await run();
    expect(stored).toMatchObject({ status: "succeeded", notice: null, output: "one two three", inputTokens: 2, outputTokens: 3 });
    // claude-haiku-4-5: $1 in and $5 out per million tokens (the built-in table).
    expect(stored.cost).toBeCloseTo((2 * 1 + 3 * 5) / 1_000_000, 12);
  });
});
