import { expect, test } from "@playwright/test";
import { consoleErrors } from "./support/console.ts";

test("the production build loads in Chromium with healthy services and no console errors", async ({ page, request }) => {
  const errors = consoleErrors(page);
  expect(await (await request.get("/api/health")).json()).toMatchObject({ status: "ok", db: "ok", storage: "ok", mail: "ok", outbox: { failed: 0 } });
  await page.goto("/auth/signin");
  await expect(page.locator("#root")).not.toBeEmpty();
  expect(errors).toEqual([]);
});
