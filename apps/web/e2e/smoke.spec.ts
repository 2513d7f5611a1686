import { expect, test } from "@playwright/test";
import { consoleErrors } from "./support/console.ts";

test("the production build loads in Chromium with healthy services and no console errors", async ({ page, request }) => {
  const errors = consoleErrors(page);
  expect(await (await request.get("/api/health")).json()).toMatchObject({ status: "ok", db: "ok", storage: "ok", mail: "ok", outbox: { failed: 0 } });
  await page.goto("/auth/signin");
  await expect(page.locator("#root")).not.toBeEmpty();
  expect(errors).toEqual([]);
});

test("motion follows the system's setting: a dialog fades in, or appears at once for someone who asks for less motion", async ({ browser }) => {
  const durations: Record<string, number> = {};
  for (const reducedMotion of ["no-preference", "reduce"] as const) {
    const context = await browser.newContext({ reducedMotion });
    const page = await context.newPage();
    await page.goto("/auth/signin");
    await expect(page.locator("#root")).not.toBeEmpty();
    // The classes a dialog's overlay opens with (components/ui/dialog.tsx), read from the shipped stylesheet.
    durations[reducedMotion] = await page.evaluate(() => {
      const overlay = document.createElement("div");
      overlay.className = "animate-in fade-in-0";
      document.body.append(overlay);
      const seconds = Number.parseFloat(getComputedStyle(overlay).animationDuration);
      overlay.remove();
      return seconds * 1000;
    });
    await context.close();
  }
  expect(durations["no-preference"]).toBeGreaterThanOrEqual(100);
  expect(durations.reduce).toBeLessThan(1);
});
