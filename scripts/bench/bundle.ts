// `npm run bench -- bundle`: the JavaScript a first visit must download before the app can render
// (the entry script and every module it preloads), gzip-compressed, from a fresh build. Target: under
// 200 kB; above it the bench fails. bundle.test.ts checks the same in `npm test`, on the build it made.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export const INITIAL_JS_TARGET_KB = 200;

interface Asset {
  file: string;
  raw: number;
  gzip: number;
}

/** The initial assets named by a built index.html in `distDir`, with their sizes raw and gzipped (level 9), in bytes. */
export function measureInitialAssets(distDir: string): { js: Asset[]; css: Asset[]; jsGzip: number } {
  const html = readFileSync(join(distDir, "index.html"), "utf8");
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map((m) => m[1]!);
  const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+\.css)"/g)].map((m) => m[1]!);
  const size = (files: string[]) =>
    files.map((file) => {
      const content = readFileSync(join(distDir, file));
      return { file, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
    });
  const js = size([...new Set(scripts)]);
  return { js, css: size([...new Set(styles)]), jsGzip: js.reduce((sum, entry) => sum + entry.gzip, 0) };
}

export async function run() {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const outDir = mkdtempSync(join(tmpdir(), "promptly-bundle-"));
  try {
    execFileSync("npx", ["vite", "build", "--outDir", outDir, "--emptyOutDir"], { cwd: join(root, "apps/web"), stdio: "ignore" });
    const { js, css, jsGzip } = measureInitialAssets(outDir);
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    console.log("Initial assets of the web app (loaded before the first render):");
    for (const entry of [...js, ...css]) console.log(`  ${entry.file}  ${kb(entry.raw)} kB raw, ${kb(entry.gzip)} kB gzip`);
    const met = jsGzip / 1024 < INITIAL_JS_TARGET_KB;
    console.log(`\nInitial JavaScript: ${kb(jsGzip)} kB gzip (target < ${INITIAL_JS_TARGET_KB} kB: ${met ? "met" : "NOT met"})`);
    console.log(`Initial CSS: ${kb(css.reduce((sum, entry) => sum + entry.gzip, 0))} kB gzip`);
    if (!met) throw new Error(`the initial JavaScript is ${kb(jsGzip)} kB gzip, above the target of ${INITIAL_JS_TARGET_KB} kB`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
