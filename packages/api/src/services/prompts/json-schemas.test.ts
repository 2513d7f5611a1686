// A value's check against a JSON Schema (a run's answer against its response schema, a tool call's
// arguments): a schema's regular expressions match as usual, and one that backtracks catastrophically on
// the answer is stopped at its time limit, failing the check saying so, instead of holding the process; a
// large answer gets time in proportion to its size.
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { jsonSchemaProblem, schemaMismatch } from "./json-schemas.ts";
import { schemaCheckTimeoutMs } from "./regex-time-limit.ts";

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
    expect(performance.now() - started).toBeLessThan(2_500);
    // The same pattern on an answer it settles quickly still answers.
    expect(schemaMismatch(schema, { word: "aaaa" })).toBeNull();
  });

  it("a patternProperties pattern is stopped the same way, on an object's key", { timeout: 5_000 }, () => {
    const schema = { type: "object", patternProperties: { "^(a+)+$": { type: "number" } } };
    const started = performance.now();
    expect(schemaMismatch(schema, { [catastrophic]: 1 })).toBe(TIMED_OUT);
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(schemaMismatch(schema, { aaaa: "one" })).toBe("/aaaa must be number");
  });

  it("a check's time limit grows with the value's size, up to a ceiling", () => {
    expect(schemaCheckTimeoutMs(0)).toBe(250);
    expect(schemaCheckTimeoutMs(9_999)).toBe(250);
    expect(schemaCheckTimeoutMs(5_000_000)).toBe(750);
    expect(schemaCheckTimeoutMs(10_000_000)).toBe(1_250);
    expect(schemaCheckTimeoutMs(1_000_000_000)).toBe(5_000);
  });

  // About 5 MB: 50,000 items, each two strings a plain pattern checks.
  const items = Array.from({ length: 50_000 }, (_, index) => ({ id: `item-${index}`, note: "x".repeat(80) }));
  const itemsText = JSON.stringify(items);
  const itemsSchema = {
    type: "object",
    properties: {
      word: { type: "string", pattern: "^(a+)+$" },
      items: { type: "array", items: { type: "object", properties: { id: { type: "string", pattern: "^item-[0-9]+$" }, note: { type: "string", pattern: "^x+$" } } } },
    },
  };

  it("a multi-megabyte answer whose patterns do not backtrack matches", () => {
    expect(itemsText.length).toBeGreaterThan(5_000_000);
    expect(schemaMismatch(itemsSchema, { items })).toBeNull();
    expect(schemaMismatch(itemsSchema, { items: [...items, { id: "item-x" }] })).toBe('/items/50000/id must match pattern "^item-[0-9]+$"');
  });

  it("a large answer's check runs under its size's time limit, and says which", { timeout: 10_000 }, () => {
    const started = performance.now();
    const reason = schemaMismatch(itemsSchema, { word: catastrophic, items });
    const elapsed = performance.now() - started;
    const limit = Number(/took longer than ([\d,]+) ms on this answer/.exec(reason ?? "")?.[1]?.replace(/,/g, ""));
    // Counted from the value without writing it out: about its JSON text's length, not more.
    expect(limit).toBeGreaterThan(schemaCheckTimeoutMs(itemsText.length * 0.8));
    expect(limit).toBeLessThanOrEqual(schemaCheckTimeoutMs(itemsText.length));
    expect(elapsed).toBeGreaterThanOrEqual(limit);
  });
});

// Compiled validators are shared by every team and kept for a while: what one schema compiles leaves
// nothing another sees, and nothing that outlives the bounded set of validators kept.
describe("compiled schemas", () => {
  /** A schema unlike any other compiled, so none is reused. */
  const distinct = (index: number) => ({ type: "object", properties: { [`field${index}`]: { type: "string", pattern: `^${index}` } } });

  it("two schemas with the same $id both compile, and again after leaving the compiled set", () => {
    const first = { $id: "https://example.com/weather", type: "object", required: ["city"] };
    const second = { $id: "https://example.com/weather", type: "object", required: ["wind"] };
    expect(jsonSchemaProblem("first", first)).toBeNull();
    expect(jsonSchemaProblem("second", second)).toBeNull();
    for (let index = 0; index < 600; index += 1) schemaMismatch(distinct(index), {});
    expect(schemaMismatch(first, {})).toBe("the answer must have required property 'city'");
  });

  it("a $ref does not reach another schema's $id, at its root or inside it", () => {
    expect(jsonSchemaProblem("owner", { $id: "https://example.com/owned", type: "string" })).toBeNull();
    expect(jsonSchemaProblem("owner", { properties: { city: { $id: "https://example.com/inner", type: "string" } } })).toBeNull();
    expect(jsonSchemaProblem("other", { $ref: "https://example.com/owned" })).toMatch(/can't resolve reference https:\/\/example.com\/owned/);
    expect(jsonSchemaProblem("other", { properties: { city: { type: "number" } }, $ref: "https://example.com/inner" })).toMatch(/can't resolve reference https:\/\/example.com\/inner/);
  });

  it("a schema compiled long ago is freed once later ones have pushed it out", { timeout: 30_000 }, async () => {
    v8.setFlagsFromString("--expose-gc");
    const collectGarbage = vm.runInNewContext("gc") as () => void;
    let early: Record<string, unknown> | undefined = distinct(-1);
    expect(schemaMismatch(early, {})).toBeNull();
    const freed = new WeakRef(early);
    early = undefined;
    for (let index = 0; index < 2_000; index += 1) schemaMismatch(distinct(index), {});
    // A WeakRef holds its target to the end of the current turn.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(freed.deref()).toBeUndefined();
  });
});
