// Builds the publishable @promptly/client into packages/client/dist and packs it:
//   npm run pack -w @promptly/client [-- <destination folder>]
// JavaScript: src/runtime.ts bundled by esbuild with the workspace's shared code inside it (zod, which
// the answers are checked with, stays a dependency). Declarations: one index.d.ts bundled by
// dts-bundle-generator, the shared types inlined, so nothing points at an unpublished package.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const entry = join(root, "src/runtime.ts");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
/** The shared code bundled in checks answers with zod: the published package depends on it as the shared package does. */
const zodRange = (JSON.parse(readFileSync(join(root, "../shared/package.json"), "utf8")) as { dependencies: { zod: string } }).dependencies.zod;

/** Writes dist/ (JavaScript, declarations, manifest, README) and answers the tarball's path. */
export async function packClient(destination: string): Promise<string> {
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  await build({
    entryPoints: [entry],
    outfile: join(dist, "index.js"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "es2022",
    external: ["zod"],
    legalComments: "none",
    logLevel: "error",
  });
  execFileSync(
    process.execPath,
    [require.resolve("dts-bundle-generator/dist/bin/dts-bundle-generator.js"), "--silent", "--no-check", "--project", join(root, "tsconfig.pack.json"), "-o", join(dist, "index.d.ts"), entry],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  writeFileSync(
    join(dist, "package.json"),
    `${JSON.stringify(
      {
        name: "@promptly/client",
        version: manifest.version,
        description: "The caching client of Promptly's runtime API: fetch, compile and run a team's prompts",
        type: "module",
        exports: { ".": { types: "./index.d.ts", default: "./index.js" } },
        types: "./index.d.ts",
        files: ["index.js", "index.d.ts", "README.md"],
        engines: { node: ">=18" },
        sideEffects: false,
        dependencies: { zod: zodRange },
      },
      null,
      2,
    )}\n`,
  );
  copyFileSync(join(root, "README.md"), join(dist, "README.md"));
  mkdirSync(destination, { recursive: true });
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", destination], { cwd: dist, encoding: "utf8" }).trim().split("\n").at(-1)!;
  return join(destination, name);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const tarball = await packClient(process.argv[2] ?? root);
  console.log(tarball);
}
