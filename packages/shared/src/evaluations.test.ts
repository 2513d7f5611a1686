// Why a case could not run, in words: Node's network failure codes said plainly, anything else as it was.
import { describe, expect, it } from "vitest";
import { caseErrorInWords, testCaseInput } from "./evaluations.ts";

describe("caseErrorInWords", () => {
  it.each([
    ["Could not reach the provider (connect ECONNREFUSED 127.0.0.1:9)", "Could not reach the provider (nothing answered at 127.0.0.1:9: the connection was refused)"],
    ["Could not reach the provider (getaddrinfo ENOTFOUND api.example.invalid)", "Could not reach the provider (no server is known by the name api.example.invalid)"],
    ["Could not reach the provider (connect ETIMEDOUT 10.0.0.1:443)", "Could not reach the provider (10.0.0.1:443 did not answer in time)"],
    ["Could not reach the provider (read ECONNRESET)", "Could not reach the provider (the connection was cut off)"],
    ["The provider failed (500): upstream down", "The provider failed (500): upstream down"],
    ["The variable 'question' is required", "The variable 'question' is required"],
  ])("%s", (error, words) => {
    expect(caseErrorInWords(error)).toBe(words);
  });
});

describe("a test case's values over the size limit", () => {
  const issuePaths = (content: { variables?: Record<string, unknown>; placeholders?: Record<string, { role: "user"; content: string }[]>; expected?: string }) =>
    testCaseInput.safeParse({ promptId: "00000000-0000-4000-8000-000000000000", ...content }).error?.issues.map((issue) => issue.path.join("."));

  it("are refused on the field that takes the more: the variables, or the placeholders", () => {
    expect(issuePaths({ variables: { question: "a".repeat(100_000) } })).toEqual(["variables"]);
    expect(issuePaths({ variables: { question: "Why?" }, placeholders: { history: [{ role: "user", content: "a".repeat(60_000) }, { role: "user", content: "b".repeat(60_000) }] } })).toEqual(["placeholders"]);
    expect(issuePaths({ variables: { question: "a".repeat(70_000) }, placeholders: { history: [{ role: "user", content: "b".repeat(40_000) }] } })).toEqual(["variables"]);
    expect(issuePaths({ variables: { question: "a".repeat(40_000) }, placeholders: { history: [{ role: "user", content: "b".repeat(70_000) }] } })).toEqual(["placeholders"]);
  });

  it("an expected output over its own limit is refused on `expected`", () => {
    expect(issuePaths({ variables: { question: "Why?" }, expected: "a".repeat(100_001) })).toEqual(["expected"]);
  });
});
