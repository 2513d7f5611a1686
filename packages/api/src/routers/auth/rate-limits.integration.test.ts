// Rate limits of the auth procedures: per client address and per email address,
// TOO_MANY_REQUESTS with a clear message, and the window passes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "@promptly/shared";
import { AUTH_RATE_LIMITS, type RateLimitedAction } from "../../services/identity/auth.ts";
import { createHarness, withClockAhead, type Harness } from "../../../testing/harness.ts";
import { PASSWORD, outcome, registeredAccount, uniqueEmail } from "../../../testing/auth-support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ rateLimits: true });
});
afterAll(() => h.close());

let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;

const attempt: Record<RateLimitedAction, (api: ReturnType<Harness["client"]>["api"], email: string) => Promise<unknown>> = {
  signIn: (api, email) => api.auth.signIn({ email, password: "wrong-password" }),
  signUp: (api, email) => api.auth.signUp({ email, password: PASSWORD }),
  sendMagicLink: (api, email) => api.auth.sendMagicLink({ email }),
  requestPasswordReset: (api, email) => api.auth.requestPasswordReset({ email }),
  resendVerification: (api, email) => api.auth.resendVerification({ email }),
};
const ACTIONS = Object.keys(attempt) as RateLimitedAction[];
const tooMany = { code: "TOO_MANY_REQUESTS", message: MSG.tooManyRequests };

describe.each(ACTIONS)("%s", (action) => {
  const rules = AUTH_RATE_LIMITS[action];

  it("is limited per email address, whatever the client address", async () => {
    const email = uniqueEmail(`limit-${action}`);
    for (let i = 0; i < rules.email.limit; i++) {
      expect((await outcome(attempt[action](h.client({ ip: freshIp() }).api, email))).code).not.toBe("TOO_MANY_REQUESTS");
    }
    expect(await outcome(attempt[action](h.client({ ip: freshIp() }).api, email))).toMatchObject(tooMany);
    // Another address is not affected.
    expect((await outcome(attempt[action](h.client({ ip: freshIp() }).api, uniqueEmail()))).code).not.toBe("TOO_MANY_REQUESTS");
  });

  it("is limited per client address, whatever the email address", async () => {
    const ip = freshIp();
    for (let i = 0; i < rules.ip.limit; i++) {
      expect((await outcome(attempt[action](h.client({ ip }).api, uniqueEmail()))).code).not.toBe("TOO_MANY_REQUESTS");
    }
    expect(await outcome(attempt[action](h.client({ ip }).api, uniqueEmail()))).toMatchObject(tooMany);
    expect((await outcome(attempt[action](h.client({ ip: freshIp() }).api, uniqueEmail()))).code).not.toBe("TOO_MANY_REQUESTS");
  });

  it("allows requests again once the window has passed", async () => {
    const email = uniqueEmail(`window-${action}`);
    for (let i = 0; i <= rules.email.limit; i++) await outcome(attempt[action](h.client({ ip: freshIp() }).api, email));
    expect(await outcome(attempt[action](h.client({ ip: freshIp() }).api, email))).toMatchObject(tooMany);
    const later = await withClockAhead(rules.email.windowMs + 1_000, () => outcome(attempt[action](h.client({ ip: freshIp() }).api, email)));
    expect(later.code).not.toBe("TOO_MANY_REQUESTS");
  });
});

describe("a limited sign-in", () => {
  it("refuses even the right password, and creates no session", async () => {
    const account = await registeredAccount(h);
    const ip = freshIp();
    for (let i = 0; i < AUTH_RATE_LIMITS.signIn.email.limit; i++) {
      await outcome(h.client({ ip }).api.auth.signIn({ email: account.email, password: "wrong-password" }));
    }
    const client = h.client({ ip: freshIp() });
    expect(await outcome(client.api.auth.signIn({ email: account.email, password: PASSWORD }))).toMatchObject(tooMany);
    expect(client.cookies.size).toBe(0);
  });
});
