// Helpers of the auth integration tests: unique addresses, tokens read from the real emails,
// accounts made through the real sign-up flow, and the outcome of a call as { code, message }.
import { expect } from "vitest";
import { outcome as sharedOutcome, uniqueEmail, type CapturedMail, type Harness, type TestClient } from "./harness.ts";

export const PASSWORD = "correct-horse-battery";
export const SUBJECTS = {
  verification: /Confirm your email address/,
  alreadyRegistered: /You already have a Promptly account/,
  magicLink: /Your Promptly sign-in link/,
  passwordReset: /Reset your Promptly password/,
};

export { uniqueEmail } from "./harness.ts";

/** outcome() with the domain error's reason, which the auth screens act on (e.g. EMAIL_NOT_VERIFIED). */
export const outcome = (call: Promise<unknown>) => sharedOutcome(call, { reason: true });

/** The token of the one link in an email, read from its text part, with the page it opens. */
export function linkOf(mail: CapturedMail): { page: string; token: string } {
  const match = /https?:\/\/[^\s]+\/auth\/([a-z-]+)\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
  expect(match, `a link in "${mail.subject}"`).not.toBeNull();
  return { page: match![1]!, token: match![2]! };
}

/** Waits for the newest mail to `to` matching `subject` that is not one of `seen` (by id). */
export async function nextMail(h: Harness, to: string, subject: RegExp, seen: CapturedMail[] = []) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const fresh = (await h.mail.list(to)).filter((m) => subject.test(m.subject) && !seen.some((s) => s.id === m.id));
    if (fresh.length) return fresh.at(-1)!;
    if (Date.now() > deadline) throw new Error(`No new mail to ${to} matching ${subject}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Signs up through auth.signUp and confirms the address through the emailed link. */
export async function registeredAccount(h: Harness, email = uniqueEmail(), password = PASSWORD) {
  const browser = h.client();
  await browser.api.auth.signUp({ email, password });
  const { token } = linkOf(await h.mail.waitFor(email, SUBJECTS.verification));
  await browser.api.auth.verifyEmail({ token });
  const user = await h.database.db.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
  return { id: user.id, email, password };
}

export async function signedInClient(h: Harness, email: string, password = PASSWORD): Promise<TestClient> {
  const client = h.client();
  expect(await client.api.auth.signIn({ email, password })).toMatchObject({ status: "signed_in" });
  return client;
}

