// auth.sendMagicLink / signInWithMagicLink: a single-use link for 15 minutes, the same answer
// for unknown addresses (and no account made for them), older links revoked, safe redirects only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAGIC_LINK_TTL_MINUTES, MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { PASSWORD, SUBJECTS, linkOf, nextMail, outcome, registeredAccount, uniqueEmail } from "../../../testing/auth-support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

async function magicLink(email: string, redirectTo?: string) {
  const seen = await h.mail.list(email);
  expect(await h.client().api.auth.sendMagicLink({ email, redirectTo })).toEqual({ ok: true });
  const mail = await nextMail(h, email, SUBJECTS.magicLink, seen);
  const link = linkOf(mail);
  expect(link.page).toBe("magic-link");
  expect(mail.text).toContain(`http://localhost:3000/auth/magic-link?token=${link.token}`);
  return link.token;
}

describe("magic links", () => {
  it("sign in once; the same link used again fails", async () => {
    const account = await registeredAccount(h);
    const token = await magicLink(account.email);
    const client = h.client();
    expect(await client.api.auth.signInWithMagicLink({ token })).toEqual({ status: "signed_in", redirectTo: null, firstSignIn: true });
    expect((await client.api.auth.me())?.user.email).toBe(account.email);
    const event = await h.database.db.loginEvent.findFirstOrThrow({ where: { userId: account.id } });
    expect(event.method).toBe("magic_link");

    const again = h.client();
    expect(await outcome(again.api.auth.signInWithMagicLink({ token }))).toMatchObject({ code: "BAD_REQUEST", message: MSG.invalidOrExpiredLink });
    expect(again.cookies.size).toBe(0);
  });

  it("expire after 15 minutes", async () => {
    const account = await registeredAccount(h);
    const token = await magicLink(account.email);
    h.clock.advance(MAGIC_LINK_TTL_MINUTES * 60_000 + 1_000);
    expect(await outcome(h.client().api.auth.signInWithMagicLink({ token }))).toMatchObject({ code: "BAD_REQUEST", message: MSG.invalidOrExpiredLink });
    expect(await h.database.db.session.count({ where: { userId: account.id } })).toBe(0);
  });

  it("still work just before they expire", async () => {
    const account = await registeredAccount(h);
    const token = await magicLink(account.email);
    h.clock.advance(MAGIC_LINK_TTL_MINUTES * 60_000 - 5_000);
    expect(await h.client().api.auth.signInWithMagicLink({ token })).toMatchObject({ status: "signed_in" });
  });

  it("revoke the older link when a new one is sent", async () => {
    const account = await registeredAccount(h);
    const older = await magicLink(account.email);
    const newer = await magicLink(account.email);
    expect(await outcome(h.client().api.auth.signInWithMagicLink({ token: older }))).toMatchObject({ code: "BAD_REQUEST" });
    expect(await h.client().api.auth.signInWithMagicLink({ token: newer })).toMatchObject({ status: "signed_in" });
  });

  it("work once even when two requests race with the same link", async () => {
    const account = await registeredAccount(h);
    const token = await magicLink(account.email);
    const results = await Promise.all([1, 2, 3].map(() => outcome(h.client().api.auth.signInWithMagicLink({ token }))));
    expect(results.filter((r) => r.code === "OK")).toHaveLength(1);
    expect(results.filter((r) => r.code === "BAD_REQUEST")).toHaveLength(2);
  });

  it("tell the first sign-in of an account from a later one, whichever way the earlier one was made", async () => {
    const account = await registeredAccount(h);
    expect(await h.client().api.auth.signInWithMagicLink({ token: await magicLink(account.email) })).toMatchObject({ firstSignIn: true });
    expect(await h.client().api.auth.signInWithMagicLink({ token: await magicLink(account.email) })).toMatchObject({ firstSignIn: false });
    expect(await h.client().api.auth.signIn({ email: account.email, password: PASSWORD })).toMatchObject({ firstSignIn: false });
  });

  it("answer an unknown address the same way, without mail and without creating an account", async () => {
    const email = uniqueEmail("stranger");
    const users = await h.database.db.user.count();
    expect(await h.client().api.auth.sendMagicLink({ email })).toEqual({ ok: true });
    await h.mail.settled();
    expect(await h.mail.list(email)).toHaveLength(0);
    expect(await h.database.db.user.count()).toBe(users);
  });

  it.each([
    ["/settings/security", "/settings/security"],
    ["https://evil.example/", null],
    ["//evil.example", null],
  ])("carry the redirect %s only as a same-origin path (%s)", async (redirectTo, expected) => {
    const account = await registeredAccount(h);
    const token = await magicLink(account.email, redirectTo);
    expect(await h.client().api.auth.signInWithMagicLink({ token })).toEqual({ status: "signed_in", redirectTo: expected, firstSignIn: true });
  });

  it("confirm an unconfirmed address, and end the password set before anyone proved the inbox", async () => {
    const email = uniqueEmail("unconfirmed");
    await h.client().api.auth.signUp({ email, password: PASSWORD });
    await h.mail.waitFor(email, SUBJECTS.verification);
    const token = await magicLink(email);
    expect(await h.client().api.auth.signInWithMagicLink({ token })).toMatchObject({ status: "signed_in" });
    const user = await h.database.db.user.findUniqueOrThrow({ where: { email } });
    expect(user.emailVerifiedAt).not.toBeNull();
    expect(user.passwordHash).toBeNull();
    expect(await outcome(h.client().api.auth.signIn({ email, password: PASSWORD }))).toMatchObject({ code: "BAD_REQUEST" });
  });

  it("keep the password of an already confirmed account", async () => {
    const account = await registeredAccount(h);
    await h.client().api.auth.signInWithMagicLink({ token: await magicLink(account.email) });
    expect(await h.client().api.auth.signIn({ email: account.email, password: PASSWORD })).toMatchObject({ status: "signed_in" });
  });

  it("hand two-factor accounts to the code step", async () => {
    const account = await registeredAccount(h);
    await h.database.db.twoFactor.create({ data: { userId: account.id, secretEncrypted: "x", enabledAt: new Date() } });
    const client = h.client();
    expect(await client.api.auth.signInWithMagicLink({ token: await magicLink(account.email) })).toMatchObject({ status: "two_factor_required" });
    expect(await client.api.auth.me()).toBeNull();
  });
});
