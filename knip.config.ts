// Unused files, exports and dependencies, checked by knip (`npm run guards:knip`, part of `npm test`).
//
// Besides the entry files listed here, knip adds on its own:
// - each workspace package's package.json "exports" (so packages/*/src/index.ts etc. need no entry line),
// - files named in package.json scripts (apps/server/build.mjs, packages/client/examples/health.ts,
//   scripts/prisma-generate.mjs, apps/server/src/cli.ts, ...),
// - its plugins' entries: vitest.config.ts (its include patterns, e.g. test/**/*.test.ts, and
//   test/global-setup.ts), playwright.config.ts (the apps/web/e2e specs and its webServer command, but not its
//   globalSetup: listed below), apps/web/vite.config.ts and index.html (-> src/main.tsx), prisma.config.ts,
//   turbo.json, .dependency-cruiser.cjs.
// The generated Prisma client (packages/db/src/generated) is not analysed: knip honours .gitignore, which
// lists it (an explicit `ignore` entry would only be reported as redundant).
import type { KnipConfig } from "knip";

/** Private workspace packages: their exports exist only for the other workspaces, so an export nobody imports is dead code. */
const library = { includeEntryExports: true } as const;

const config: KnipConfig = {
  workspaces: {
    ".": {
      entry: [
        "scripts/*.{mjs,ts}",
        // `npm run bench -- <name>` imports scripts/bench/<name>.ts by name; baseline-server.mjs is forked by path.
        "scripts/bench/*.{ts,mjs}",
        // `npm run docs:screenshots`: a Playwright config of its own and the script it runs.
        "scripts/screenshots/*.ts",
      ],
      project: ["scripts/**/*.{ts,mjs}", "test/**/*.ts", "*.{ts,mjs,cjs}", "prisma/**/*.prisma"],
    },
    "apps/server": {
      // src/main.ts, src/cli.ts and build.mjs come from package.json scripts (listing them is reported as redundant);
      // src/ingest-merge-worker.ts is build.mjs's third entry, the merge thread's (started by file, not imported).
      entry: ["src/**/*.test.ts", "src/ingest-merge-worker.ts"],
      // src/fast-paths/object-spread.mjs is build.mjs's esbuild plugin (plain JavaScript, as build.mjs is).
      project: ["src/**/*.{ts,mjs}", "test/**/*.ts", "*.{ts,mjs}"],
    },
    "apps/web": {
      // The e2e suite is configured by the root playwright.config.ts; its globalSetup, globalTeardown and the first-run
      // setup project (e2e/*.setup.ts) are named there.
      // src/main.tsx comes from index.html (vite plugin).
      entry: ["src/**/*.test.ts", "e2e/**/*.spec.ts", "e2e/**/*.setup.ts", "e2e/support/global-setup.ts", "e2e/support/global-teardown.ts"],
      project: ["src/**/*.{ts,tsx,css}", "e2e/**/*.ts", "*.ts"],
      // The UI primitives are a small kit over Radix: each file exports its component's whole family
      // (Dialog, DialogTrigger, DialogClose, ...) as one piece, used or not yet; unused files still count.
      ignoreIssues: { "src/components/ui/**": ["exports"] },
    },
    "packages/api": {
      ...library,
      entry: ["src/**/*.test.ts"],
      project: ["src/**/*.ts", "testing/**/*.ts"],
    },
    "packages/db": {
      ...library,
      entry: ["src/**/*.test.ts"],
      project: ["src/**/*.ts", "testing/**/*.ts"],
      // Imported only by the generated client (src/generated/prisma/*.ts, gitignored, so not analysed).
      ignoreDependencies: ["@prisma/client"],
    },
    "packages/shared": {
      ...library,
      entry: ["src/**/*.test.ts"],
      project: ["src/**/*.ts"],
    },
    "packages/client": {
      // Its exports are the public interface of internal tooling outside this repository.
      // src/runtime.ts is the entry of the published package (scripts/pack.ts builds it).
      entry: ["examples/**/*.ts", "src/runtime.ts"],
      project: ["src/**/*.ts", "examples/**/*.ts", "scripts/**/*.ts"],
    },
  },
};

export default config;
