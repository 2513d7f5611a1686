// auth.signUp and email verification: one transaction creates the whole account, the first
// account of an installation is a super user (also under concurrent sign-ups), existing addresses are
// not revealed, and the emailed verification token works once and expires.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMAIL_VERIFICATION_TTL_HOURS, MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { PASSWORD, SUBJECTS, linkOf, nextMail, outcome, registeredAccount, uniqueEmail } from "../../../testing/auth-support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  // This file's shared database already has an account, so later sign-ups are ordinary ones.
  await registeredAccount(h, uniqueEmail("first"));
});
afterAll(() => h.close());

describe("the first account of an installation", () => {
  it("is a super user, and the second is a plain user", async () => {
    const fresh = await createHarness();
    try {
      const [first, second] = [uniqueEmail("one"), uniqueEmail("two")];
      await fresh.client().api.auth.signUp({ email: first, password: PASSWORD });
      await fresh.client().api.auth.signUp({ email: second, password: PASSWORD });
      const profiles = await fresh.database.db.user.findMany({
        select: { email: true, profile: { select: { superUser: true } }, appRole: { select: { role: true } } },
        orderBy: { createdAt: "asc" },
      });
      expect(profiles).toEqual([
        { email: first, profile: { superUser: true }, appRole: { role: "user" } },
        { email: second, profile: { superUser: false }, appRole: { role: "user" } },
      ]);
    } finally {
      await fresh.close();
    }
  });

  it("is exactly one super user when several sign up at the same moment", async () => {
    const fresh = await createHarness();
    try {
      const emails = Array.from({ length: 6 }, () => uniqueEmail("race"));
      await Promise.all(emails.map((email) => fresh.client().api.auth.signUp({ email, password: PASSWORD })));
      expect(await fresh.database.db.user.count()).toBe(6);
      expect(await fresh.database.db.profile.count({ where: { superUser: true } })).toBe(1);
    } finally {
      await fresh.close();
    }
  });
});

describe("signing up", () => {
  it("creates user, profile, role and notification defaults with the email normalised, unconfirmed", async () => {
    const email = uniqueEmail("norm");
    expect(await h.client().api.auth.signUp({ email: `  ${email.toUpperCase()} `, password: PASSWORD })).toEqual({ ok: true });
    const user = await h.database.db.user.findUniqueOrThrow({
      where: { email },
      select: {
        passwordHash: true,
        emailVerifiedAt: true,
        profile: { select: { superUser: true } },
        appRole: { select: { role: true } },
        notificationPreferences: {
          select: { emailNotifications: true, pushNotifications: true, inAppNotifications: true, marketingEmails: true },
        },
      },
    });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user).toMatchObject({
      emailVerifiedAt: null,
      profile: { superUser: false },
      appRole: { role: "user" },
      notificationPreferences: { emailNotifications: true, pushNotifications: false, inAppNotifications: true, marketingEmails: false },
    });
  });

  it("mails a link to the confirm page; confirming lets the person sign in", async () => {
    const email = uniqueEmail("verify");
    const browser = h.client();
    await browser.api.auth.signUp({ email, password: PASSWORD });
    const client = h.client();
    const refused = await outcome(client.api.auth.signIn({ email, password: PASSWORD }));
    expect(refused).toMatchObject({ code: "PRECONDITION_FAILED", message: MSG.emailNotConfirmed, reason: "EMAIL_NOT_VERIFIED" });
    expect(client.cookies.size).toBe(0);

    const mail = await h.mail.waitFor(email, SUBJECTS.verification);
    const link = linkOf(mail);
    expect(mail.text).toContain(`http://localhost:3000/auth/confirm-email?token=${link.token}`);
    expect(link.token.length).toBeGreaterThanOrEqual(22); // >= 128 bits in base64url
    // Only the token's hash is stored.
    expect(await h.database.db.oneTimeToken.count({ where: { tokenHash: link.token } })).toBe(0);

    // Confirmed in the browser that signed up: no password needed.
    expect(await browser.api.auth.verifyEmail({ token: link.token })).toEqual({ ok: true, redirectTo: null });
    expect((await h.database.db.user.findUniqueOrThrow({ where: { email } })).emailVerifiedAt).not.toBeNull();
    expect(await client.api.auth.signIn({ email, password: PASSWORD })).toEqual({ status: "signed_in", redirectTo: null, firstSignIn: true });
    expect((await client.api.auth.me())?.user.email).toBe(email);
  });

  it.each([
    ["/auth/accept-invite?id=abc", "/auth/accept-invite?id=abc"],
    ["https://evil.example/steal", null],
    ["//evil.example", null],
  ])("carries the sign-up's redirect %j through the confirmation as %j (same-origin paths only)", async (redirectTo, expected) => {
    const email = uniqueEmail();
    const browser = h.client();
    await browser.api.auth.signUp({ email, password: PASSWORD, redirectTo });
    const link = linkOf(await h.mail.waitFor(email, SUBJECTS.verification));
    expect(await browser.api.auth.verifyEmail({ token: link.token })).toEqual({ ok: true, redirectTo: expected });
  });

  it("answers an existing address the same way, mails it a notice and changes nothing", async () => {
    const account = await registeredAccount(h);
    const before = await h.database.db.user.findUniqueOrThrow({ where: { email: account.email } });
    const users = await h.database.db.user.count();
    const seen = await h.mail.list(account.email);

    expect(await h.client().api.auth.signUp({ email: account.email.toUpperCase(), password: "another-password" })).toEqual({ ok: true });
    const notice = await nextMail(h, account.email, SUBJECTS.alreadyRegistered, seen);
    expect(notice.text).toContain("http://localhost:3000/auth/signin");
    expect(notice.text).toContain("http://localhost:3000/auth/forgot-password");
    expect(await h.database.db.user.count()).toBe(users);
    expect(await h.database.db.user.findUniqueOrThrow({ where: { email: account.email } })).toEqual(before);
    await h.mail.settled();
    expect((await h.mail.list(account.email)).filter((m) => SUBJECTS.verification.test(m.subject))).toHaveLength(1);
  });
});

