// Real two-factor authentication against the real database: setup,
// enable, disable, the second sign-in step, replay refusal, lockout and single-use recovery codes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG, SETTINGS_MSG } from "@promptly/shared";
import { SESSION_COOKIE_NAME } from "../../auth/lucia.ts";
import { createHarness, type Harness, type TestClient } from "../../../testing/harness.ts";
import { completeTwoFactorSignIn, decryptSecret } from "../../services/identity/two-factor.ts";
import { encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { PASSWORD, createAccountWithPassword, nextStep, outcome, signedIn, totp, type TestAccount } from "../../../testing/security-support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** An account with two-factor enabled; returns the secret and recovery codes. */
async function withTwoFactor(): Promise<{ account: TestAccount; client: TestClient; secret: string; recoveryCodes: string[] }> {
  const account = await createAccountWithPassword(h);
  const client = await signedIn(h, account);
  const { secret } = await client.api.security.setupTwoFactor();
  const { recoveryCodes } = await client.api.security.enableTwoFactor({ code: totp(h, secret) });
  nextStep(h); // the enabling code is spent
  return { account, client, secret, recoveryCodes };
}

/** Signs in by password; the session then waits for the second factor. */
async function pendingSignIn(account: TestAccount) {
  const client = h.client();
  expect(await client.api.auth.signIn({ email: account.email, password: PASSWORD })).toMatchObject({ status: "two_factor_required" });
  return client;
}

describe("setup and enable", () => {
  it("returns a QR code, an otpauth URL and the secret; stores the secret encrypted", async () => {
    const account = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    const setup = await api.security.setupTwoFactor();
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUrl).toBe(
      `otpauth://totp/Promptly:${encodeURIComponent(account.email)}?issuer=Promptly&algorithm=SHA1&secret=${setup.secret}&period=30&digits=6`,
    );
    expect(setup.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    const row = await h.database.db.twoFactor.findUniqueOrThrow({ where: { userId: account.id } });
    expect(row.enabledAt).toBeNull();
    expect(row.secretEncrypted).not.toContain(setup.secret);
    expect(row.secretEncrypted).toMatch(/^v1\./);
    expect(encodeBase32UpperCaseNoPadding(decryptSecret(h.services.config.secret, account.id, row.secretEncrypted))).toBe(setup.secret);
    // Bound to its user and to the server's key.
    expect(() => decryptSecret(h.services.config.secret, "00000000-0000-0000-0000-000000000000", row.secretEncrypted)).toThrow();
    expect(() => decryptSecret("another-secret-another-secret-another-1", account.id, row.secretEncrypted)).toThrow();
    expect((await api.security.overview()).twoFactorEnabled).toBe(false);
  });

  it("enables with a correct code and returns 10 recovery codes, stored hashed", async () => {
    const { account, client, recoveryCodes } = await withTwoFactor();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const stored = await h.database.db.recoveryCode.findMany({ where: { userId: account.id } });
    expect(stored).toHaveLength(10);
    const hashes = stored.map((row) => row.codeHash).join(" ");
    for (const code of recoveryCodes) expect(hashes).not.toContain(code.replace("-", ""));
    expect(await client.api.security.overview()).toMatchObject({ twoFactorEnabled: true, recoveryCodesRemaining: 10 });
    expect((await outcome(client.api.security.setupTwoFactor())).code).toBe("CONFLICT");
  });

  it.each([
    ["12345", MSG.enterSixDigitCode],
    ["1234567", MSG.enterSixDigitCode],
    ["abcdef", MSG.enterSixDigitCode],
    ["", MSG.enterSixDigitCode],
  ])("refuses the malformed code %j with %j", async (code, message) => {
    const { api } = await signedIn(h, await createAccountWithPassword(h));
    await api.security.setupTwoFactor();
    expect(await outcome(api.security.enableTwoFactor({ code }))).toEqual({ code: "BAD_REQUEST", message });
  });

  it("refuses a wrong code and stays disabled", async () => {
    const account = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    const { secret } = await api.security.setupTwoFactor();
    const wrong = wrongCode(secret);
    expect(await outcome(api.security.enableTwoFactor({ code: wrong }))).toEqual({ code: "BAD_REQUEST", message: MSG.invalidVerificationCode });
    expect((await api.security.overview()).twoFactorEnabled).toBe(false);
  });

  it("refuses enable without a setup", async () => {
    const { api } = await signedIn(h, await createAccountWithPassword(h));
    expect(await outcome(api.security.enableTwoFactor({ code: "123456" }))).toEqual({ code: "BAD_REQUEST", message: SETTINGS_MSG.twoFactorSetupMissing });
  });
});

describe("codes: one step either side, never twice", () => {
  it.each([
    [-1, true],
    [0, true],
    [1, true],
    [-2, false],
    [2, false],
  ])("a code %i step(s) away is accepted: %s", async (offset, accepted) => {
    const { account } = await withTwoFactor();
    nextStep(h); // so the previous step is not the one spent on enabling
    const client = await pendingSignIn(account);
    const secret = await secretOf(account);
    const result = await outcome(client.api.auth.verifyTwoFactor({ code: totp(h, secret, offset) }));
    expect(result.code).toBe(accepted ? "OK" : "BAD_REQUEST");
  });

  it("refuses a replayed code, even from another browser, and an older step after a newer one", async () => {
    const { account, secret } = await withTwoFactor();
    const code = totp(h, secret);
    const first = await pendingSignIn(account);
    await first.api.auth.verifyTwoFactor({ code });
    const second = await pendingSignIn(account);
    expect(await outcome(second.api.auth.verifyTwoFactor({ code }))).toEqual({ code: "BAD_REQUEST", message: MSG.invalidVerificationCode });
    // The previous step's code is older than the one used: refused too.
    expect((await outcome(second.api.auth.verifyTwoFactor({ code: totp(h, secret, -1) }))).code).toBe("BAD_REQUEST");
    nextStep(h);
    expect((await outcome(second.api.auth.verifyTwoFactor({ code: totp(h, secret) }))).code).toBe("OK");
  });

  it("refuses the enabling code for disabling (same step)", async () => {
    const account = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    const { secret } = await api.security.setupTwoFactor();
    const code = totp(h, secret);
    await api.security.enableTwoFactor({ code });
    expect((await outcome(api.security.disableTwoFactor({ code }))).code).toBe("BAD_REQUEST");
    expect((await api.security.overview()).twoFactorEnabled).toBe(true);
  });
});

/** A 6-digit code that no step from -1 to +1 accepts. */
function wrongCode(secret: string, seed = 0): string {
  const valid = new Set([-1, 0, 1].map((offset) => totp(h, secret, offset)));
  for (let n = 123_456 + seed * 7919; ; n = (n + 1) % 1_000_000) {
    const code = String(n).padStart(6, "0");
    if (!valid.has(code)) return code;
  }
}

async function secretOf(account: TestAccount) {
  const row = await h.database.db.twoFactor.findUniqueOrThrow({ where: { userId: account.id } });
  return encodeBase32UpperCaseNoPadding(decryptSecret(h.services.config.secret, account.id, row.secretEncrypted));
}

describe("lockout", () => {
  it("blocks code entry for 30 minutes after five failures, even for the right code", async () => {
    const { account, secret } = await withTwoFactor();
    const client = await pendingSignIn(account);
    const wrong = (i: number) => wrongCode(secret, i);
    for (let i = 0; i < 4; i++) {
      expect(await outcome(client.api.auth.verifyTwoFactor({ code: wrong(i) }))).toEqual({ code: "BAD_REQUEST", message: MSG.invalidVerificationCode });
    }
    expect(await outcome(client.api.auth.verifyTwoFactor({ code: wrong(4) }))).toEqual({ code: "TOO_MANY_REQUESTS", message: SETTINGS_MSG.twoFactorLocked });
    expect((await outcome(client.api.auth.verifyTwoFactor({ code: totp(h, secret) }))).code).toBe("TOO_MANY_REQUESTS");
    // Recovery codes are code entry too.
    expect((await outcome(client.api.auth.verifyRecoveryCode({ code: "aaaaa-bbbbb" }))).code).toBe("TOO_MANY_REQUESTS");
    expect(await client.api.auth.me()).toBeNull();
    h.clock.advance(29 * 60_000);
    nextStep(h);
    // Still blocked just before the 30 minutes are over (the pending session stays alive: each call counts as activity).
    const stillLocked = await pendingSignIn(account);
    expect((await outcome(stillLocked.api.auth.verifyTwoFactor({ code: totp(h, secret) }))).code).toBe("TOO_MANY_REQUESTS");
    h.clock.advance(60_000);
    expect((await outcome(stillLocked.api.auth.verifyTwoFactor({ code: totp(h, secret) }))).code).toBe("OK");
    expect(await stillLocked.api.auth.me()).not.toBeNull();
  });

  it("counts failures of the Security page too, and a success resets the count", async () => {
    const { client, secret, account } = await withTwoFactor();
    for (let i = 0; i < 4; i++) expect((await outcome(client.api.security.disableTwoFactor({ code: wrongCode(secret, i) }))).code).toBe("BAD_REQUEST");
    expect((await h.database.db.twoFactor.findUniqueOrThrow({ where: { userId: account.id } })).failedAttempts).toBe(4);
    const pending = await pendingSignIn(account);
    await pending.api.auth.verifyTwoFactor({ code: totp(h, secret) });
    expect((await h.database.db.twoFactor.findUniqueOrThrow({ where: { userId: account.id } })).failedAttempts).toBe(0);
  });
});

describe("the second sign-in step", () => {
  it("a pending session can call nothing but the second step; the right code finishes the sign-in", async () => {
    const { account, secret } = await withTwoFactor();
    const eventsBefore = await h.database.db.loginEvent.count({ where: { userId: account.id } });
    const client = await pendingSignIn(account);
    expect(await client.api.auth.me()).toBeNull();
    expect((await outcome(client.api.profile.get())).code).toBe("UNAUTHORIZED");
    expect((await outcome(client.api.security.overview())).code).toBe("UNAUTHORIZED");
    expect((await outcome(client.api.security.disableTwoFactor({ code: totp(h, secret) }))).code).toBe("UNAUTHORIZED");
    // A sign-in is recorded only once the second factor is proven.
    expect(await h.database.db.loginEvent.count({ where: { userId: account.id } })).toBe(eventsBefore);
    const waitingCookie = client.cookies.get(SESSION_COOKIE_NAME)!;
    expect(await client.api.auth.verifyTwoFactor({ code: totp(h, secret) })).toMatchObject({ status: "signed_in" });
    expect((await client.api.auth.me())?.user.email).toBe(account.email);
    // The complete session has a new id: the waiting session's cookie is worth nothing now.
    expect(client.cookies.get(SESSION_COOKIE_NAME)).not.toBe(waitingCookie);
    const stale = h.client();
    stale.cookies.set(SESSION_COOKIE_NAME, waitingCookie);
    expect(await stale.api.auth.me()).toBeNull();
    expect((await outcome(stale.api.profile.get())).code).toBe("UNAUTHORIZED");
    expect(await h.database.db.loginEvent.count({ where: { userId: account.id } })).toBe(eventsBefore + 1);
    expect((await client.api.security.overview()).recentLogins[0]).toMatchObject({ method: "password" });
  });

  it("tells the code step whether the sign-in is the account's first completed one", async () => {
    const { account, secret } = await withTwoFactor();
    // The harness's session that turned two-factor on is not a recorded sign-in, so this is the first.
    const first = await pendingSignIn(account);
    expect(await first.api.auth.verifyTwoFactor({ code: totp(h, secret) })).toEqual({ status: "signed_in", firstSignIn: true });
    nextStep(h);
    const again = await pendingSignIn(account);
    expect(await again.api.auth.verifyTwoFactor({ code: totp(h, secret) })).toEqual({ status: "signed_in", firstSignIn: false });
  });

  it("completes nothing when the waiting session ended meanwhile (signed out, or completed by a parallel code)", async () => {
    const { account, secret } = await withTwoFactor();
    const client = await pendingSignIn(account);
    const cookie = client.cookies.get(SESSION_COOKIE_NAME)!;
    const waiting = await h.database.db.session.findFirstOrThrow({ where: { userId: account.id, twoFactorVerified: false } });
    const counts = async () => ({
      events: await h.database.db.loginEvent.count({ where: { userId: account.id } }),
      complete: await h.database.db.session.count({ where: { userId: account.id, twoFactorVerified: true } }),
    });
    const before = await counts();
    // The request had loaded its session; then the session ends before the swap.
    await h.database.db.session.delete({ where: { id: waiting.id } });
    const caller = { ip: "127.0.0.1", userAgent: null };
    const session = { id: cookie, userId: account.id, twoFactorVerified: false, signInMethod: "password" as const };
    await expect(completeTwoFactorSignIn(h.services, caller, session, { kind: "totp", code: totp(h, secret) })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    expect(await counts()).toEqual(before);
  });

  it("needs a session: anonymous callers are refused", async () => {
    expect((await outcome(h.client().api.auth.verifyTwoFactor({ code: "123456" }))).code).toBe("UNAUTHORIZED");
    expect((await outcome(h.client().api.auth.verifyRecoveryCode({ code: "aaaaa-bbbbb" }))).code).toBe("UNAUTHORIZED");
  });

  it("a recovery code works once (any case, with or without the dash)", async () => {
    const { account, recoveryCodes } = await withTwoFactor();
    const code = recoveryCodes[3]!;
    const first = await pendingSignIn(account);
    expect(await first.api.auth.verifyRecoveryCode({ code: ` ${code.toUpperCase().replace("-", "")} ` })).toMatchObject({ status: "signed_in" });
    expect(await first.api.auth.me()).not.toBeNull();
    const second = await pendingSignIn(account);
    expect(await outcome(second.api.auth.verifyRecoveryCode({ code }))).toEqual({ code: "BAD_REQUEST", message: SETTINGS_MSG.invalidRecoveryCode });
    expect(await second.api.auth.me()).toBeNull();
    // Another unused code still works.
    expect((await outcome(second.api.auth.verifyRecoveryCode({ code: recoveryCodes[4]! }))).code).toBe("OK");
    expect((await second.api.security.overview()).recoveryCodesRemaining).toBe(8);
  });

  it("another user's recovery code does not work", async () => {
    const alice = await withTwoFactor();
    const bob = await withTwoFactor();
    const client = await pendingSignIn(bob.account);
    expect((await outcome(client.api.auth.verifyRecoveryCode({ code: alice.recoveryCodes[0]! }))).code).toBe("BAD_REQUEST");
  });

  it("a magic-link sign-in also waits for the code and is recorded as magic link", async () => {
    const { account, secret } = await withTwoFactor();
    const client = h.client();
    await client.api.auth.sendMagicLink({ email: account.email });
    const mail = await h.mail.waitFor(account.email, /sign/i);
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    expect(await client.api.auth.signInWithMagicLink({ token })).toMatchObject({ status: "two_factor_required" });
    expect(await client.api.auth.me()).toBeNull();
    await client.api.auth.verifyTwoFactor({ code: totp(h, secret) });
    expect((await client.api.security.overview()).recentLogins[0]).toMatchObject({ method: "magic_link" });
  });
});

describe("disable", () => {
  it("needs a current code; then sign-in no longer asks for one", async () => {
    const { account, client, secret } = await withTwoFactor();
    expect((await outcome(client.api.security.disableTwoFactor({ code: "12345" }))).message).toBe(MSG.enterSixDigitCode);
    await client.api.security.disableTwoFactor({ code: totp(h, secret) });
    expect(await client.api.security.overview()).toMatchObject({ twoFactorEnabled: false, recoveryCodesRemaining: 0 });
    expect(await h.database.db.recoveryCode.count({ where: { userId: account.id } })).toBe(0);
    expect(await h.client().api.auth.signIn({ email: account.email, password: PASSWORD })).toMatchObject({ status: "signed_in" });
    expect((await outcome(client.api.security.disableTwoFactor({ code: "123456" }))).message).toBe(SETTINGS_MSG.twoFactorNotEnabled);
  });
});
