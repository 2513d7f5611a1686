// A run whose answer or provider error holds what no PostgreSQL text or jsonb can hold (a NUL
// character, a lone surrogate) is recorded with U+FFFD in its place, as ingested generations are: not
// a run the person saw answered that then fails at its end, unrecorded.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunPromptInput } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { startFakeProvider, type FakeProvider } from "../../../testing/fake-provider.ts";
import { createWorld } from "../../../testing/teams-support.ts";
import { streamRun } from "../../services/runs/runs.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
let provider: FakeProvider;
let team: { id: string };
let openai: { id: string };
let prompt: { id: string };

type Done = { type: "done"; run: { id: string; status: string; output: string | null; error: string | null; errorDetail: string | null; toolCalls: unknown } };

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  world = await createWorld(h);
  team = await world.team();
  openai = await world.callers.orgAdmin.providers.create({ organizationId: world.organization.id, kind: "openai-compatible", name: "Local", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
  prompt = await world.callers.editor.prompts.create({
    teamId: team.id, name: "greeter", title: "Greeter", visibility: "team", type: "text", template: "Say {{ word }} twice.", model: "gpt-4o-mini",
  });
});
afterAll(() => Promise.all([h.close(), provider.close()]));
afterEach(() => {
  provider.answer.text = null;
  provider.answer.toolCall = null;
  provider.failWith = null;
  provider.failMessage = null;
});

const runInput = (): RunPromptInput => ({ promptId: prompt.id, version: 1, connectionId: openai.id, variables: { word: "hello" } });

/** A run to its end through the playground (streamed). */
async function playgroundRun(input = runInput()) {
  const events: unknown[] = [];
  for await (const event of (await world.callers.editor.playground.run(input)) as AsyncIterable<unknown>) events.push(event);
  return (events.at(-1) as Done).run;
}

/** A run to its end asked for whole (as the API's run without a stream), several at once so their records are written together. */
async function wholeRuns(count: number) {
  const organizationId = world.organization.id;
  return Promise.all(
    Array.from({ length: count }, async () => {
      const events: unknown[] = [];
      const input = { ...runInput(), variables: { word: "hello" }, parameters: {} };
      for await (const event of await streamRun(h.services, { userId: world.accounts.editor.id }, { id: prompt.id, teamId: team.id, organizationId }, input, undefined, undefined, "whole")) events.push(event);
      return (events.at(-1) as Done).run;
    }),
  );
}

const rowOf = (id: string) => h.database.db.promptRun.findUniqueOrThrow({ where: { id }, select: { status: true, output: true, error: true, errorDetail: true } });

describe("a run whose answer holds what PostgreSQL cannot store", () => {
  it("records a streamed answer holding NUL as succeeded, U+FFFD in its place", async () => {
    provider.answer.text = "before\u0000after done";
    const run = await playgroundRun();
    expect(run).toMatchObject({ status: "succeeded", output: "before\uFFFDafter done" });
    expect(await rowOf(run.id)).toMatchObject({ status: "succeeded", output: "before\uFFFDafter done" });
  });

  it("records whole answers holding NUL and a lone surrogate, written together, as succeeded; a pair stays as it is", async () => {
    provider.answer.text = "a\u0000b \uD800 c \uDC00 d \uD83D\uDE00 e";
    const runs = await wholeRuns(4);
    for (const run of runs) {
      expect(run).toMatchObject({ status: "succeeded", output: "a\uFFFDb \uFFFD c \uFFFD d \uD83D\uDE00 e" });
      expect(await rowOf(run.id)).toMatchObject({ status: "succeeded", output: "a\uFFFDb \uFFFD c \uFFFD d \uD83D\uDE00 e" });
    }
  });

  it("records a tool call whose name holds NUL, U+FFFD in its place (its arguments, JSON text, as they came)", async () => {
    const withTools = await world.callers.editor.prompts.create({
      teamId: team.id, name: "tooled", title: "Tooled", visibility: "team", type: "text", template: "Weather in {{ word }}?", model: "gpt-4o-mini",
      tools: [{ name: "get_weather", description: "The forecast", parameters: { type: "object", properties: { city: { type: "string" } } } }],
    });
    provider.answer.toolCall = { name: "get\u0000weather", arguments: { "ci\u0000ty": "Os\uD800lo" } };
    const run = await playgroundRun({ ...runInput(), promptId: withTools.id });
    expect(run.status).toBe("succeeded");
    const stored = await h.database.db.promptRun.findUniqueOrThrow({ where: { id: run.id }, select: { toolCalls: true } });
    expect(stored.toolCalls).toEqual([{ id: expect.any(String), name: "get\uFFFDweather", arguments: JSON.stringify({ "ci\u0000ty": "Os\uD800lo" }) }]);
  });

  it("records a provider's error text holding NUL as the run's failure", async () => {
    provider.failWith = 400;
    provider.failMessage = "bad\u0000request \uDBFF";
    const run = await playgroundRun();
    expect(run.status).toBe("failed");
    const row = await rowOf(run.id);
    expect(row.status).toBe("failed");
    expect(`${row.error} ${row.errorDetail}`).toContain("bad\uFFFDrequest \uFFFD");
  });
});
