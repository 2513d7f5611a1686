// The production bundle's object-spread helper for tRPC (object-spread.mjs): it is found in the
// installed @trpc/server, gives the same objects as tRPC's own for what the compiler emits, and the
// build stops when it has nothing to replace.
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { fastObjectSpread, withFastObjectSpread } from "./object-spread.mjs";

type Spread = (...objects: object[]) => object;

const trpcDist = join(dirname(createRequire(import.meta.url).resolve("@trpc/server")), ".");
/** The ES modules of the installed @trpc/server that define the helper. */
const definingModules = readdirSync(trpcDist)
  .filter((name) => name.endsWith(".mjs"))
  .map((name) => readFileSync(join(trpcDist, name), "utf8"))
  .filter((source) => source.includes("function _objectSpread2("));

/** The helper a module defines, as a function (with the helpers it calls, which precede it in the module). */
function helperOf(source: string): Spread {
  const start = source.indexOf("//#region \\0@oxc-project+runtime");
  const end = source.indexOf("return e;\n}", source.indexOf("function _objectSpread2(")) + "return e;\n}".length;
  return new Function(`${source.slice(start, end)}\nreturn _objectSpread2;`)() as Spread;
}

describe("tRPC's object spread in the bundle", () => {
  it("finds the helper in the installed @trpc/server and replaces it", () => {
    expect(definingModules.length).toBeGreaterThan(0);
    for (const source of definingModules) {
      const replaced = withFastObjectSpread(source)!;
      expect(replaced).toContain("case 2: return { ...e, ...a };");
      expect(replaced).not.toContain("Object.defineProperty(e, r, Object.getOwnPropertyDescriptor(t, r))");
    }
  });

  it("makes the same objects as tRPC's helper, for the calls the compiler emits", () => {
    const source = definingModules[0]!;
    const original = helperOf(source);
    const fast = helperOf(withFastObjectSpread(source)!);
    const symbol = Symbol("s");
    let reads = 0;
    const withGetter = {
      get counted() {
        reads++;
        return "read";
      },
    };
    const cases: Array<(spread: Spread) => object> = [
      // { ...opts }, and { ...opts, meta, input, next } (the middleware chain's copies).
      (spread) => spread({}, { a: 1, b: "two", [symbol]: 3 }),
      (spread) => spread(spread({}, { a: 1, b: 2 }), {}, { b: 3, c: 4 }),
      // { ...ctx, ...nextCtx }: later keys win and keep the first one's place.
      (spread) => spread(spread({}, { x: 1, y: 2, z: 3 }), { y: 20, w: 40 }),
      // A literal before the spread, undefined and null sources, a key named __proto__ from JSON.
      (spread) => spread({ first: true }, JSON.parse('{"__proto__": {"polluted": true}, "k": 1}') as object),
      (spread) => spread(spread({}, undefined as never), {}, { only: 1 }),
      (spread) => spread({}, null as never),
      // A getter is read once and copied as a value.
      (spread) => spread({}, withGetter),
    ];
    for (const make of cases) {
      const [expected, actual] = [make(original), make(fast)];
      expect(Reflect.ownKeys(actual)).toEqual(Reflect.ownKeys(expected));
      for (const key of Reflect.ownKeys(expected)) {
        expect(Object.getOwnPropertyDescriptor(actual, key)).toEqual(Object.getOwnPropertyDescriptor(expected, key));
      }
      expect(Object.getPrototypeOf(actual)).toBe(Object.prototype);
    }
    expect(reads).toBe(2);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("refuses a helper whose shape changed, rather than leaving it as it is", () => {
    const changed = definingModules[0]!.replace("for (var r = 1; r < arguments.length; r++) {", "for (let r = 1; r < arguments.length; r++) {");
    expect(() => withFastObjectSpread(changed)).toThrow(/changed shape/);
    expect(withFastObjectSpread("export const x = 1;")).toBeNull();
  });

  it("fails a build in which no @trpc/server module defined the helper", async () => {
    const failed = build({
      stdin: { contents: "export const x = 1;", loader: "js" },
      write: false,
      bundle: true,
      logLevel: "silent",
      plugins: [fastObjectSpread()],
    });
    await expect(failed).rejects.toThrow(/no @trpc\/server module defined _objectSpread2/);
  });
});
