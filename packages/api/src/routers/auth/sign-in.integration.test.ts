// auth.signIn / signOut / me: argon2id check, one answer for unknown address and wrong
// password, the session cookie, login events, two-factor hand-off, safe redirects and session limits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG, SESSION_MAX_AGE_DAYS, UNKNOWN_LOCATION } from "@promptly/shared";
import { appRouter } from "../../root.ts";
import { createCallerFactory } from "../../trpc.ts";
import { createContext } from "../../context.ts";
import type { RequestInfo } from "../../request.ts";
import { hashToken } from "../../auth/lucia.ts";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { PASSWORD, outcome, registeredAccount, signedInClient, uniqueEmail } from "../../../testing/auth-support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** A caller that records the raw Set-Cookie headers, to check the cookie's attributes. */
function rawCaller(secure: boolean) {
  const setCookies: string[] = [];
  const req: RequestInfo = {
    ip: "192.0.2.10",
    userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0",
    cookieHeader: null,
    secure,
    setCookie: (serialized) => setCookies.push(serialized),
  };
  const api = createCallerFactory(appRouter)(() => createContext(h.services, req));
  return { api, setCookies };
}

describe("signing in with a password", () => {
  it("starts a session with an httpOnly, SameSite=Lax cookie whose id is stored only as a hash", async () => {
    const account = await registeredAccount(h);
    const { api, setCookies } = rawCaller(false);
    expect(await api.auth.signIn({ email: account.email, password: PASSWORD })).toEqual({ status: "signed_in", redirectTo: null, firstSignIn: true });
    expect(setCookies).toHaveLength(1);
    const cookie = setCookies[0]!;
    expect(cookie).toMatch(/^promptly_session=[a-z0-9]{20,};/);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).not.toMatch(/; Secure/i);
    expect(cookie).toMatch(/; Path=\//i);
    const sessionId = /^promptly_session=([^;]+)/.exec(cookie)![1]!;
    const sessions = await h.database.db.session.findMany({ where: { userId: account.id } });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.id).toBe(hashToken(sessionId));
    expect(sessions[0]!.id).not.toBe(sessionId);
    const lifetimeMs = sessions[0]!.expiresAt.getTime() - sessions[0]!.createdAt.getTime();
    expect(Math.abs(lifetimeMs - SESSION_MAX_AGE_DAYS * 86_400_000)).toBeLessThan(60_000);
  });

  it("marks the cookie Secure when the request came over https", async () => {
    const account = await registeredAccount(h);
    const { api, setCookies } = rawCaller(true);
    await api.auth.signIn({ email: account.email, password: PASSWORD });
    expect(setCookies[0]).toMatch(/; Secure/i);
  });

  it("accepts the address in any case and with spaces", async () => {
    const account = await registeredAccount(h);
    const client = h.client();
    await client.api.auth.signIn({ email: `  ${account.email.toUpperCase()}  `, password: PASSWORD });
    expect((await client.api.auth.me())?.user.email).toBe(account.email);
  });

  it("records a login event (browser on OS, unknown location) and the last sign-in time", async () => {
    const account = await registeredAccount(h);
    const client = h.client({ userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0" });
    await client.api.auth.signIn({ email: account.email, password: PASSWORD });
    const events = await h.database.db.loginEvent.findMany({ where: { userId: account.id } });
    expect(events).toEqual([expect.objectContaining({ method: "password", device: "Firefox on macOS", location: UNKNOWN_LOCATION })]);
    const me = await client.api.auth.me();
    expect(me?.user.lastSignInAt).toEqual(events[0]!.createdAt);
  });

  it("gives an unknown address and a wrong password the same answer, and records nothing", async () => {
    const account = await registeredAccount(h);
    const client = h.client();
    const unknown = await outcome(client.api.auth.signIn({ email: uniqueEmail("nobody"), password: PASSWORD }));
    const wrong = await outcome(client.api.auth.signIn({ email: account.email, password: "wrong-password" }));
    expect(unknown).toEqual({ code: "BAD_REQUEST", message: MSG.invalidCredentials, reason: "INVALID_CREDENTIALS" });
    expect(wrong).toEqual(unknown);
    expect(client.cookies.size).toBe(0);
    expect(await h.database.db.session.count({ where: { userId: account.id } })).toBe(0);
    expect(await h.database.db.loginEvent.count({ where: { userId: account.id } })).toBe(0);
  });

  it("takes about as long for an unknown address as for a known one (both verify an argon2id hash)", async () => {
    const account = await registeredAccount(h);
    const client = h.client();
    const time = async (email: string) => {
      const started = performance.now();
      await outcome(client.api.auth.signIn({ email, password: "wrong-password" }));
      return performance.now() - started;
    };
    await time(uniqueEmail("warm")); // the dummy hash is made once, on first use
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(account.email));
      unknown.push(await time(uniqueEmail("timing")));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[2]!;
    // An argon2id verification costs several milliseconds; skipping it would make unknown addresses far faster.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });

  it("refuses an account without a password (magic-link only) with the same answer", async () => {
    const email = uniqueEmail("nopass");
    await h.database.db.user.create({ data: { email, emailVerifiedAt: new Date(), profile: { create: {} } } });
    expect(await outcome(h.client().api.auth.signIn({ email, password: PASSWORD }))).toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.invalidCredentials,
    });
  });

  it.each([
    ["/settings/profile", "/settings/profile"],
    ["/teams?tab=1", "/teams?tab=1"],
    ["https://evil.example/", null],
    ["//evil.example/x", null],
    ["/\\evil.example", null],
  ])("passes the redirect %s back only as a same-origin path (%s)", async (redirectTo, expected) => {
    const account = await registeredAccount(h);
    expect(await h.client().api.auth.signIn({ email: account.email, password: PASSWORD, redirectTo })).toEqual({
      status: "signed_in",
      redirectTo: expected,
      firstSignIn: true,
    });
  });

  it("replaces a session the browser already had (no session fixation)", async () => {
    const account = await registeredAccount(h);
    const client = await signedInClient(h, account.email);
    const first = client.cookies.get("promptly_session");
    await client.api.auth.signIn({ email: account.email, password: PASSWORD });
    expect(client.cookies.get("promptly_session")).not.toBe(first);
    expect(await h.database.db.session.count({ where: { userId: account.id } })).toBe(1);
    expect(await h.database.db.session.count({ where: { id: hashToken(first!) } })).toBe(0);
  });
});

