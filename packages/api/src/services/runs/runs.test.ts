// A whole answer (an evaluation item's) cut as a run records it: the text to the output's limit, then
// the tool calls that fit with it, at most RUN_ANSWER_TOOL_CALLS_MAX; the call past a limit and those
// after it left out.
import { describe, expect, it } from "vitest";
import { RUN_ANSWER_TOOL_CALLS_MAX, RUN_OUTPUT_MAX_CHARS, type ToolCall } from "@promptly/shared";
import { answerWithinLimit } from "./runs.ts";

const call = (id: string, argumentsLength = 2): ToolCall => ({ id, name: "note", arguments: "x".repeat(argumentsLength) });
const empty: ToolCall = { id: "", name: "", arguments: "" };
const calls = (count: number, of: (index: number) => ToolCall) => Array.from({ length: count }, (_, index) => of(index));

describe("answerWithinLimit", () => {
  const half = "t".repeat(RUN_OUTPUT_MAX_CHARS / 2);
  it.each([
    ["keeps an ordinary answer", { text: "Hello", toolCalls: [call("a"), call("b")] }, { text: "Hello", toolCalls: [call("a"), call("b")] }],
    ["cuts a long text, with no call after it", { text: "t".repeat(RUN_OUTPUT_MAX_CHARS + 1), toolCalls: [empty] }, { text: "t".repeat(RUN_OUTPUT_MAX_CHARS), toolCalls: [] }],
    [
      "leaves out the call past the limit with the text, and those after it",
      { text: half, toolCalls: [call("a", 1_000), call("b", RUN_OUTPUT_MAX_CHARS / 2), call("c")] },
      { text: half, toolCalls: [call("a", 1_000)] },
    ],
    ["keeps calls that fill the limit exactly", { text: half, toolCalls: [call("a", RUN_OUTPUT_MAX_CHARS / 2 - 5)] }, { text: half, toolCalls: [call("a", RUN_OUTPUT_MAX_CHARS / 2 - 5)] }],
    ["keeps the limit's number of calls", { text: "", toolCalls: calls(RUN_ANSWER_TOOL_CALLS_MAX, () => empty) }, { text: "", toolCalls: calls(RUN_ANSWER_TOOL_CALLS_MAX, () => empty) }],
    ["leaves out empty calls past the limit's number", { text: "", toolCalls: calls(5_000, () => empty) }, { text: "", toolCalls: calls(RUN_ANSWER_TOOL_CALLS_MAX, () => empty) }],
  ])("%s", (_what, answer, expected) => {
    expect(answerWithinLimit(answer)).toEqual(expected);
  });
});
