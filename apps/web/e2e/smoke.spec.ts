import { expect, test } from "@playwright/test";

test("the app loads in Chromium and reports its services healthy", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Promptly" })).toBeVisible();
  await expect(page.getByTestId("health")).toHaveText("Service status: ok");
  expect(errors).toEqual([]);
});
