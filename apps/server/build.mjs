// Bundles the server (and the workspace packages it imports, including the generated Prisma
// client, whose TypeScript Node cannot run as is) into dist/main.mjs, the command line into dist/cli.mjs and
// the production signals' merge thread into dist/ingest-merge-worker.mjs. npm packages stay external, but
// for @trpc/server, bundled with a faster object spread (src/fast-paths/object-spread.mjs).
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { fastObjectSpread } from "./src/fast-paths/object-spread.mjs";

const external = new Set();
for (const manifest of ["package.json", "../../packages/api/package.json", "../../packages/db/package.json", "../../packages/shared/package.json"]) {
  const { dependencies = {} } = JSON.parse(readFileSync(new URL(manifest, import.meta.url), "utf8"));
  for (const name of Object.keys(dependencies)) if (!name.startsWith("@promptly/")) external.add(name);
}
external.add("vite");
// Nothing outside the bundle imports it, so the bundle's copy is the only one (one TRPCError class).
external.delete("@trpc/server");

await build({
  entryPoints: { main: "src/main.ts", cli: "src/cli.ts", "ingest-merge-worker": "src/ingest-merge-worker.ts" },
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  // What is imported with import() (the MCP server and its SDK) goes in chunks of its own, loaded when first asked for.
  splitting: true,
  // Beside main.mjs: paths the code resolves from its own file (migrations, the web build) stay the same.
  chunkNames: "[name]-[hash]",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: true,
  external: [...external].flatMap((name) => [name, `${name}/*`]),
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  plugins: [fastObjectSpread()],
  logLevel: "warning",
});
