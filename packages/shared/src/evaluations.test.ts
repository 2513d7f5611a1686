// Why a case could not run, in words: Node's network failure codes said plainly, anything else as it was.
import { describe, expect, it } from "vitest";
import { caseErrorInWords } from "./evaluations.ts";

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
