// The production bundle's copy of tRPC with a faster object spread.
//
// tRPC's published build turns every `{ ...a, b }` into calls of one helper, `_objectSpread2`, which
// copies property by property with Object.defineProperty. Its middleware chain spreads the call's
// options twice and the context once at every step, so a query behind eight middlewares made about
// twenty such copies of 10-20 properties: measured in-process, a quarter of `auth.me`'s CPU and a third
// of the garbage a request leaves. The bundle defines the helper with native spreads instead, which
// V8 copies in one step. The result is the same object for what the compiler emits:
// `_objectSpread2(_objectSpread2({}, a), {}, { b })`, where the odd arguments are copied as values
// (own enumerable string and symbol keys, getters read, `__proto__` an own key: native spread's
// semantics), and the even ones are always an empty `{}` (which the original copies by descriptor).
// Nothing keeps the helper's first argument: it is always an object the compiler just made.

/** The helper's text as tRPC 11's build (oxc) writes it, from its head to its last line. */
const HELPER = /function _objectSpread2\(e\) \{\n\tfor \(var r = 1; r < arguments\.length; r\+\+\) \{[\s\S]*?\n\treturn e;\n\}/;

/** The replacement: native spreads for the arities the compiler emits, the original loop for any other. */
const FAST_HELPER = `function _objectSpread2(e, a, b, c) {
\tswitch (arguments.length) {
\t\tcase 2: return { ...e, ...a };
\t\tcase 3: return { ...e, ...a, ...b };
\t\tcase 4: return { ...e, ...a, ...b, ...c };
\t}
\tfor (var r = 1; r < arguments.length; r++) e = { ...e, ...arguments[r] };
\treturn e;
}`;

/** A module's source with the helper replaced; null when the module does not define it. */
export function withFastObjectSpread(source) {
  if (!source.includes("function _objectSpread2(")) return null;
  if (!HELPER.test(source)) {
    throw new Error("tRPC's _objectSpread2 helper changed shape: review apps/server/src/fast-paths/object-spread.mjs against the installed @trpc/server");
  }
  return source.replace(HELPER, FAST_HELPER);
}

/**
 * esbuild plugin: bundles @trpc/server's modules with the fast helper. The build fails when none of them
 * defined it (a tRPC release that spreads natively, or one whose helper moved): the plugin then has
 * nothing to do and should go, or be brought up to date.
 */
export function fastObjectSpread() {
  return {
    name: "trpc-fast-object-spread",
    setup(build) {
      let replaced = 0;
      build.onStart(() => {
        replaced = 0;
      });
      build.onLoad({ filter: /[\\/]node_modules[\\/]@trpc[\\/]server[\\/]dist[\\/].*\.mjs$/ }, async ({ path }) => {
        const { readFile } = await import("node:fs/promises");
        const contents = withFastObjectSpread(await readFile(path, "utf8"));
        if (contents === null) return undefined;
        replaced++;
        return { contents, loader: "js" };
      });
      build.onEnd((result) =>
        result.errors.length === 0 && replaced === 0
          ? { errors: [{ text: "no @trpc/server module defined _objectSpread2: remove or update apps/server/src/fast-paths/object-spread.mjs" }] }
          : undefined,
      );
    },
  };
}
