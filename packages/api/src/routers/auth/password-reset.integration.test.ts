// auth.requestPasswordReset / resetPassword: a single-use link for one hour; the new
// password replaces the old one and every session of the account ends.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG, PASSWORD_RESET_TTL_MINUTES } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { PASSWORD, SUBJECTS, linkOf, nextMail, outcome, registeredAccount, signedInClient, uniqueEmail } from "../../../testing/auth-support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const NEW_PASSWORD = "a-brand-new-password";

async function resetLink(email: string) {
  const seen = await h.mail.list(email);
  expect(await h.client().api.auth.requestPasswordReset({ email })).toEqual({ ok: true });
  const mail = await nextMail(h, email, SUBJECTS.passwordReset, seen);
  const link = linkOf(mail);
  expect(mail.text).toContain(`http://localhost:3000/auth/reset-password?token=${link.token}`);
  return link.token;
}

describe("password reset", () => {
  it("sets the new password, refuses the old one and ends every session", async () => {
    const account = await registeredAccount(h);
    const laptop = await signedInClient(h, account.email);
    const phone = await signedInClient(h, account.email);
    const token = await resetLink(account.email);

    const resetter = h.client();
    expect(await resetter.api.auth.resetPassword({ token, password: NEW_PASSWORD })).toEqual({ ok: true });

    expect(await laptop.api.auth.me()).toBeNull();
    expect(await phone.api.auth.me()).toBeNull();
    expect(await h.database.db.session.count({ where: { userId: account.id } })).toBe(0);
    expect(await outcome(h.client().api.auth.signIn({ email: account.email, password: PASSWORD }))).toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.invalidCredentials,
    });
    expect(await h.client().api.auth.signIn({ email: account.email, password: NEW_PASSWORD })).toMatchObject({ status: "signed_in" });
    const user = await h.database.db.user.findUniqueOrThrow({ where: { id: account.id } });
    expect(user.passwordChangedAt).not.toBeNull();
  });

  it("works once", async () => {
    const account = await registeredAccount(h);
    const token = await resetLink(account.email);
    await h.client().api.auth.resetPassword({ token, password: NEW_PASSWORD });
    const again = await outcome(h.client().api.auth.resetPassword({ token, password: "yet-another-password" }));
    expect(again).toMatchObject({ code: "BAD_REQUEST", message: MSG.invalidOrExpiredLink });
    expect(await h.client().api.auth.signIn({ email: account.email, password: NEW_PASSWORD })).toMatchObject({ status: "signed_in" });
  });

  it("expires after one hour, changing nothing", async () => {
    const account = await registeredAccount(h);
    await signedInClient(h, account.email);
    const token = await resetLink(account.email);
    h.clock.advance(PASSWORD_RESET_TTL_MINUTES * 60_000 + 1_000);
    expect(await outcome(h.client().api.auth.resetPassword({ token, password: NEW_PASSWORD }))).toMatchObject({ code: "BAD_REQUEST" });
    expect(await h.client().api.auth.signIn({ email: account.email, password: PASSWORD })).toMatchObject({ status: "signed_in" });
    expect(await h.database.db.session.count({ where: { userId: account.id } })).toBe(2);
  });

  it("revokes the older link when a new one is requested", async () => {
    const account = await registeredAccount(h);
    const older = await resetLink(account.email);
    const newer = await resetLink(account.email);
    expect(await outcome(h.client().api.auth.resetPassword({ token: older, password: NEW_PASSWORD }))).toMatchObject({ code: "BAD_REQUEST" });
    expect(await h.client().api.auth.resetPassword({ token: newer, password: NEW_PASSWORD })).toEqual({ ok: true });
  });

  it("also ends outstanding magic links", async () => {
    const account = await registeredAccount(h);
    const seen = await h.mail.list(account.email);
    await h.client().api.auth.sendMagicLink({ email: account.email });
    const magic = linkOf(await nextMail(h, account.email, SUBJECTS.magicLink, seen)).token;
    await h.client().api.auth.resetPassword({ token: await resetLink(account.email), password: NEW_PASSWORD });
    expect(await outcome(h.client().api.auth.signInWithMagicLink({ token: magic }))).toMatchObject({ code: "BAD_REQUEST" });
  });

  it("answers an unknown address the same way, without mail", async () => {
    const email = uniqueEmail("ghost");
    expect(await h.client().api.auth.requestPasswordReset({ email })).toEqual({ ok: true });
    await h.mail.settled();
    expect(await h.mail.list(email)).toHaveLength(0);
    expect(await h.database.db.oneTimeToken.count({ where: { purpose: "password_reset", user: { email } } })).toBe(0);
  });

  it("confirms an unconfirmed address (the link proves the inbox)", async () => {
    const email = uniqueEmail("unconfirmed");
    await h.client().api.auth.signUp({ email, password: PASSWORD });
    await h.mail.waitFor(email, SUBJECTS.verification);
    await h.client().api.auth.resetPassword({ token: await resetLink(email), password: NEW_PASSWORD });
    expect(await h.client().api.auth.signIn({ email, password: NEW_PASSWORD })).toMatchObject({ status: "signed_in" });
  });
});
