// Evaluations of versions with tools and a response format, on the real job queue and a local
// provider: each case's calls send them, and the tool-call assertions (called a tool; with arguments
// holding values or matching a schema) and the response-format assertion pass and fail where they should.
import { beforeAll, describe, expect, it } from "vitest";
import type { Prisma } from "@promptly/db";
import { EVALUATION_MSG, RUN_OUTPUT_MAX_CHARS, testCaseInput, type Assertion, type PromptTool, type ResponseFormat } from "@promptly/shared";
import type { Harness } from "../../../testing/harness.ts";
import type { FakeProvider } from "../../../testing/fake-provider.ts";
import { useEvaluationWorld, type EvaluationWorld } from "../../../testing/evaluations-support.ts";

const fixture = useEvaluationWorld();
const { finished } = fixture;
let h: Harness;
let world: EvaluationWorld["world"];
let provider: FakeProvider;
let team: { id: string };
let connection: { id: string };
beforeAll(() => void ({ h, world, provider, team, connection } = fixture));

const weatherTool: PromptTool = { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };
const format = (required: string[]): ResponseFormat => ({
  type: "json_schema",
  name: "forecast",
  schema: { type: "object", properties: { rain: { type: "boolean" }, wind: { type: "number" } }, required },
});

const toolArguments = (value: unknown): Assertion => ({ type: "toolArguments", value: JSON.stringify(value) });

describe("an evaluation of tools and a response format", () => {
  it("judges tool calls and structured answers by the version each case ran", async () => {
    // v1 offers the tool (the model calls it); v2 asks for a forecast with rain; v3 for one with wind too.
    const messages = [{ role: "user" as const, content: "Will it rain in {{ city }}?" }];
    const prompt = await world.callers.editor.prompts.create({ teamId: team.id, name: "weather", title: "Weather", visibility: "team", type: "chat", messages, tools: [weatherTool] });
    await world.callers.editor.promptVersions.create({ promptId: prompt.id, messages, responseFormat: format(["rain"]) });
    await world.callers.editor.promptVersions.create({ promptId: prompt.id, messages, responseFormat: format(["rain", "wind"]) });
    const cases: Assertion[][] = [
      [{ type: "toolCalled", value: "get_weather" }, toolArguments({ tool: "get_weather", values: { city: "Oslo" } })],
      [toolArguments({ tool: "get_weather", values: { city: "Paris" } })],
      [toolArguments({ tool: "get_weather", schema: { type: "object", properties: { city: { enum: ["Oslo", "Bergen"] } }, required: ["city"] } })],
      [{ type: "responseSchema" }],
    ];
    const createdAt = Date.now();
    await h.services.db.testCase.createMany({
      data: cases.map((assertions, index) => ({
        promptId: prompt.id, variables: { city: "Oslo" }, assertions: assertions as unknown as Prisma.InputJsonArray, createdAt: new Date(createdAt + index),
      })),
    });

    provider.answer.toolCall = { name: "get_weather", arguments: { city: "Oslo" } };
    provider.answer.text = JSON.stringify({ rain: true });
    try {
      const started = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1, 2, 3], model: "gpt-4o-mini", connectionId: connection.id });
      expect((await finished(started.id)).status).toBe("done");
    } finally {
      provider.answer.toolCall = null;
      provider.answer.text = null;
    }
    // Each call sent its version's tools or response format.
    const sent = provider.calls.filter((call) => call.path === "/v1/chat/completions").map((call) => call.body as Record<string, unknown>);
    expect(sent.filter((body) => body.tools).length).toBe(4);
    expect(sent.filter((body) => body.response_format).length).toBe(8);

    const { cases: results } = await world.callers.viewer.evaluations.results({ id: (await world.callers.viewer.evaluations.list({ promptId: prompt.id })).items[0]!.id });
    const verdicts = results.map((row) => row.versions.map((cell) => cell.status));
    expect(verdicts).toEqual([
      ["passed", "failed", "failed"],
      ["failed", "failed", "failed"],
      ["passed", "failed", "failed"],
      ["failed", "passed", "failed"],
    ]);
    const v1 = (row: number) => results[row]!.versions[0]!;
    expect(v1(0).output).toBe('get_weather({"city":"Oslo"})');
    expect(v1(1).results).toEqual([{ ...toolArguments({ tool: "get_weather", values: { city: "Paris" } }), pass: false, reason: 'The model called "get_weather", but its argument "city" is "Oslo", not "Paris"' }]);
    expect(results[0]!.versions[1]!.results).toMatchObject([{ type: "toolCalled", pass: false, reason: 'The model did not call "get_weather"' }, { pass: false }]);
    expect(v1(3).results).toMatchObject([{ type: "responseSchema", pass: false, reason: "The version has no JSON response format to check the output against" }]);
    expect(results[3]!.versions[2]!.results).toMatchObject([{ type: "responseSchema", pass: false, reason: "the answer must have required property 'wind'" }]);
  });
});

