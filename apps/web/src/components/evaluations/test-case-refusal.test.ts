// The test case dialog's placing of a server refusal, fed the answer the server's error formatter
// gives (packages/api/src/trpc.ts: the first issue's message, zod's flattened issues under data.zodError).
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { EVALUATION_MSG, MSG, testCaseInput } from "@promptly/shared";
import { refusalPlaces } from "./test-case-refusal.ts";

const PROMPT_ID = "00000000-0000-4000-8000-000000000001";

/** What the client receives when the server's schema refuses `input`. */
function refusal(input: Record<string, unknown>) {
  const parsed = testCaseInput.safeParse({ promptId: PROMPT_ID, ...input });
  if (parsed.success) throw new Error("the schema accepts this input");
  return { message: parsed.error.issues[0]!.message, data: { code: "BAD_REQUEST", httpStatus: 400, zodError: z.flattenError(parsed.error), reason: null } };
}

/** One character over the expected output's limit (100,000). */
const tooLong = "x".repeat(100_001);

describe("refusalPlaces", () => {
  it("puts a refusal of the expected output under that field, and nothing above the buttons", () => {
    const error = refusal({ expected: tooLong });
    expect(error.data.zodError.fieldErrors).toHaveProperty("expected");
    expect(refusalPlaces(error)).toEqual({ expected: error.message, form: undefined });
  });

  it("says a refusal naming no field of the dialog above the buttons", () => {
    const error = refusal({ variables: { topic: "a\u0000b" } });
    expect(refusalPlaces(error)).toEqual({ expected: undefined, form: MSG.multilineControlCharacters });
  });

  it("a refusal of the expected output and of another field: each once, where it belongs", () => {
    const error = refusal({ variables: { topic: "a\u0000b" }, expected: tooLong });
    const expected = error.data.zodError.fieldErrors.expected![0];
    expect(refusalPlaces(error)).toEqual({ expected, form: MSG.multilineControlCharacters });
  });

  it("a refusal that is no input's (an unknown variable, a judge's connection) is said above the buttons in its words", () => {
    const message = EVALUATION_MSG.judgeNeedsConnection;
    expect(refusalPlaces({ message, data: { code: "BAD_REQUEST", httpStatus: 400, zodError: null, reason: null } })).toEqual({ expected: undefined, form: message });
    expect(refusalPlaces(new Error("Failed to fetch"))).toEqual({ expected: undefined, form: "Failed to fetch" });
  });
});
