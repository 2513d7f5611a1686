import { describe, expect, it } from "vitest";
import { RUN_MSG, runPromptInput } from "./runs.ts";

const base = { promptId: "00000000-0000-4000-8000-000000000001", version: 1, connectionId: "00000000-0000-4000-8000-000000000002" };
const callTurn = (argumentsText: string) => ({ role: "assistant" as const, content: "", toolCalls: [{ id: "call_1", name: "lookup", arguments: argumentsText }] });

describe("a run's follow-up with tool calls", () => {
  it("counts a tool call's arguments with the text, so they cannot grow past the draft's limit", () => {
    expect(runPromptInput.safeParse({ ...base, followUp: [callTurn('{"id":"7"}')] }).success).toBe(true);
    const tooLong = runPromptInput.safeParse({ ...base, followUp: [callTurn(`"${"x".repeat(2_000_000)}"`)] });
    expect(tooLong.success).toBe(false);
    expect(tooLong.error?.issues.map((issue) => issue.message)).toContain(RUN_MSG.draftTooLong);
  });
});