describe("an evaluation item's answer past the run's limit", () => {
  it("is checked and stored as a run records it: a tool call too long with the rest left out, an ordinary one kept", async () => {
    const messages = [{ role: "user" as const, content: "Weather in {{ city }}?" }];
    const prompt = await world.callers.editor.prompts.create({ teamId: team.id, name: "weather-long", title: "Weather", visibility: "team", type: "chat", messages, tools: [weatherTool] });
    const assertions: Assertion[] = [{ type: "toolCalled", value: "get_weather" }, toolArguments({ tool: "get_weather", values: { city: "Oslo" } })];
    await h.services.db.testCase.create({ data: { promptId: prompt.id, variables: { city: "Oslo" }, assertions: assertions as unknown as Prisma.InputJsonArray } });
    /** The one item of an evaluation whose model calls the tool with `city`, as stored. */
    const itemCalling = async (city: string) => {
      provider.answer.toolCall = { name: "get_weather", arguments: { city } };
      try {
        const started = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1], model: "gpt-4o-mini", connectionId: connection.id });
        expect((await finished(started.id)).status).toBe("done");
        return await h.services.db.evaluationItem.findFirstOrThrow({ where: { evaluationId: started.id }, select: { status: true, output: true, results: true } });
      } finally {
        provider.answer.toolCall = null;
      }
    };

    // Its arguments alone are past the limit: the call is left out, so neither checked nor quoted in a reason.
    const long = await itemCalling("x".repeat(RUN_OUTPUT_MAX_CHARS));
    expect(long).toEqual({
      status: "failed",
      output: "",
      results: [
        { type: "toolCalled", value: "get_weather", pass: false, reason: 'The model did not call "get_weather"' },
        { ...assertions[1], pass: false, reason: 'The model did not call "get_weather"' },
      ],
    });

    const ordinary = await itemCalling("Oslo");
    expect(ordinary).toEqual({ status: "passed", output: 'get_weather({"city":"Oslo"})', results: assertions.map((assertion) => ({ ...assertion, pass: true })) });
  });
});

describe("the assertions' values", () => {
  it("are refused when they cannot be checked: a tool name, and JSON naming a tool with a schema or values", () => {
    const refusal = (assertion: Assertion) => testCaseInput.safeParse({ promptId: crypto.randomUUID(), assertions: [assertion] }).error?.issues[0]?.message;
    expect(refusal({ type: "toolCalled", value: "get weather" })).toBe(EVALUATION_MSG.assertionToolName);
    expect(refusal(toolArguments({ tool: "get_weather" }))).toBe(EVALUATION_MSG.assertionToolArguments);
    expect(refusal({ type: "toolArguments", value: "{ tool" })).toBe(EVALUATION_MSG.assertionToolArguments);
    expect(refusal({ type: "responseSchema" })).toBeUndefined();
    expect(refusal(toolArguments({ tool: "get_weather", values: { city: "Oslo" } }))).toBeUndefined();
  });
});
