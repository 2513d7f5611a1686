// `npx playwright test -c scripts/screenshots/playwright.config.ts`: the screenshots in docs/screenshots
//, taken from the production build with embedded services, exactly as the e2e suite runs it.
// Not a test: `npm test` does not run it.
import { defineConfig } from "@playwright/test";
import base from "../../playwright.config.ts";

export default defineConfig({
  ...base,
  testDir: ".",
  testMatch: "take.ts",
  globalSetup: "../../apps/web/e2e/support/global-setup.ts",
  // Not the suite's: no log-secrets check, and one project (the suite's first-run setup is a test of its own).
  globalTeardown: undefined,
  projects: undefined,
  retries: 0,
  // The e2e server's command runs from the repository root.
  webServer: { ...(base.webServer as object), cwd: new URL("../..", import.meta.url).pathname } as typeof base.webServer,
});
