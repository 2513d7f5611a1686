// The session cache against the real database, with two app processes (each its own database client,
// session cache and LISTEN connection): a session that ends is refused at once by the process that
// ended it and within a bounded time by the other; a user's profile and role are never served stale;
// idle and absolute limits hold on a warm cache; a lost LISTEN connection stops the cache serving.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_MAX_AGE_DAYS } from "@promptly/shared";
import { appProcess, createAccount, createHarness, type AppProcess, type Harness, type TestClient } from "../../testing/harness.ts";
import { PASSWORD, SUBJECTS, linkOf, nextMail, registeredAccount } from "../../testing/auth-support.ts";
import { SESSION_COOKIE_NAME, hashToken } from "./lucia.ts";
import { SessionCache } from "./session-cache.ts";

let h: Harness;
let a: AppProcess;
let b: AppProcess;
beforeAll(async () => {
  h = await createHarness();
  a = appProcess(h);
  b = appProcess(h);
  await Promise.all([listening(a, true), listening(b, true)]);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await h?.close();
});

/** How long another process may go on accepting a session ended elsewhere (the notification's delivery). */
const BOUND_MS = 2_000;

/** Asks `test` every 10 ms until it holds (a bounded poll of the condition itself); the time it took. */
async function until(test: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<number> {
  const started = Date.now();
  while (!(await test())) {
    if (Date.now() - started > timeoutMs) throw new Error(`Not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

/**
 * Resolves once `p`'s session cache serves (true) or has stopped serving (false): at once if it does
 * already, else when startRuntimeSync next tells it so (its setListening, observed as it is called;
 * one wait a process at a time).
 */
function listening(p: AppProcess, serving: boolean, timeoutMs = 5_000): Promise<void> {
  const sessions = p.services.sessions;
  if (sessions.serving === serving) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      Reflect.deleteProperty(sessions, "setListening");
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`the session cache was not told listening=${serving} within ${timeoutMs} ms`));
    }, timeoutMs);
    sessions.setListening = (value: boolean) => {
      SessionCache.prototype.setListening.call(sessions, value);
      if (value !== serving) return;
      done();
      resolve();
    };
  });
}

const cookieOf = (client: TestClient) => client.cookies.get(SESSION_COOKIE_NAME)!;

async function signedInOn(p: AppProcess, email: string): Promise<TestClient> {
  const client = h.client({ services: p.services });
  expect(await client.api.auth.signIn({ email, password: PASSWORD })).toMatchObject({ status: "signed_in" });
  return client;
}

/** Another browser holding the same session cookie (a copy kept by the test, or a stolen one), on `p`. */
function sameSessionOn(p: AppProcess, client: TestClient): TestClient {
  const copy = h.client({ services: p.services });
  copy.cookies.set(SESSION_COOKIE_NAME, cookieOf(client));
  return copy;
}

/** Asks until `p` answers the client's session from memory, so what follows tests the cache. */
async function warm(p: AppProcess, client: TestClient) {
  const idHash = hashToken(cookieOf(client));
  await until(async () => {
    expect(await client.api.auth.me()).not.toBeNull();
    return p.services.sessions.get(idHash) !== undefined;
  });
}

/** Asks `client` until `test` holds of its auth.me; the time it took. */
const soon = (client: TestClient, test: (me: Awaited<ReturnType<TestClient["api"]["auth"]["me"]>>) => boolean) =>
  until(async () => test(await client.api.auth.me()), BOUND_MS);

describe("session cache: ended sessions", () => {
  it("sign-out: refused at once on the same process, and on another within the bound", async () => {
    const account = await registeredAccount(h);
    const laptop = await signedInOn(a, account.email);
    const copyOnA = sameSessionOn(a, laptop);
    const copyOnB = sameSessionOn(b, laptop);
    await warm(a, copyOnA);
    await warm(b, copyOnB);

    await laptop.api.auth.signOut();
    expect(await copyOnA.api.auth.me()).toBeNull();
    expect(await soon(copyOnB, (me) => me === null)).toBeLessThan(BOUND_MS);
  });

  it("password change: the other sessions end at once here and soon on another process; this one stays", async () => {
    const account = await registeredAccount(h);
    const laptop = await signedInOn(a, account.email);
    const phone = await signedInOn(a, account.email);
    const phoneOnB = sameSessionOn(b, phone);
    await warm(a, phone);
    await warm(a, laptop);
    await warm(b, phoneOnB);

    await laptop.api.security.changePassword({ currentPassword: PASSWORD, newPassword: "brand-new-pass-1", confirmPassword: "brand-new-pass-1" });
    expect(await phone.api.auth.me()).toBeNull();
    expect(await laptop.api.auth.me()).not.toBeNull();
    expect(await soon(phoneOnB, (me) => me === null)).toBeLessThan(BOUND_MS);
  });

  it("password reset: every session ends at once on the process that reset it", async () => {
    const account = await registeredAccount(h);
    const laptop = await signedInOn(a, account.email);
    const laptopOnB = sameSessionOn(b, laptop);
    await warm(a, laptop);
    await warm(b, laptopOnB);
    const seen = await h.mail.list(account.email);
    await h.client({ services: a.services }).api.auth.requestPasswordReset({ email: account.email });
    const { token } = linkOf(await nextMail(h, account.email, SUBJECTS.passwordReset, seen));

    await h.client({ services: a.services }).api.auth.resetPassword({ token, password: "a-brand-new-password" });
    expect(await laptop.api.auth.me()).toBeNull();
    expect(await soon(laptopOnB, (me) => me === null)).toBeLessThan(BOUND_MS);
  });

  it("a session deleted by another writer (housekeeping, another process, an admin's SQL) is refused within the bound", async () => {
    const account = await registeredAccount(h);
    const laptop = await signedInOn(a, account.email);
    await warm(a, laptop);
    await h.database.db.session.deleteMany({ where: { userId: account.id } });
    expect(await soon(laptop, (me) => me === null)).toBeLessThan(BOUND_MS);
  });

  it("the idle limit holds on a warm cache, measured on services.now()", async () => {
    const account = await registeredAccount(h);
    const laptop = await signedInOn(a, account.email);
    await warm(a, laptop);
    h.clock.advance(31 * 60_000);
    try {
      expect(await laptop.api.auth.me()).toBeNull();
      expect(await h.database.db.session.count({ where: { userId: account.id } })).toBe(0);
    } finally {
      h.clock.advance(-31 * 60_000);
    }
  });

  it("the absolute end holds on a warm cache whose activity is recent", async () => {
    const account = await registeredAccount(h);
    const laptop = await signedInOn(a, account.email);
    const idHash = hashToken(cookieOf(laptop));
    const { expiresAt } = await h.database.db.session.findUniqueOrThrow({ where: { id: idHash } });
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan((SESSION_MAX_AGE_DAYS - 1) * 86_400_000);
    // Active 20 s before its end (as if used all along), the clock 10 s before it.
    const offset = expiresAt.getTime() - 10_000 - Date.now();
    await h.database.db.session.update({ where: { id: idHash }, data: { lastActiveAt: new Date(expiresAt.getTime() - 20_000) } });
    h.clock.advance(offset);
    try {
      await warm(a, laptop);
      h.clock.advance(15_000);
      expect(await laptop.api.auth.me()).toBeNull();
    } finally {
      h.clock.advance(-offset - 15_000);
    }
  });

  it("activity written by another process counts for the idle limit here, and is written at most once a minute", async () => {
    const account = await registeredAccount(h);
    const laptop = await signedInOn(a, account.email);
    const laptopOnB = sameSessionOn(b, laptop);
    const idHash = hashToken(cookieOf(laptop));
    const lastActive = async () => (await h.database.db.session.findUniqueOrThrow({ where: { id: idHash } })).lastActiveAt.getTime();
    await warm(a, laptop);
    let moved = 0;
    const advance = (ms: number) => {
      h.clock.advance(ms);
      moved += ms;
    };
    try {
      advance(2 * 60_000);
      expect(await laptopOnB.api.auth.me()).not.toBeNull(); // B writes the activity
      const written = await lastActive();
      expect(Math.abs(written - h.clock.now().getTime())).toBeLessThan(5_000);
      advance(30_000);
      expect(await laptop.api.auth.me()).not.toBeNull();
      expect(await laptopOnB.api.auth.me()).not.toBeNull();
      expect(await lastActive()).toBe(written); // within the minute: no second write, on either process
      // 31 minutes after A last saw it, 29 after B's activity: A must not call it idle.
      advance(29 * 60_000 - 30_000);
      expect(await laptop.api.auth.me()).not.toBeNull();
    } finally {
      h.clock.advance(-moved);
    }
  });
});

describe("session cache: the user's fields", () => {
  it("a profile change is served at once here and soon on another process, whoever writes it", async () => {
    const account = await registeredAccount(h);
    const laptop = await signedInOn(a, account.email);
    const laptopOnB = sameSessionOn(b, laptop);
    await warm(a, laptop);
    await warm(b, laptopOnB);

    await laptop.api.profile.update({ fullName: "Ada Lovelace", username: "ada" });
    expect((await laptop.api.auth.me())?.profile).toMatchObject({ fullName: "Ada Lovelace", username: "ada" });
    expect(await soon(laptopOnB, (me) => me?.profile.fullName === "Ada Lovelace")).toBeLessThan(BOUND_MS);

    // Written by another path (a script, another process): both processes hear of it.
    await warm(a, laptop);
    await h.database.db.profile.update({ where: { userId: account.id }, data: { fullName: "Augusta King" } });
    expect(await soon(laptop, (me) => me?.profile.fullName === "Augusta King")).toBeLessThan(BOUND_MS);
    expect(await soon(laptopOnB, (me) => me?.profile.fullName === "Augusta King")).toBeLessThan(BOUND_MS);
  });

  it("an app role or super user change (and its removal) is served at once here and soon on another process", async () => {
    const root = await createAccount(h, { superUser: true, password: PASSWORD });
    const rootApi = (await signedInOn(a, root.email)).api;
    const person = await registeredAccount(h);
    const laptop = await signedInOn(a, person.email);
    const laptopOnB = sameSessionOn(b, laptop);
    for (const role of ["administrator", "super-user", "user"] as const) {
      await warm(a, laptop);
      await warm(b, laptopOnB);
      await rootApi.users.setAppRole({ userId: person.id, role });
      expect((await laptop.api.auth.me())?.role).toBe(role);
      expect(await soon(laptopOnB, (me) => me?.role === role)).toBeLessThan(BOUND_MS);
    }
  });

  it("the session timeout setting applies at once", async () => {
    const account = await registeredAccount(h);
    const laptop = await signedInOn(a, account.email);
    await warm(a, laptop);
    await laptop.api.security.updateSessionTimeout({ minutes: 5 });
    h.clock.advance(6 * 60_000);
    try {
      expect(await laptop.api.auth.me()).toBeNull();
    } finally {
      h.clock.advance(-6 * 60_000);
    }
  });
});

describe("session cache: the LISTEN connection", () => {
  it("serves nothing from memory once the connection is lost, and again once it is back", async () => {
    const account = await registeredAccount(h);
    const laptop = await signedInOn(a, account.email);
    await warm(a, laptop);
    const idHash = hashToken(cookieOf(laptop));

    // Every process's listening connection ends (a restart of the database, a proxy's idle cut).
    const lost = listening(a, false);
    await h.database.db.$queryRaw`
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE 'LISTEN promptly_runtime%'`;
    await lost;
    // A change nobody hears of: the cache must not answer with what it held.
    await h.database.db.profile.upsert({ where: { userId: account.id }, create: { userId: account.id, fullName: "Unheard" }, update: { fullName: "Unheard" } });
    expect((await laptop.api.auth.me())?.profile.fullName).toBe("Unheard");

    // Listening again (after a second), it serves from memory again.
    await listening(a, true);
    await warm(a, laptop);
    expect(a.services.sessions.get(idHash)?.user.profile?.fullName).toBe("Unheard");
  });
});
