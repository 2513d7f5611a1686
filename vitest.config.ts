import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/**/src/**/*.test.ts", "test/**/*.test.ts", "apps/server/src/**/*.test.ts", "scripts/**/*.test.ts", "apps/web/src/**/*.test.ts"],
    globalSetup: ["./test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at once. Vitest's default is one fewer than the cores, which on the project's two-core
    // machines is one: the tests then wait on PostgreSQL, child processes and timers with a core idle.
    maxWorkers: 2,
    // Each worker keeps the modules it imported for the next test file: no test reads module state it
    // did not set up (every integration test builds its own database, app and callers; the services'
    // module-level maps are keyed by ids each database generates, e.g. runs at once by organization and
    // opened keys by connection, or are process-wide caches of loaded code), and importing the API's
    // whole tree again for each of ~100 files cost more than a minute of a run.
    isolate: false,
  },
});
