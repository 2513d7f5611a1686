// Showing a route in a test: by loading the page, or as the app's own links go there.
import { expect, type Page } from "@playwright/test";
import { networkSettled, watchTraffic } from "./network.ts";

interface WindowRouter {
  navigate(options: { href: string; ignoreBlocker: boolean }): Promise<void>;
}

/**
 * Shows `route` and waits until it has settled (its heading shown, no request in flight): by loading
 * the page ("load"), or as the app's own links go there ("in the app"): the page's router moves to it,
 * keeping the page's code, its data cache and whatever a test put into the page (axe). A test that walks
 * many screens loads the first and reaches the others in the app, as a person moves through it; a full
 * load of each was about 0.9 s of a screen's 2.5 s in the accessibility sweep. The router is the one
 * TanStack Router puts on the window for its devtools; without it, the page is loaded.
 */
export async function visit(page: Page, route: string, how: "load" | "in the app") {
  watchTraffic(page);
  const moved =
    how === "in the app" &&
    (await page.evaluate(async (href) => {
      const router = (window as unknown as { __TSR_ROUTER__?: WindowRouter }).__TSR_ROUTER__;
      if (!router) return false;
      // Leaving an editor with unsaved changes asks first; a test that walks on leaves on purpose.
      await router.navigate({ href, ignoreBlocker: true });
      return true;
    }, route));
  if (!moved) await page.goto(route);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === route);
  await page.getByRole("heading", { level: 1 }).first().waitFor();
  await networkSettled(page);
}
