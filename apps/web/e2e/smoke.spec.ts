import { expect, test, type Request } from "@playwright/test";
import { createAccount, createOrganizationWith, createTeamWith, signIn } from "./support/accounts.ts";
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

test("a page load asks for the organizations and the saved organization's teams in one request; a saved organization that is gone costs no error", async ({ page }) => {
  const errors = consoleErrors(page);
  const person = await createAccount({ fullName: "Batch Person" });
  const organization = await createOrganizationWith([{ userId: person.id, role: "admin" }]);
  const team = await createTeamWith(organization.id, [{ userId: person.id, role: "admin" }]);
  const gone = await createOrganizationWith([]);
  await signIn(page, person.email);
  const listRequests = (urls: string[]) => urls.filter((url) => /\/trpc\/[^?]*(organizations\.list|teams\.list)/.test(url)).map((url) => new URL(url).pathname);
  const load = async () => {
    const urls: string[] = [];
    const seen = (request: Request) => void urls.push(request.url());
    page.on("request", seen);
    await page.goto("/");
    await expect(page.getByTestId("team-selector")).toContainText(team.name);
    page.off("request", seen);
    return listRequests(urls);
  };
  await load();
  await page.evaluate((id) => localStorage.setItem("promptly.activeOrganizationId", id), organization.id);
  // The saved organization is the active one: its teams come in the organizations' request.
  const batched = await load();
  expect(batched).toHaveLength(1);
  expect(batched[0]).toMatch(/organizations\.list/);
  expect(batched[0]).toMatch(/teams\.list/);
  // Saved, but not one of this person's: the first organization's teams are read after, and nothing errs.
  await page.evaluate((id) => localStorage.setItem("promptly.activeOrganizationId", id), gone.id);
  expect(await load()).toHaveLength(2);
  expect(errors).toEqual([]);
});
