// Password change, session timeout and the Security overview against the real database.
import { verify } from "@node-rs/argon2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG, SETTINGS_MSG, UNKNOWN_LOCATION } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { PASSWORD, createAccountWithPassword, outcome, signedIn } from "../../../testing/security-support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const passwordHashOf = async (userId: string) =>
  (await h.database.db.user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } })).passwordHash!;

describe("security.changePassword", () => {
  it("refuses a wrong current password and keeps the old password and every session", async () => {
    const account = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    const other = await signedIn(h, account);
    const before = await passwordHashOf(account.id);
    const result = await outcome(
      api.security.changePassword({ currentPassword: "not-my-password", newPassword: "brand-new-pass-1", confirmPassword: "brand-new-pass-1" }),
    );
    expect(result).toEqual({ code: "BAD_REQUEST", message: SETTINGS_MSG.currentPasswordIncorrect });
    expect(await passwordHashOf(account.id)).toBe(before);
    expect(await verify(before, PASSWORD)).toBe(true);
    expect(await other.api.auth.me()).not.toBeNull();
    expect((await h.database.db.user.findUniqueOrThrow({ where: { id: account.id } })).passwordChangedAt).toBeNull();
  });

  it("with rate limits on, refuses an 11th guess of the current password within 15 minutes, even the right one", async () => {
    const account = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    const change = (currentPassword: string) =>
      outcome(api.security.changePassword({ currentPassword, newPassword: "brand-new-pass-1", confirmPassword: "brand-new-pass-1" }));
    h.services.config.rateLimits = true;
    try {
      for (let i = 0; i < 10; i++) expect(await change(`wrong-guess-${i}`)).toEqual({ code: "BAD_REQUEST", message: SETTINGS_MSG.currentPasswordIncorrect });
      expect(await change(PASSWORD)).toEqual({ code: "TOO_MANY_REQUESTS", message: MSG.tooManyRequests });
      expect(await verify(await passwordHashOf(account.id), PASSWORD)).toBe(true);
      // Counted per user: another account is not affected.
      const other = await signedIn(h, await createAccountWithPassword(h));
      expect((await outcome(other.api.security.changePassword({ currentPassword: "wrong", newPassword: "abcdefgh", confirmPassword: "abcdefgh" }))).code).toBe("BAD_REQUEST");
    } finally {
      h.services.config.rateLimits = false;
      await h.services.rateLimits.reset();
    }
  });

  it("a stored hash that cannot be read counts as a wrong current password, not a server error", async () => {
    const account = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    await h.database.db.user.update({ where: { id: account.id }, data: { passwordHash: "not-an-argon2-hash" } });
    const result = await outcome(
      api.security.changePassword({ currentPassword: PASSWORD, newPassword: "brand-new-pass-1", confirmPassword: "brand-new-pass-1" }),
    );
    expect(result).toEqual({ code: "BAD_REQUEST", message: SETTINGS_MSG.currentPasswordIncorrect });
    expect(await passwordHashOf(account.id)).toBe("not-an-argon2-hash");
  });

  it("with the right current password: stores the new one, records when, and ends the user's other sessions only", async () => {
    const account = await createAccountWithPassword(h);
    const bystander = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    const other = await signedIn(h, account);
    const bystanderClient = await signedIn(h, bystander);
    await api.security.changePassword({ currentPassword: PASSWORD, newPassword: "brand-new-pass-1", confirmPassword: "brand-new-pass-1" });
    const stored = await h.database.db.user.findUniqueOrThrow({ where: { id: account.id } });
    expect(await verify(stored.passwordHash!, "brand-new-pass-1")).toBe(true);
    expect(await verify(stored.passwordHash!, PASSWORD)).toBe(false);
    expect(Math.abs(stored.passwordChangedAt!.getTime() - h.clock.now().getTime())).toBeLessThan(5000);
    expect(await api.auth.me()).not.toBeNull();
    expect(await other.api.auth.me()).toBeNull();
    expect(await bystanderClient.api.auth.me()).not.toBeNull();
    // The new password signs in; the old one no longer does.
    expect((await outcome(h.client().api.auth.signIn({ email: account.email, password: PASSWORD }))).code).toBe("BAD_REQUEST");
    expect((await h.client().api.auth.signIn({ email: account.email, password: "brand-new-pass-1" })).status).toBe("signed_in");
  });

  it.each([
    [{ currentPassword: "", newPassword: "abcdefgh", confirmPassword: "abcdefgh" }, MSG.currentPasswordRequired],
    [{ currentPassword: PASSWORD, newPassword: "short", confirmPassword: "short" }, MSG.passwordMinChange],
    [{ currentPassword: PASSWORD, newPassword: "abcdefgh", confirmPassword: "abc" }, MSG.confirmPasswordRequired],
    [{ currentPassword: PASSWORD, newPassword: "abcdefgh", confirmPassword: "abcdefgX" }, MSG.passwordsDontMatch],
  ])("refuses %j with %j, changing nothing", async (input, message) => {
    const account = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    const before = await passwordHashOf(account.id);
    expect(await outcome(api.security.changePassword(input))).toEqual({ code: "BAD_REQUEST", message });
    expect(await passwordHashOf(account.id)).toBe(before);
  });

  it("tells an account without a password (magic link only) how to set one", async () => {
    const { api } = await signedIn(h, await createAccountWithPassword(h, { password: null }));
    expect(await outcome(api.security.changePassword({ currentPassword: "x", newPassword: "abcdefgh", confirmPassword: "abcdefgh" }))).toEqual({
      code: "BAD_REQUEST",
      message: SETTINGS_MSG.noPasswordSet,
    });
  });

  it("is for signed-in users only", async () => {
    const input = { currentPassword: PASSWORD, newPassword: "abcdefgh", confirmPassword: "abcdefgh" };
    expect((await outcome(h.client().api.security.changePassword(input))).code).toBe("UNAUTHORIZED");
    const pending = await signedIn(h, await createAccountWithPassword(h), { twoFactorVerified: false });
    expect((await outcome(pending.api.security.changePassword(input))).code).toBe("UNAUTHORIZED");
  });
});