describe("the verification token", () => {
  it("works once", async () => {
    const email = uniqueEmail("once");
    const browser = h.client();
    await browser.api.auth.signUp({ email, password: PASSWORD });
    const { token } = linkOf(await h.mail.waitFor(email, SUBJECTS.verification));
    await browser.api.auth.verifyEmail({ token });
    expect(await outcome(browser.api.auth.verifyEmail({ token }))).toMatchObject({ code: "BAD_REQUEST", message: MSG.invalidOrExpiredLink });
    expect(await outcome(h.client().api.auth.verifyEmail({ token, password: PASSWORD }))).toMatchObject({ code: "BAD_REQUEST", message: MSG.invalidOrExpiredLink });
  });

  it("expires after its lifetime", async () => {
    const email = uniqueEmail("late");
    const browser = h.client();
    await browser.api.auth.signUp({ email, password: PASSWORD });
    const { token } = linkOf(await h.mail.waitFor(email, SUBJECTS.verification));
    h.clock.advance(EMAIL_VERIFICATION_TTL_HOURS * 3_600_000 + 1_000);
    const result = await outcome(browser.api.auth.verifyEmail({ token }));
    expect(result).toMatchObject({ code: "BAD_REQUEST", message: MSG.invalidOrExpiredLink });
    expect((await h.database.db.user.findUniqueOrThrow({ where: { email } })).emailVerifiedAt).toBeNull();
  });

  it("is not accepted for another purpose (a verification token is no magic link)", async () => {
    const email = uniqueEmail("purpose");
    await h.client().api.auth.signUp({ email, password: PASSWORD });
    const { token } = linkOf(await h.mail.waitFor(email, SUBJECTS.verification));
    expect(await outcome(h.client().api.auth.signInWithMagicLink({ token }))).toMatchObject({ code: "BAD_REQUEST" });
    expect(await outcome(h.client().api.auth.resetPassword({ token, password: "new-password" }))).toMatchObject({ code: "BAD_REQUEST" });
  });

  it("is replaced by a resent one: the older stops working, the newer works", async () => {
    const email = uniqueEmail("resend");
    const browser = h.client();
    await browser.api.auth.signUp({ email, password: PASSWORD });
    const first = await h.mail.waitFor(email, SUBJECTS.verification);
    expect(await browser.api.auth.resendVerification({ email })).toEqual({ ok: true });
    const second = await nextMail(h, email, SUBJECTS.verification, [first]);
    expect(await outcome(browser.api.auth.verifyEmail({ token: linkOf(first).token }))).toMatchObject({ code: "BAD_REQUEST" });
    expect(await browser.api.auth.verifyEmail({ token: linkOf(second).token })).toEqual({ ok: true, redirectTo: null });
  });

  it("is not resent to unknown or already confirmed addresses, with the same answer", async () => {
    const unknown = uniqueEmail("nobody");
    const confirmed = await registeredAccount(h);
    const seen = await h.mail.list(confirmed.email);
    expect(await h.client().api.auth.resendVerification({ email: unknown })).toEqual({ ok: true });
    expect(await h.client().api.auth.resendVerification({ email: confirmed.email })).toEqual({ ok: true });
    await h.mail.settled();
    expect(await h.mail.list(unknown)).toHaveLength(0);
    expect(await h.mail.list(confirmed.email)).toHaveLength(seen.length);
    expect(await h.database.db.user.count({ where: { email: unknown } })).toBe(0);
  });
});

