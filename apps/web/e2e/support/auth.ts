// Helpers of the auth end-to-end suite: the mail catcher's messages and the links inside them.
import { expect, type Page } from "@playwright/test";
import { mailTo, type CapturedMail } from "@promptly/api/testing/mailbox";
import { E2E } from "./env.ts";
import { recordSecret } from "./secrets.ts";

const mailsTo = (to: string) => mailTo(E2E.mailboxUrl, to);

/** Waits for a mail to `to` whose subject matches and which is not among `seen` (ids); returns it. */
export async function waitForMail(to: string, subject: RegExp, seen: string[] = []): Promise<CapturedMail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = (await mailsTo(to)).filter((mail) => subject.test(mail.subject) && !seen.includes(mail.id)).at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No mail to ${to} matching ${subject} arrived`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function mailIds(to: string): Promise<string[]> {
  return (await mailsTo(to)).map((mail) => mail.id);
}

/** The app link in a mail's text (…/auth/<page>?token=…), as a path to open in the browser. */
export function linkIn(mail: CapturedMail, page: "confirm-email" | "magic-link" | "reset-password"): string {
  const match = new RegExp(`https?://[^\\s]+(/auth/${page}\\?token=[A-Za-z0-9_-]+)`).exec(mail.text);
  expect(match, `a /auth/${page} link in "${mail.subject}"`).not.toBeNull();
  return match![1]!;
}

export const SUBJECTS = {
  verification: /Confirm your email address/,
  magicLink: /Your Promptly sign-in link/,
  passwordReset: /Reset your Promptly password/,
};

/** Fills the sign-in form (password mode) and submits it. */
export async function signInWithForm(page: Page, email: string, password: string) {
  recordSecret("password", password);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}
