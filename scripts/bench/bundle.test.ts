// The first page's JavaScript stays under its target, measured on the web app that `npm test` has just
// built (apps/web/dist), as `npm run bench -- bundle` measures a fresh build.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { INITIAL_JS_TARGET_KB, measureInitialAssets } from "./bundle.ts";

const DIST = fileURLToPath(new URL("../../apps/web/dist", import.meta.url));

test(`the initial JavaScript is under ${INITIAL_JS_TARGET_KB} kB gzip`, () => {
  expect(existsSync(`${DIST}/index.html`), "apps/web/dist is missing: build the web app first (npm run build)").toBe(true);
  const { js, jsGzip } = measureInitialAssets(DIST);
  expect(js.length).toBeGreaterThan(0);
  const listing = js.map((entry) => `${entry.file} ${(entry.gzip / 1024).toFixed(1)} kB`).join(", ");
  expect(jsGzip / 1024, `initial JavaScript: ${listing}`).toBeLessThan(INITIAL_JS_TARGET_KB);
});
