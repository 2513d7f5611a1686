// Console errors of a page, collected from now on: any console error or uncaught exception fails a
// test. Where refusals are what a test checks (a wrong password is a 400 by design), `allow4xx` lets
// the browser's own line for an HTTP 4xx answer through, except 401: that answers a request without a
// session, which no test here sends on purpose (a request racing a sign-out would).
import type { Page } from "@playwright/test";

export function consoleErrors(page: Page, options: { allow4xx?: boolean } = {}): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    if (options.allow4xx && /Failed to load resource: the server responded with a status of 4(?!01)\d\d/.test(message.text())) return;
    errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}