describe("account pre-hijacking: a link confirmed away from the browser that asked for it", () => {
  it("needs the account's password there; a wrong one is refused and the link keeps working", async () => {
    const email = uniqueEmail("elsewhere");
    const laptop = h.client();
    await laptop.api.auth.signUp({ email, password: PASSWORD });
    const { token } = linkOf(await h.mail.waitFor(email, SUBJECTS.verification));
    const phone = h.client();
    expect(await outcome(phone.api.auth.verifyEmail({ token }))).toMatchObject({
      code: "PRECONDITION_FAILED",
      message: MSG.confirmWithPassword,
      reason: "PASSWORD_REQUIRED",
    });
    expect(await outcome(phone.api.auth.verifyEmail({ token, password: "not-the-password" }))).toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.incorrectPassword,
    });
    expect((await h.database.db.user.findUniqueOrThrow({ where: { email } })).emailVerifiedAt).toBeNull();
    expect(await phone.api.auth.verifyEmail({ token, password: PASSWORD })).toEqual({ ok: true, redirectTo: null });
    expect((await h.database.db.user.findUniqueOrThrow({ where: { email } })).emailVerifiedAt).not.toBeNull();
  });

  it("an attacker who signed up with someone else's address gets nothing from the owner's confirmation", async () => {
    const email = uniqueEmail("victim");
    const attacker = h.client();
    await attacker.api.auth.signUp({ email, password: "attacker-password" });
    const first = await h.mail.waitFor(email, SUBJECTS.verification);
    // The attacker asks for a fresh link too: it is bound to the attacker's browser as well.
    await attacker.api.auth.resendVerification({ email });
    const newest = await nextMail(h, email, SUBJECTS.verification, [first]);
    const owner = h.client();
    // The owner opens the link but does not know the password: it is not confirmed for the attacker.
    expect((await outcome(owner.api.auth.verifyEmail({ token: linkOf(newest).token }))).reason).toBe("PASSWORD_REQUIRED");
    // 'Forgot password' proves the inbox and sets the owner's password.
    const seen = await h.mail.list(email);
    await owner.api.auth.requestPasswordReset({ email });
    const reset = await nextMail(h, email, SUBJECTS.passwordReset, seen);
    await owner.api.auth.resetPassword({ token: linkOf(reset).token, password: "owner-password" });
    expect((await h.database.db.user.findUniqueOrThrow({ where: { email } })).emailVerifiedAt).not.toBeNull();
    expect(await outcome(h.client().api.auth.signIn({ email, password: "attacker-password" }))).toMatchObject({ code: "BAD_REQUEST" });
    expect(await h.client().api.auth.signIn({ email, password: "owner-password" })).toEqual({ status: "signed_in", redirectTo: null, firstSignIn: true });
  });

  it("a browser keeps its mark: links it asked for earlier still need no password", async () => {
    const browser = h.client();
    const [first, second] = [uniqueEmail("first"), uniqueEmail("second")];
    await browser.api.auth.signUp({ email: first, password: PASSWORD });
    await browser.api.auth.signUp({ email: second, password: PASSWORD });
    for (const email of [first, second]) {
      const { token } = linkOf(await h.mail.waitFor(email, SUBJECTS.verification));
      expect(await browser.api.auth.verifyEmail({ token })).toEqual({ ok: true, redirectTo: null });
    }
  });

  it("sign-up marks the browser whether or not the address is taken, so the answers look alike", async () => {
    const fresh = h.client();
    const taken = h.client();
    await fresh.api.auth.signUp({ email: uniqueEmail("fresh"), password: PASSWORD });
    await taken.api.auth.signUp({ email: (await registeredAccount(h)).email, password: PASSWORD });
    expect([...fresh.cookies.keys()]).toEqual(["promptly_signup"]);
    expect([...taken.cookies.keys()]).toEqual(["promptly_signup"]);
  });
});
