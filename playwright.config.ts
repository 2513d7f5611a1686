// End-to-end tests in a real Chromium (Debian's: Playwright's own browser download needs the internet)
// against the production build, started with embedded services exactly as `npm start` does, on ports
// of its own.
import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";
import { E2E } from "./apps/web/e2e/support/env.ts";

/**
 * Debian's Chromium headless shell (package chromium-headless-shell), as Playwright itself runs headless
 * tests: the same Blink engine without the full browser's window layer, so the suite runs much faster
 * in it. The full browser (`chromium`) when the shell is not installed, or CHROMIUM_PATH. The shell has
 * no window: a `--headed` run needs CHROMIUM_PATH=/usr/bin/chromium.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const chromiumPath = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

export default defineConfig({
  testDir: "apps/web/e2e",
  globalSetup: "./apps/web/e2e/support/global-setup.ts",
  // Fails the run when a secret the tests used (password, token, key, cookie, TOTP secret) is in the server's log.
  globalTeardown: "./apps/web/e2e/support/global-teardown.ts",
  // Every test makes its own people and places, so tests of one file need no order and never meet: the
  // workers take tests, not files, and a long file does not leave one worker alone at the end.
  fullyParallel: true,
  // Two at once: two browsers keep two cores busy (their renderers most); more workers than cores gain
  // little and slow a smaller machine down, so two is the setting everywhere.
  workers: 2,
  // No retries anywhere, CI included: a test that passes on its second try is a race to fix, and a
  // retry would hide it from the run that shows it.
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: E2E.appUrl,
    // No trace by default: recording one for every test (to keep those that fail) costs CPU in
    // every test, and a fresh machine's CI shows its output, not its files. To look into a failure:
    // `npx playwright test <file> --trace retain-on-failure`, then `npx playwright show-trace`.
    trace: "off",
    // Dialogs and toasts appear at once (the app honours the setting, smoke.spec.ts shows both ways), so
    // no step waits for a fade to end before it can click.
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: chromiumPath,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"],
    },
  },
  projects: [
    // A fresh installation: its first account (global-setup.ts) is a super user with no organization yet.
    // This runs before every other test, while no organization exists (first-run.setup.ts).
    { name: "first-run", testMatch: /first-run\.setup\.ts$/ },
    { name: "e2e", testMatch: /\.spec\.ts$/, dependencies: ["first-run"] },
  ],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `${E2E.appUrl}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
  },
});
