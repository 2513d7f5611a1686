// Waiting for a page to settle: what `waitForLoadState("networkidle")` does, with a quiet window that
// fits an app whose requests take milliseconds (networkidle always waits 500 ms after the last one).
import type { Page } from "@playwright/test";

interface Traffic {
  inFlight: number;
  lastChange: number;
}

const trafficOf = new WeakMap<Page, Traffic>();

/** Counts the page's requests in flight from now on; call it before the navigation to watch. */
export function watchTraffic(page: Page): void {
  if (trafficOf.has(page)) return;
  const traffic: Traffic = { inFlight: 0, lastChange: Date.now() };
  const started = () => {
    traffic.inFlight += 1;
    traffic.lastChange = Date.now();
  };
  const ended = () => {
    traffic.inFlight = Math.max(0, traffic.inFlight - 1);
    traffic.lastChange = Date.now();
  };
  page.on("request", started);
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
  trafficOf.set(page, traffic);
}

/**
 * Resolves once no request of the page has been in flight for `quietMs` (a request a settled page
 * starts in reaction to an answer starts within that window). `watchTraffic` must have been called.
 */
export async function networkSettled(page: Page, quietMs = 100, timeoutMs = 15_000): Promise<void> {
  const traffic = trafficOf.get(page);
  if (!traffic) throw new Error("networkSettled needs watchTraffic(page) first");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const quietFor = Date.now() - traffic.lastChange;
    if (traffic.inFlight === 0 && quietFor >= quietMs) return;
    if (Date.now() > deadline) throw new Error(`the page still had ${traffic.inFlight} request(s) in flight after ${timeoutMs} ms`);
    // Until the window could have passed, or the next event: whichever comes first is checked again.
    await page.waitForTimeout(traffic.inFlight === 0 ? quietMs - quietFor : 20);
  }
}
