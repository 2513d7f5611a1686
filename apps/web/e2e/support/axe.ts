// axe-core's critical and serious findings (WCAG 2.2 AA rules) on the page as it is now. axe-core is
// put into the page once per document and run there directly: @axe-core/playwright's builder injects
// it again at every check and finishes each run in a page of its own, three quarters of a check's time
// on a page with no frames (this app has none).
import axe, { type AxeResults } from "axe-core";
import type { Page } from "@playwright/test";

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** axe's violations on the page now, for the WCAG 2.2 AA tags. */
export async function axeViolations(page: Page): Promise<AxeResults["violations"]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  return page.evaluate(
    (tags) => (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] }),
    TAGS,
  ).then((results) => results.violations);
}

export async function seriousViolations(page: Page): Promise<string[]> {
  // Colours are judged as they end up, not halfway through a fade-in.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  return (await axeViolations(page))
    .filter((violation) => violation.impact === "critical" || violation.impact === "serious")
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(" ")).join(" | ")}`);
}
