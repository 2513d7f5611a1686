// A value's check against a JSON Schema (a run's answer against its response schema, a tool call's
// arguments): a schema's regular expressions match as usual, and one that backtracks catastrophically on
// the answer is stopped at its time limit, failing the check saying so, instead of holding the process.
import { describe, expect, it } from "vitest";
import { schemaMismatch } from "./json-schemas.ts";

// `^(a+)+$` takes twice as long per "a" before a character that fails it: a few seconds here at 28
// (at 40, hours). 28 is far past the time limit, yet ends, so without the limit this test fails rather
// than hangs (a test's own timeout cannot interrupt synchronous code).
const catastrophic = `${"a".repeat(28)}!`;
const TIMED_OUT = "the schema's patterns took longer than 250 ms on this answer and were stopped (one may backtrack catastrophically)";

describe("schemaMismatch", () => {
  it("a pattern matches as usual, and a schema without one is checked as before", () => {
    const schema = { type: "object", properties: { code: { type: "string", pattern: "^[A-Z]+$" } }, required: ["code"] };
    expect(schemaMismatch(schema, { code: "ADA" })).toBeNull();
    expect(schemaMismatch(schema, { code: "ada" })).toBe('/code must match pattern "^[A-Z]+$"');
    expect(schemaMismatch({ type: "object", required: ["wind"] }, {})).toBe("the answer must have required property 'wind'");
  });

  it("a catastrophically backtracking pattern is stopped within its time limit and the check fails saying so", { timeout: 5_000 }, () => {
    const schema = { type: "object", properties: { word: { type: "string", pattern: "^(a+)+$" } } };
    const started = performance.now();
    expect(schemaMismatch(schema, { word: catastrophic })).toBe(TIMED_OUT);
    expect(performance.now() - started).toBeLessThan(1_000);
    // The same pattern on an answer it settles quickly still answers.
    expect(schemaMismatch(schema, { word: "aaaa" })).toBeNull();
  });

  it("a patternProperties pattern is stopped the same way, on an object's key", { timeout: 5_000 }, () => {
    const schema = { type: "object", patternProperties: { "^(a+)+$": { type: "number" } } };
    const started = performance.now();
    expect(schemaMismatch(schema, { [catastrophic]: 1 })).toBe(TIMED_OUT);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(schemaMismatch(schema, { aaaa: "one" })).toBe("/aaaa must be number");
  });
});
