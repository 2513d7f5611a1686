// A run's answer holds at most RUN_ANSWER_TOOL_CALLS_MAX tool calls: a provider that sends thousands of
// empty ones (no id, name or arguments, so no character against the output's limit) has its answer cut
// at the call past the limit as a long one is (succeeded, notice outputCut), streamed (OpenAI's and
// Anthropic's) or whole; an answer of a few calls is kept as it came. A local server stands in for the provider.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_ANSWER_TOOL_CALLS_MAX, RUN_MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createWorld } from "../../../testing/teams-support.ts";
import { streamRun } from "../runs/runs.ts";
import { anthropicEvent, anthropicStart, openaiEvent, eventStream } from "../../../testing/provider-events.ts";

const apiKey = "sk-tool-call-count-0001";
/** How many empty calls a flooding provider sends. */
const FLOOD = 5_000;

const anthropicEnd = anthropicEvent({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 1 } }) + anthropicEvent({ type: "message_stop" });

/** `count` calls of OpenAI's stream: empty (an index alone), or each named `note` with small arguments. */
const openaiCalls = (count: number, empty: boolean) =>
  Array.from({ length: count }, (_, index) =>
    openaiEvent({ tool_calls: [empty ? { index } : { index, id: `call_${index}`, type: "function", function: { name: "note", arguments: `{"n":${index}}` } }] }),
  ).join("");
/** `count` tool_use blocks of Anthropic's stream, empty or named `note` with small input. */
const anthropicCalls = (count: number, empty: boolean) =>
  Array.from(
    { length: count },
    (_, index) =>
      anthropicEvent({ type: "content_block_start", index, content_block: { type: "tool_use", id: empty ? "" : `toolu_${index}`, name: empty ? "" : "note", input: {} } }) +
      (empty ? "" : anthropicEvent({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: `{"n":${index}}` } })) +
      anthropicEvent({ type: "content_block_stop", index }),
  ).join("");
/** OpenAI's whole answer of `count` calls, empty or named. */
const openaiWhole = (count: number, empty: boolean) =>
  JSON.stringify({
    id: "chatcmpl-1", object: "chat.completion", created: 0, model: "m",
    choices: [{
      index: 0, finish_reason: "tool_calls", logprobs: null,
      message: {
        role: "assistant", content: null, refusal: null,
        tool_calls: Array.from({ length: count }, (_, index) => ({ id: empty ? "" : `call_${index}`, type: "function", function: { name: empty ? "" : "note", arguments: empty ? "" : `{"n":${index}}` } })),
      },
    }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });

const answerWith = (count: number, empty: boolean): Record<string, (res: ServerResponse) => void> => ({
  "/v1/chat/completions": (res) => {
    res.writeHead(200, eventStream);
    res.end(openaiEvent({ role: "assistant", content: null }) + openaiCalls(count, empty) + "data: [DONE]\n\n");
  },
  "/whole/v1/chat/completions": (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(openaiWhole(count, empty));
  },
  "/v1/messages": (res) => {
    res.writeHead(200, eventStream);
    res.end(anthropicStart + anthropicCalls(count, empty) + anthropicEnd);
  },
});
/** What the server answers under each prefix: a flood of empty calls, or three ordinary ones. */
const answers: Record<string, Record<string, (res: ServerResponse) => void>> = { "/flood": answerWith(FLOOD, true), "/three": answerWith(3, false) };

const server = createServer((req, res) => {
  req.resume();
  const path = new URL(req.url ?? "/", "http://localhost").pathname;
  const prefix = `/${path.split("/")[1]}`;
  (answers[prefix]?.[path.slice(prefix.length)] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res);
});

type Done = { type: "done"; run: { id: string; status: string; notice: string | null; toolCalls: unknown[] } };

describe("a run's answer of many tool calls", () => {
  let h: Harness;
  let world: Awaited<ReturnType<typeof createWorld>>;
  let prompt: { id: string; teamId: string; organizationId: string };
  let base = "";

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    h = await createHarness();
    world = await createWorld(h);
    const team = await world.team();
    const created = await world.callers.editor.prompts.create({ teamId: team.id, name: "caller", title: "Caller", visibility: "team", type: "text", template: "Call.", model: "m" });
    prompt = { id: created.id, teamId: team.id, organizationId: world.organization.id };
  });
  afterAll(async () => {
    await h.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** A run through a new connection to `path` of the local server, to its end: what done said and what was stored. */
  async function runOf(kind: "openai-compatible" | "anthropic", path: string, answer: "streamed" | "whole") {
    const connection = await world.callers.orgAdmin.providers.create({
      organizationId: world.organization.id, kind, name: `Calls ${kind} ${path} ${answer}`, baseUrl: kind === "anthropic" ? `${base}${path}` : `${base}${path}/v1`, apiKey,
    });
    const events: unknown[] = [];
    const input = { promptId: prompt.id, version: 1, connectionId: connection.id, variables: {}, parameters: {} };
    for await (const event of await streamRun(h.services, { userId: world.accounts.editor.id }, prompt, input, undefined, undefined, answer)) events.push(event);
    const { run } = events.at(-1) as Done;
    const stored = await h.database.db.promptRun.findUniqueOrThrow({ where: { id: run.id }, select: { status: true, notice: true, toolCalls: true } });
    return { run, stored: { ...stored, toolCalls: stored.toolCalls as unknown[] } };
  }

  // The calls kept of a cut answer: the limit's number, or none from OpenAI's stream, whose calls are whole only at its end.
  const ways = [
    ["openai-compatible", "", "streamed", 0],
    ["openai-compatible", "/whole", "whole", RUN_ANSWER_TOOL_CALLS_MAX],
    ["anthropic", "", "streamed", RUN_ANSWER_TOOL_CALLS_MAX],
  ] as const;

  it.each(ways)("cuts a flood of empty calls (%s%s, %s) at the call past the limit's number, as a long answer", async (kind, whole, answer, kept) => {
    const { run, stored } = await runOf(kind, `/flood${whole}`, answer);
    expect(run).toMatchObject({ status: "succeeded", notice: RUN_MSG.outputCut });
    expect(run.toolCalls).toHaveLength(kept);
    expect(stored).toMatchObject({ status: "succeeded", notice: RUN_MSG.outputCut });
    expect(stored.toolCalls).toHaveLength(kept);
  });

  it.each(ways)("keeps an answer of a few calls (%s%s, %s) whole", async (kind, whole, answer) => {
    const { run, stored } = await runOf(kind, `/three${whole}`, answer);
    const id = (index: number) => (kind === "anthropic" ? `toolu_${index}` : `call_${index}`);
    const calls = [0, 1, 2].map((index) => ({ id: id(index), name: "note", arguments: `{"n":${index}}` }));
    expect(run).toMatchObject({ status: "succeeded", notice: null, toolCalls: calls });
    expect(stored).toEqual({ status: "succeeded", notice: null, toolCalls: calls });
  });
});
