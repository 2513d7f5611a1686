import superjson from "superjson";
import { describe, expect, it } from "vitest";
import { isoString, serialize, serializeFast, serializeToJsonText, transformer } from "./transformer.ts";

/**
 * The same result as superjson's own serialize: the same json, byte for byte, and the same annotations.
 * (The order of keys in meta.values may differ where a path segment is an array index; each annotation
 * names its own path, so superjson reads them alike in any order.)
 */
function expectSameAsSuperjson(value: unknown) {
  const ours = serialize(value);
  const theirs = superjson.serialize(value);
  expect(ours).toStrictEqual(theirs);
  expect(JSON.stringify(ours.json)).toBe(JSON.stringify(theirs.json));
}

class Point {
  constructor(
    public x = 1,
    public y = 2,
  ) {}
}

const row = (i: number) => ({
  id: `id-${i}`,
  name: `Organization ${i}`,
  slug: i % 3 === 0 ? null : `organization-${i}`,
  memberCount: i * 7,
  createdAt: new Date(Date.UTC(2026, 0, 1 + i, 12, 30)),
  myRole: i % 2 === 0 ? "admin" : null,
  isAdmin: i % 2 === 0,
});

describe("transformer fast path", () => {
  const fastCases: [string, unknown][] = [
    ["a list of rows with dates", Array.from({ length: 50 }, (_, i) => row(i))],
    ["nested dates", { a: { b: [{ c: new Date(0) }, { d: [new Date(1), "x"] }] }, e: new Date(86_400_000) }],
    ["keys with dots and backslashes", { "a.b": { "c\\d": new Date(5), "e\\.f": 1 }, "": new Date(6) }],
    ["an object without a prototype", Object.assign(Object.create(null) as object, { at: new Date(7), n: 1 })],
    ["primitives", { s: "", n: 0, f: 1.5, neg: -3, t: true, no: false, nil: null }],
    ["empty containers", { a: [], o: {}, nested: [[], [{}]] }],
    ["a string", "hello"],
    ["a number", 42],
    ["null", null],
    ["an array of dates", [new Date(1), new Date(2)]],
  ];
  it.each(fastCases)("%s: written by the fast path exactly as superjson writes it", (_, value) => {
    expect(serializeFast(value)).not.toBeNull();
    expectSameAsSuperjson(value);
  });

  /** The text writer: JSON.stringify(serialize(value)) to the byte, or null (the caller then stringifies). */
  const expectSameText = (value: unknown) => {
    const text = serializeToJsonText(value);
    if (text !== null) expect(text).toBe(JSON.stringify(serialize(value)));
    return text;
  };
  it.each(fastCases)("%s: written as text exactly as the fast path's value is stringified", (_, value) => {
    expectSameText(value);
  });
  it("writes a list of rows with dates as text itself (no fallback)", () => {
    expect(expectSameText({ rows: Array.from({ length: 50 }, (_, i) => row(i)) })).not.toBeNull();
    expect(expectSameText(Array.from({ length: 50 }, (_, i) => row(i)))).not.toBeNull();
  });

  const shared = { same: true };
  const circular: Record<string, unknown> = { name: "loop" };
  circular.self = circular;
  const sameDate = new Date(9);
  const slowCases: [string, unknown][] = [
    ["undefined at the root", undefined],
    ["an undefined property", { a: undefined, b: 1 }],
    ["a bare Date", new Date(3)],
    ["an invalid Date", { at: [1, new Date(Number.NaN)] }],
    ["NaN", { n: Number.NaN }],
    ["Infinity", { n: Number.POSITIVE_INFINITY, m: Number.NEGATIVE_INFINITY }],
    ["negative zero", { n: -0 }],
    ["a bigint", { n: 10n }],
    ["a Map and a Set", { m: new Map([["k", new Date(1)]]), s: new Set([1, 2]) }],
    ["a class instance", { p: new Point() }],
    ["an Error", { e: new Error("boom") }],
    ["a RegExp and a URL", { r: /a.b/g, u: new URL("https://example.test/x") }],
    ["a shared object", { a: shared, b: shared }],
    ["a shared Date", { a: sameDate, b: sameDate }],
    ["a circular object", circular],
    // eslint-disable-next-line no-sparse-arrays
    ["an array with a hole", [1, , 3]],
    ["a function", { f: () => 1, g: 2 }],
  ];
  it.each(slowCases)("%s: left to superjson", (_, value) => {
    expect(serializeFast(value)).toBeNull();
    expectSameAsSuperjson(value);
    expect(serializeToJsonText(value)).toBeNull();
  });

  it.each([...slowCases, ["typed arrays", { bytes: new Uint8Array([1, 2]), floats: new Float64Array([0.5]) }] as [string, unknown]])(
    "%s: read back as superjson reads it, past the envelope check",
    (_, value) => {
      const envelope = JSON.parse(JSON.stringify(superjson.serialize(value)));
      expect(transformer.deserialize(envelope)).toStrictEqual(superjson.deserialize(envelope));
    },
  );

  it("writes strings that need escaping as JSON.stringify does", () => {
    const strings = ['say "hi"', "back\\slash", "line\nbreak", "tab\there", "\u0000\u001f", "lone \ud800 half", "pair \ud83d\ude00", "\u2028\u2029", "plain"];
    for (const text of strings) expect(expectSameText({ rows: [{ text, at: new Date(1) }] })).not.toBeNull();
  });

  it("isoString is toISOString for every time value, the builtin's own beyond years 0 to 9999", () => {
    let seed = 20261128;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const edges = [0, -1, 1, 951_782_400_000, 951_868_799_999, 4_107_542_399_999, -62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_999, 253_402_300_800_000, 8.64e15, -8.64e15];
    const times = [...edges, ...Array.from({ length: 20_000 }, () => Math.floor((random() * 2 - 1) * 8.64e15)), ...Array.from({ length: 20_000 }, () => Math.floor(random() * 4e12))];
    for (const time of times) expect(isoString(new Date(time))).toBe(new Date(time).toISOString());
  });

  it("a __proto__ key is refused as superjson refuses it", () => {
    const value = JSON.parse('{"ok": 1, "__proto__": {"polluted": true}}') as unknown;
    expect(serializeFast(value)).toBeNull();
    expect(() => serialize(value)).toThrow(/prototype pollution/);
  });

  it("does not change the value it writes", () => {
    const value = { rows: [row(1), row(2)] };
    const before = structuredClone(value);
    serialize(value);
    expect(value).toStrictEqual(before);
  });

  it("random JSON-and-Date values match superjson and read back as they were", () => {
    let seed = 20261122;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const keys = ["a", "b.c", "d\\e", "0", "x y", "créé"];
    const make = (depth: number): unknown => {
      const kind = Math.floor(random() * (depth > 3 ? 5 : 7));
      switch (kind) {
        case 0:
          return Math.floor(random() * 2000) - 1000;
        case 1:
          return keys[Math.floor(random() * keys.length)];
        case 2:
          return random() < 0.3 ? null : random() < 0.5;
        case 3:
        case 4:
          return new Date(Math.floor(random() * 4e12));
        case 5:
          return Array.from({ length: Math.floor(random() * 4) }, () => make(depth + 1));
        default:
          return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [keys[Math.floor(random() * keys.length)], make(depth + 1)]));
      }
    };
    for (let i = 0; i < 300; i++) {
      const value = { root: make(0) };
      expect(serializeFast(value)).not.toBeNull();
      expectSameAsSuperjson(value);
      expectSameText(value);
      expectSameText((value as { root: unknown }).root);
      expect(transformer.deserialize(JSON.parse(JSON.stringify(serialize(value))))).toStrictEqual(value);
    }
  });
});
