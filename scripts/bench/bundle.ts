// `npm run bench -- bundle`: the JavaScript a first visit must download before the app can render
// (the entry script and every module it preloads), gzip-compressed. Target: under 250 kB.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const TARGET_KB = 250;

export async function run() {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const outDir = mkdtempSync(join(tmpdir(), "promptly-bundle-"));
  try {
    execFileSync("npx", ["vite", "build", "--outDir", outDir, "--emptyOutDir"], { cwd: join(root, "apps/web"), stdio: "ignore" });
    const html = readFileSync(join(outDir, "index.html"), "utf8");
    const scripts = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map((m) => m[1]!);
    const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+\.css)"/g)].map((m) => m[1]!);
    const size = (files: string[]) =>
      files.map((file) => {
        const content = readFileSync(join(outDir, file));
        return { file, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
      });
    const js = size([...new Set(scripts)]);
    const css = size([...new Set(styles)]);
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    console.log("Initial assets of the web app (loaded before the first render):");
    for (const entry of [...js, ...css]) console.log(`  ${entry.file}  ${kb(entry.raw)} kB raw, ${kb(entry.gzip)} kB gzip`);
    const totalJs = js.reduce((sum, entry) => sum + entry.gzip, 0);
    console.log(`\nInitial JavaScript: ${kb(totalJs)} kB gzip (target < ${TARGET_KB} kB: ${totalJs / 1024 < TARGET_KB ? "met" : "NOT met"})`);
    console.log(`Initial CSS: ${kb(css.reduce((sum, entry) => sum + entry.gzip, 0))} kB gzip`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