describe("session timeout", () => {
  it("is stored on the server, 5 to 120 minutes", async () => {
    const account = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    expect((await api.security.overview()).sessionTimeoutMinutes).toBe(30);
    for (const minutes of [4, 121, 30.5]) {
      expect(await outcome(api.security.updateSessionTimeout({ minutes }))).toEqual({ code: "BAD_REQUEST", message: MSG.sessionTimeoutRange });
    }
    expect(await api.security.updateSessionTimeout({ minutes: 5 })).toEqual({ sessionTimeoutMinutes: 5 });
    expect(await api.security.updateSessionTimeout({ minutes: 120 })).toEqual({ sessionTimeoutMinutes: 120 });
    expect((await api.security.overview()).sessionTimeoutMinutes).toBe(120);
  });

  it("signs out a session idle for longer than the timeout, and keeps an active one", async () => {
    const account = await createAccountWithPassword(h);
    const idle = await signedIn(h, account);
    const active = await signedIn(h, account);
    await idle.api.security.updateSessionTimeout({ minutes: 5 });
    // Activity every 4 minutes keeps `active` alive for 12 minutes.
    for (let i = 0; i < 3; i++) {
      h.clock.advance(4 * 60_000);
      expect(await active.api.auth.me()).not.toBeNull();
    }
    // `idle` has not been used for 12 minutes: it is gone, and stays gone.
    expect(await idle.api.auth.me()).toBeNull();
    expect((await outcome(idle.api.security.overview())).code).toBe("UNAUTHORIZED");
    h.clock.advance(5 * 60_000 + 1000);
    expect(await active.api.auth.me()).toBeNull();
    expect(await h.database.db.session.count({ where: { userId: account.id } })).toBe(0);
  });

  it("uses the default of 30 minutes", async () => {
    const client = await signedIn(h, await createAccountWithPassword(h));
    h.clock.advance(29 * 60_000);
    expect(await client.api.auth.me()).not.toBeNull();
    h.clock.advance(31 * 60_000);
    expect(await client.api.auth.me()).toBeNull();
  });
});

describe("security.overview", () => {
  it("shows the last 5 sign-ins (newest first), last sign-in, email verified and password age", async () => {
    const account = await createAccountWithPassword(h);
    const base = h.clock.now().getTime();
    await h.database.db.loginEvent.createMany({
      data: Array.from({ length: 7 }, (_, i) => ({
        userId: account.id,
        method: "password" as const,
        device: `Browser ${i} on Linux`,
        location: UNKNOWN_LOCATION,
        createdAt: new Date(base - (7 - i) * 60_000),
      })),
    });
    const { api } = await signedIn(h, account);
    const overview = await api.security.overview();
    expect(overview.recentLogins.map((login) => login.device)).toEqual([6, 5, 4, 3, 2].map((i) => `Browser ${i} on Linux`));
    expect(overview).toMatchObject({ twoFactorEnabled: false, recoveryCodesRemaining: 0, emailVerified: true, hasPassword: true });
    // Never changed: the password dates from the account's creation.
    const user = await h.database.db.user.findUniqueOrThrow({ where: { id: account.id } });
    expect(overview.passwordChangedAt).toEqual(user.createdAt);
    // Nobody else's sign-ins.
    expect((await (await signedIn(h, await createAccountWithPassword(h))).api.security.overview()).recentLogins).toEqual([]);
  });

  it("records a real password sign-in with its device", async () => {
    const account = await createAccountWithPassword(h);
    const client = h.client({ userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15" });
    await client.api.auth.signIn({ email: account.email, password: PASSWORD });
    const overview = await client.api.security.overview();
    expect(overview.recentLogins).toHaveLength(1);
    expect(overview.recentLogins[0]).toMatchObject({ device: "Safari on macOS", location: UNKNOWN_LOCATION, method: "password" });
    expect(overview.lastSignInAt).toEqual(overview.recentLogins[0]!.date);
  });
});
