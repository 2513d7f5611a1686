import { expect, test } from "@playwright/test";
import { consoleErrors } from "./support/console.ts";

test("the production build loads in Chromium with healthy services and no console errors", async ({ page, request }) => {
  const errors = consoleErrors(page);
  expect(await (await request.get("/api/health")).json()).toMatchObject({ status: "ok", db: "ok", storage: "ok", mail: "ok", outbox: { failed: 0 } });
  await page.goto("/auth/signin");
  await expect(page.locator("#root")).not.toBeEmpty();
  expect(errors).toEqual([]);
});

test("motion follows the system's setting: a button eases its colours in, or changes at once for someone who asks for less motion", async ({ browser }) => {
  const durations: Record<string, number> = {};
  for (const reducedMotion of ["no-preference", "reduce"] as const) {
    const context = await browser.newContext({ reducedMotion });
    const page = await context.newPage();
    await page.goto("/auth/signin");
    const button = page.getByRole("button", { name: "Sign In", exact: true });
    await button.waitFor();
    durations[reducedMotion] = await button.evaluate((element) => Number.parseFloat(getComputedStyle(element).transitionDuration) * 1000);
    await context.close();
  }
  expect(durations["no-preference"]).toBeGreaterThanOrEqual(100);
  expect(durations.reduce).toBeLessThan(1);
});