describe("the first sign-in of an account (the greeting: 'Welcome!' or 'Welcome back!')", () => {
  it("is first once: the next sign-in, from any browser, is not", async () => {
    const account = await registeredAccount(h);
    expect(await h.client().api.auth.signIn({ email: account.email, password: PASSWORD })).toMatchObject({ firstSignIn: true });
    expect(await h.client().api.auth.signIn({ email: account.email, password: PASSWORD })).toMatchObject({ firstSignIn: false });
    expect(await h.client().api.auth.signIn({ email: account.email, password: PASSWORD })).toMatchObject({ firstSignIn: false });
  });

  it("is not used up by a refused sign-in", async () => {
    const account = await registeredAccount(h);
    expect((await outcome(h.client().api.auth.signIn({ email: account.email, password: "wrong-password" }))).code).toBe("BAD_REQUEST");
    expect(await h.client().api.auth.signIn({ email: account.email, password: PASSWORD })).toMatchObject({ firstSignIn: true });
  });

  it("goes to exactly one of two sign-ins at the same moment", async () => {
    const account = await registeredAccount(h);
    const results = await Promise.all([0, 1].map(() => h.client().api.auth.signIn({ email: account.email, password: PASSWORD })));
    expect(results.map((result) => result.status === "signed_in" && result.firstSignIn).sort()).toEqual([false, true]);
  });

  it("waits for the second factor: the password step of a two-factor account carries no greeting", async () => {
    const account = await registeredAccount(h);
    await h.database.db.twoFactor.create({ data: { userId: account.id, secretEncrypted: "x", enabledAt: new Date() } });
    const answer = await h.client().api.auth.signIn({ email: account.email, password: PASSWORD });
    expect(answer).not.toHaveProperty("firstSignIn");
    // Nothing was recorded, so the first completed sign-in is still to come.
    expect((await h.database.db.user.findUniqueOrThrow({ where: { id: account.id } })).lastSignInAt).toBeNull();
  });
});

