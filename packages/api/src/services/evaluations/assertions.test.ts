// Every assertion kind on a run's facts: its pass, its failure and the failure's reason in plain words;
// a catastrophic regular expression is stopped, not left to stall (a large output's schema check given
// time in proportion to its length); the judge is called for judged ones only.
import { describe, expect, it } from "vitest";
import type { Assertion } from "@promptly/shared";
import { REGEX_TIMEOUT_MS, schemaCheckTimeoutMs, schemaPatternsTimedOut } from "../prompts/regex-time-limit.ts";
import { checkAssertions, type Judge, type RunFacts } from "./assertions.ts";

const facts = (overrides: Partial<RunFacts> = {}): RunFacts => ({ output: "Hello, Ada!", latencyMs: 120, cost: 0.002, ...overrides });
const noJudge: Judge = async () => {
  throw new Error("the judge was not to be asked");
};
const one = async (assertion: Assertion, overrides: Partial<RunFacts> = {}, judge: Judge = noJudge) => (await checkAssertions([assertion], facts(overrides), judge))[0]!;

describe("checkAssertions", () => {
  it("equals: the whole output, surrounding whitespace aside", async () => {
    expect(await one({ type: "equals", value: "Hello, Ada!" }, { output: "Hello, Ada!\n" })).toEqual({ type: "equals", value: "Hello, Ada!", pass: true });
    expect(await one({ type: "equals", value: "Hello, Bob!" })).toEqual({ type: "equals", value: "Hello, Bob!", pass: false, reason: 'The output "Hello, Ada!" is not "Hello, Bob!"' });
  });

  it("contains and notContains: exact, case-sensitive", async () => {
    expect((await one({ type: "contains", value: "Ada" })).pass).toBe(true);
    expect(await one({ type: "contains", value: "ada" })).toMatchObject({ pass: false, reason: 'The output does not contain "ada"' });
    expect((await one({ type: "notContains", value: "Bob" })).pass).toBe(true);
    expect(await one({ type: "notContains", value: "Ada" })).toMatchObject({ pass: false, reason: 'The output contains "Ada"' });
  });

  it("regex: matches anywhere unless anchored; an invalid pattern fails with why", async () => {
    expect((await one({ type: "regex", value: "A[a-z]+" })).pass).toBe(true);
    expect(await one({ type: "regex", value: "^Ada" })).toMatchObject({ pass: false, reason: "The output does not match /^Ada/" });
    expect(await one({ type: "regex", value: "(" })).toMatchObject({ pass: false, reason: expect.stringMatching(/^The regular expression is not valid: /) });
  });

  it("regex: a catastrophically backtracking pattern is stopped within its time limit and fails saying so", async () => {
    const started = performance.now();
    const outcome = await one({ type: "regex", value: "^(a+)+$" }, { output: `${"a".repeat(40)}b` });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(outcome).toMatchObject({ pass: false, reason: expect.stringContaining(`took longer than ${REGEX_TIMEOUT_MS} ms`) });
    // The same pattern on an output it settles quickly still answers.
    expect((await one({ type: "regex", value: "^(a+)+$" }, { output: "aaaa" })).pass).toBe(true);
  });

  it("json: the output parses as JSON", async () => {
    expect((await one({ type: "json" }, { output: ' {"a": 1} ' })).pass).toBe(true);
    expect(await one({ type: "json" })).toMatchObject({ pass: false, reason: expect.stringMatching(/^The output is not JSON: /) });
  });

  it("jsonSchema: validated by the schema, the first issue's place and words given", async () => {
    const schema = JSON.stringify({ type: "object", properties: { name: { type: "string" }, age: { type: "integer", minimum: 0 } }, required: ["name"] });
    expect((await one({ type: "jsonSchema", value: schema }, { output: '{"name":"Ada","age":36}' })).pass).toBe(true);
    expect(await one({ type: "jsonSchema", value: schema }, { output: '{"name":"Ada","age":"old"}' })).toMatchObject({
      pass: false,
      reason: expect.stringMatching(/^The output does not match the schema at age: /),
    });
    expect(await one({ type: "jsonSchema", value: schema }, { output: "{}" })).toMatchObject({ pass: false, reason: expect.stringMatching(/at name/) });
    expect(await one({ type: "jsonSchema", value: schema })).toMatchObject({ pass: false, reason: expect.stringMatching(/^The output is not JSON/) });
    expect(await one({ type: "jsonSchema", value: "{nope" }, { output: "{}" })).toMatchObject({ pass: false, reason: "The JSON schema is not valid JSON" });
    expect(await one({ type: "jsonSchema", value: JSON.stringify({ $ref: "#/nowhere" }) }, { output: "{}" })).toMatchObject({
      pass: false,
      reason: expect.stringMatching(/^The JSON schema could not be read: /),
    });
  });

  it("jsonSchema: a catastrophically backtracking pattern is stopped within its time limit and fails saying so", { timeout: 5_000 }, async () => {
    // `^(a+)+$` takes twice as long per "a" before a character that fails it: a few seconds here at 28
    // (at 40, hours). Far past the limit, yet it ends, so without the limit this test fails rather than hangs.
    const catastrophic = `${"a".repeat(28)}!`;
    const timedOut = schemaPatternsTimedOut(REGEX_TIMEOUT_MS, "output");
    const pattern = JSON.stringify({ type: "object", properties: { word: { type: "string", pattern: "^(a+)+$" } } });
    const patternProperties = JSON.stringify({ type: "object", patternProperties: { "^(a+)+$": { type: "number" } } });
    for (const [schema, output] of [[pattern, { word: catastrophic }], [patternProperties, { [catastrophic]: 1 }]] as const) {
      const started = performance.now();
      expect(await one({ type: "jsonSchema", value: schema }, { output: JSON.stringify(output) })).toMatchObject({ pass: false, reason: timedOut });
      expect(performance.now() - started).toBeLessThan(2_500);
    }
    // The same patterns on an output they settle quickly still answer.
    expect((await one({ type: "jsonSchema", value: pattern }, { output: '{"word":"aaaa"}' })).pass).toBe(true);
    expect(await one({ type: "jsonSchema", value: pattern }, { output: '{"word":"bbb"}' })).toMatchObject({
      pass: false,
      reason: expect.stringMatching(/^The output does not match the schema at word: /),
    });
  });

  it("jsonSchema: a multi-megabyte output gets time in proportion to its length", { timeout: 10_000 }, async () => {
    // Over 5 MB: 20,000 items, each two strings a plain pattern checks (40,000 checked strings). Long notes
    // rather than more items: the check then takes a small fraction of its limit (some 100 ms of 780), so
    // a slow machine does not run it out.
    const items = Array.from({ length: 20_000 }, (_, index) => ({ id: `item-${index}`, note: "x".repeat(240) }));
    const schema = JSON.stringify({
      type: "object",
      properties: {
        word: { type: "string", pattern: "^(a+)+$" },
        items: { type: "array", items: { type: "object", properties: { id: { type: "string", pattern: "^item-[0-9]+$" }, note: { type: "string", pattern: "^x+$" } } } },
      },
    });
    const output = JSON.stringify({ items });
    expect(output.length).toBeGreaterThan(5_000_000);
    // Passed, not stopped: no reason at all (a timeout's would be schemaPatternsTimedOut's).
    expect(await one({ type: "jsonSchema", value: schema }, { output })).toEqual({ type: "jsonSchema", value: schema, pass: true });
    // A catastrophic pattern in it is still stopped, at the limit its length earns, and the reason says which.
    const withWord = JSON.stringify({ word: `${"a".repeat(28)}!`, items });
    const limit = schemaCheckTimeoutMs(withWord.length);
    expect(limit).toBeGreaterThan(700);
    const started = performance.now();
    expect(await one({ type: "jsonSchema", value: schema }, { output: withWord })).toMatchObject({
      pass: false,
      reason: schemaPatternsTimedOut(limit, "output"),
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(limit);
  });

  it("maxLength: characters, not bytes", async () => {
    expect((await one({ type: "maxLength", value: "3" }, { output: "héé" })).pass).toBe(true);
    expect((await one({ type: "maxLength", value: "2" }, { output: "😀😀" })).pass).toBe(true);
    expect(await one({ type: "maxLength", value: "5" })).toMatchObject({ pass: false, reason: "The output is 11 characters long, over the limit of 5" });
  });

  it("maxLatencyMs: the answer's whole time", async () => {
    expect((await one({ type: "maxLatencyMs", value: "120" })).pass).toBe(true);
    expect(await one({ type: "maxLatencyMs", value: "100" })).toMatchObject({ pass: false, reason: "The answer took 120 ms, over the limit of 100 ms" });
  });

  it("maxCost: dollars; an unknown cost fails, saying so", async () => {
    expect((await one({ type: "maxCost", value: "0.01" })).pass).toBe(true);
    expect(await one({ type: "maxCost", value: "0.001" })).toMatchObject({ pass: false, reason: "The run cost $0.002, over the limit of $0.001" });
    expect(await one({ type: "maxCost", value: "1" }, { cost: null })).toMatchObject({ pass: false, reason: expect.stringContaining("cost is unknown") });
  });

  it("judge: delegated with the assertion and the facts; a judge that throws is a failure with its words", async () => {
    const asked: [Assertion, RunFacts][] = [];
    const judge: Judge = async (assertion, given) => {
      asked.push([assertion, given]);
      return { pass: false, reason: "Too curt" };
    };
    const rubric: Assertion = { type: "judge", value: "Is it polite?", connectionId: "00000000-0000-4000-8000-000000000001", model: "gpt-4o-mini" };
    expect(await one(rubric, { expected: "Hi" }, judge)).toEqual({ type: "judge", value: "Is it polite?", pass: false, reason: "Too curt" });
    expect(asked).toEqual([[rubric, facts({ expected: "Hi" })]]);
    const broken: Judge = async () => {
      throw new Error("connection gone");
    };
    expect(await one(rubric, {}, broken)).toMatchObject({ pass: false, reason: "The judge could not answer: connection gone" });
  });

  it("keeps the assertions' order, and a case with no assertions is an implicit equals on its expected output", async () => {
    const outcomes = await checkAssertions([{ type: "contains", value: "Bob" }, { type: "json" }, { type: "maxLength", value: "100" }], facts({ expected: "no matter" }), noJudge);
    expect(outcomes.map((outcome) => [outcome.type, outcome.pass])).toEqual([["contains", false], ["json", false], ["maxLength", true]]);
    expect(await checkAssertions([], facts({ expected: " Hello, Ada! " }), noJudge)).toEqual([{ type: "equals", value: " Hello, Ada! ", pass: true }]);
    expect((await checkAssertions([], facts({ expected: "Bye" }), noJudge))[0]).toMatchObject({ type: "equals", pass: false });
    expect(await checkAssertions([], facts(), noJudge)).toEqual([]);
  });
});
