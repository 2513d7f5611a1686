// A reset or magic link mailed before a change of credentials must not work
// after it, or whoever holds an old link takes the account back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "@promptly/shared";
import { createHarness, createSmtpMailer, type Harness } from "../../../testing/harness.ts";
import { linkOf, nextMail, SUBJECTS } from "../../../testing/auth-support.ts";
import { PASSWORD, createAccountWithPassword, nextStep, outcome, signedIn, totp } from "../../../testing/security-support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** A live reset link and a live magic link of `email`, as an attacker who read the mailbox would hold them. */
async function mailedLinks(email: string) {
  const anonymous = h.client().api;
  await anonymous.auth.requestPasswordReset({ email });
  const reset = linkOf(await nextMail(h, email, SUBJECTS.passwordReset)).token;
  await anonymous.auth.sendMagicLink({ email });
  const magic = linkOf(await nextMail(h, email, SUBJECTS.magicLink)).token;
  return { reset, magic };
}

async function expectDead(links: { reset: string; magic: string }) {
  const attacker = h.client().api;
  expect(await outcome(attacker.auth.resetPassword({ token: links.reset, password: "attacker-password" }))).toEqual({
    code: "BAD_REQUEST",
    message: MSG.invalidOrExpiredLink,
  });
  expect(await outcome(attacker.auth.signInWithMagicLink({ token: links.magic }))).toEqual({ code: "BAD_REQUEST", message: MSG.invalidOrExpiredLink });
  expect(await attacker.auth.me()).toBeNull();
}

describe("emailed links after a change of credentials", () => {
  it("security.changePassword revokes every live reset and magic link", async () => {
    const account = await createAccountWithPassword(h);
    const links = await mailedLinks(account.email);
    const { api } = await signedIn(h, account);
    await api.security.changePassword({ currentPassword: PASSWORD, newPassword: "brand-new-pass-1", confirmPassword: "brand-new-pass-1" });
    await expectDead(links);
    expect(await h.database.db.oneTimeToken.count({ where: { userId: account.id, usedAt: null } })).toBe(0);
  });

  it("enabling two-factor revokes them too", async () => {
    const account = await createAccountWithPassword(h);
    const links = await mailedLinks(account.email);
    const { api } = await signedIn(h, account);
    const { secret } = await api.security.setupTwoFactor();
    nextStep(h);
    await api.security.enableTwoFactor({ code: totp(h, secret) });
    await expectDead(links);
  });

  it("a link still waiting in the outbox (mail server down) is never sent after a password change", async () => {
    const account = await createAccountWithPassword(h);
    const working = h.services.mailer;
    const broken = createSmtpMailer({ host: "127.0.0.1", port: 1, secure: false, from: "Promptly <no-reply@promptly.test>" });
    h.services.mailer = broken;
    try {
      await h.client().api.auth.requestPasswordReset({ email: account.email });
      await h.mail.settled(); // one failed attempt: the message waits for its retry
      expect(await h.database.db.outboxMessage.findFirstOrThrow({ where: { recipient: account.email }, select: { status: true } })).toEqual({ status: "pending" });
      const { api } = await signedIn(h, account);
      await api.security.changePassword({ currentPassword: PASSWORD, newPassword: "brand-new-pass-1", confirmPassword: "brand-new-pass-1" });
    } finally {
      h.services.mailer = working;
      broken.close();
    }
    h.clock.advance(60_000);
    await h.mail.settled();
    expect(await h.mail.list(account.email)).toEqual([]);
    expect(await h.database.db.outboxMessage.findFirstOrThrow({ where: { recipient: account.email }, select: { status: true } })).toEqual({ status: "skipped" });
    expect(await h.database.db.oneTimeToken.count({ where: { userId: account.id, usedAt: null } })).toBe(0);
  });

  it("links asked for after the change work as usual", async () => {
    const account = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    await api.security.changePassword({ currentPassword: PASSWORD, newPassword: "brand-new-pass-1", confirmPassword: "brand-new-pass-1" });
    const links = await mailedLinks(account.email);
    expect(await h.client().api.auth.signInWithMagicLink({ token: links.magic })).toMatchObject({ status: "signed_in" });
  });
});