describe("two-factor accounts", () => {
  it("get a session that waits for the code: me is null, protected calls refused, no login event yet", async () => {
    const account = await registeredAccount(h);
    await h.database.db.twoFactor.create({ data: { userId: account.id, secretEncrypted: "x", enabledAt: new Date() } });
    const client = h.client();
    expect(await client.api.auth.signIn({ email: account.email, password: PASSWORD, redirectTo: "/teams" })).toEqual({
      status: "two_factor_required",
      redirectTo: "/teams",
    });
    const session = await h.database.db.session.findFirstOrThrow({ where: { userId: account.id } });
    expect(session.twoFactorVerified).toBe(false);
    expect(await client.api.auth.me()).toBeNull();
    expect(await outcome(client.api.organizations.list())).toMatchObject({ code: "UNAUTHORIZED" });
    expect(await h.database.db.loginEvent.count({ where: { userId: account.id } })).toBe(0);
  });

  it("are not affected by a two-factor setup that was never enabled", async () => {
    const account = await registeredAccount(h);
    await h.database.db.twoFactor.create({ data: { userId: account.id, secretEncrypted: "x", enabledAt: null } });
    expect(await h.client().api.auth.signIn({ email: account.email, password: PASSWORD })).toMatchObject({ status: "signed_in" });
  });
});

describe("signing out and session limits", () => {
  it("signOut ends the session on the server and clears the cookie", async () => {
    const account = await registeredAccount(h);
    const client = await signedInClient(h, account.email);
    const sessionId = client.cookies.get("promptly_session")!;
    expect(await client.api.auth.signOut()).toEqual({ ok: true });
    expect(client.cookies.size).toBe(0);
    expect(await h.database.db.session.count({ where: { id: hashToken(sessionId) } })).toBe(0);
    // The old cookie, replayed, is worth nothing.
    client.cookies.set("promptly_session", sessionId);
    expect(await client.api.auth.me()).toBeNull();
  });

  it("signOut without a session is harmless", async () => {
    expect(await h.client().api.auth.signOut()).toEqual({ ok: true });
  });

  it("a session ends after the idle limit of the account", async () => {
    const account = await registeredAccount(h);
    const client = await signedInClient(h, account.email);
    h.clock.advance(29 * 60_000);
    expect(await client.api.auth.me()).not.toBeNull(); // activity refreshes the idle timer
    h.clock.advance(29 * 60_000);
    expect(await client.api.auth.me()).not.toBeNull();
    h.clock.advance(31 * 60_000);
    expect(await client.api.auth.me()).toBeNull();
    expect(await h.database.db.session.count({ where: { userId: account.id } })).toBe(0);
  });

  it("a session ends at its absolute limit, however active", async () => {
    const account = await registeredAccount(h);
    const client = await signedInClient(h, account.email);
    await h.database.db.session.updateMany({ where: { userId: account.id }, data: { expiresAt: new Date(h.clock.now().getTime() - 1) } });
    expect(await client.api.auth.me()).toBeNull();
  });

  it("an unknown session cookie is cleared", async () => {
    const client = h.client();
    client.cookies.set("promptly_session", "made-up-session-id-000000000");
    expect(await client.api.auth.me()).toBeNull();
    expect(client.cookies.size).toBe(0);
  });
});
