// Bad input to every auth procedure: BAD_REQUEST with the spec's message,
// and nothing changed: no account, token, session or mail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "@promptly/shared";
import { CONTROL_CHARACTERS, createHarness, type Harness } from "../../../testing/harness.ts";
import { PASSWORD, outcome, registeredAccount } from "../../../testing/auth-support.ts";

let h: Harness;
let existingEmail: string;
beforeAll(async () => {
  h = await createHarness();
  existingEmail = (await registeredAccount(h)).email;
});
afterAll(() => h.close());

const HUGE = "x".repeat(10 * 1024);
const HUGE_EMAIL = `${"a".repeat(10 * 1024)}@example.test`;
const TOKEN = "A".repeat(27);


async function state() {
  const db = h.database.db;
  return {
    users: await db.user.findMany({ select: { id: true, email: true, passwordHash: true, emailVerifiedAt: true }, orderBy: { email: "asc" } }),
    tokens: await db.oneTimeToken.count(),
    sessions: await db.session.count(),
    events: await db.loginEvent.count(),
    outbox: await db.outboxMessage.count(),
    mails: (await Promise.all(RECIPIENTS().map((to) => h.mail.list(to)))).map((list) => list.length),
  };
}
/** Every address the inputs below name (the mailbox is shared with other test files). */
const RECIPIENTS = () => [existingEmail, "new-person@example.test", "x@example.test"];

type Call = (input: unknown) => Promise<unknown>;
const calls = (): Record<string, Call> => {
  const api = h.client().api.auth;
  return {
    signUp: (input) => api.signUp(input as never),
    signIn: (input) => api.signIn(input as never),
    sendMagicLink: (input) => api.sendMagicLink(input as never),
    requestPasswordReset: (input) => api.requestPasswordReset(input as never),
    resendVerification: (input) => api.resendVerification(input as never),
    verifyEmail: (input) => api.verifyEmail(input as never),
    signInWithMagicLink: (input) => api.signInWithMagicLink(input as never),
    resetPassword: (input) => api.resetPassword(input as never),
  };
};

// Every procedure that takes an email, with a valid rest of its input.
const EMAIL_PROCEDURES: [string, (email: unknown) => unknown][] = [
  ["signUp", (email) => ({ email, password: PASSWORD })],
  ["signIn", (email) => ({ email, password: PASSWORD })],
  ["sendMagicLink", (email) => ({ email })],
  ["requestPasswordReset", (email) => ({ email })],
  ["resendVerification", (email) => ({ email })],
];
const BAD_EMAILS: [string, unknown, string][] = [
  ["an empty email", "", MSG.required],
  ["a blank email", "   ", MSG.required],
  ["a missing email", undefined, MSG.required],
  ["a malformed email", "not-an-email", MSG.invalidEmail],
  ["an email without a domain", "person@", MSG.invalidEmail],
  ["an email with a space inside", "per son@example.test", MSG.invalidEmail],
  ["a 10 kB email", HUGE_EMAIL, MSG.invalidEmail],
  ["a number as email", 42, MSG.required],
  ["an object as email", { address: "x@example.test" }, MSG.required],
];

const cases: [procedure: string, label: string, message: string, input: unknown][] = [
  ...EMAIL_PROCEDURES.flatMap(([procedure, build]) =>
    BAD_EMAILS.map(([label, email, message]) => [procedure, label, message, build(email)] as [string, string, string, unknown]),
  ),
  // passwords
  ["signUp", "an empty password", MSG.required, { email: "new-person@example.test", password: "" }],
  ["signUp", "a missing password", MSG.required, { email: "new-person@example.test" }],
  ["signUp", "a 5-character password", MSG.passwordMinSignUp, { email: "new-person@example.test", password: "12345" }],
  ["signUp", "a 10 kB password", MSG.passwordTooLong, { email: "new-person@example.test", password: HUGE }],
  ["signUp", "a number as password", MSG.required, { email: "new-person@example.test", password: 123456 }],
  ["signIn", "an empty password", MSG.required, { email: "x@example.test", password: "" }],
  ["signIn", "a missing password", MSG.required, { email: "x@example.test" }],
  ["signIn", "a 10 kB password", MSG.passwordTooLong, { email: "x@example.test", password: HUGE }],
  ["signIn", "a boolean as password", MSG.required, { email: "x@example.test", password: true }],
  ["signIn", "a 10 kB redirect", "Invalid input", { email: "x@example.test", password: PASSWORD, redirectTo: `/${HUGE}` }],
  // tokens
  ...(["verifyEmail", "signInWithMagicLink"] as const).flatMap((procedure) =>
    [
      ["an empty token", { token: "" }],
      ["a missing token", {}],
      ["a short token", { token: "abc" }],
      ["a 10 kB token", { token: HUGE }],
      ["a number as token", { token: 12345678901234567890 }],
      ["no input at all", undefined],
    ].map(([label, input]) => [procedure, label, MSG.invalidOrExpiredLink, input] as [string, string, string, unknown]),
  ),
  ...(["signUp", "signIn", "sendMagicLink", "requestPasswordReset", "resendVerification"] as const).flatMap((procedure) =>
    [
      ["no input at all", undefined],
      ["a string instead of an object", "person@example.test"],
    ].map(([label, input]) => [procedure, label, MSG.required, input] as [string, string, string, unknown]),
  ),
  ["resetPassword", "no input at all", MSG.invalidOrExpiredLink, undefined],
  ["resetPassword", "an empty token", MSG.invalidOrExpiredLink, { token: "", password: PASSWORD }],
  ["resetPassword", "a 10 kB token", MSG.invalidOrExpiredLink, { token: HUGE, password: PASSWORD }],
  ["resetPassword", "an empty password", MSG.required, { token: TOKEN, password: "" }],
  ["resetPassword", "a 5-character password", MSG.passwordMinSignUp, { token: TOKEN, password: "12345" }],
  ["resetPassword", "a 10 kB password", MSG.passwordTooLong, { token: TOKEN, password: HUGE }],
  ["resetPassword", "an array as password", MSG.required, { token: TOKEN, password: ["secret"] }],
  // control characters: NUL and the other C0/C1 controls in every text field
  ...CONTROL_CHARACTERS.flatMap(([name, c]) => [
    ["signUp", `${name} in the password`, MSG.controlCharacters, { email: "new-person@example.test", password: `secret${c}word` }],
    ["signUp", `${name} in the redirect`, MSG.controlCharacters, { email: "new-person@example.test", password: PASSWORD, redirectTo: `/teams${c}` }],
    ["signIn", `${name} in the redirect`, MSG.controlCharacters, { email: "x@example.test", password: PASSWORD, redirectTo: `/${c}` }],
    ["sendMagicLink", `${name} in the redirect`, MSG.controlCharacters, { email: "x@example.test", redirectTo: `/a${c}b` }],
    ["sendMagicLink", `${name} in the email`, MSG.invalidEmail, { email: `x${c}@example.test` }],
    ["requestPasswordReset", `${name} in the email`, MSG.invalidEmail, { email: `x@exa${c}mple.test` }],
    ["resetPassword", `${name} in the password`, MSG.controlCharacters, { token: TOKEN, password: `new-pass${c}word` }],
  ] as [string, string, string, unknown][]),
];

describe("bad input to the auth procedures", () => {
  it.each(cases)("%s with %s: BAD_REQUEST '%s'", async (procedure, _label, message, input) => {
    const before = await state();
    const result = await outcome(calls()[procedure]!(input));
    expect(result.code).toBe("BAD_REQUEST");
    if (message === "Invalid input") expect(result.message).toMatch(/^Invalid input|Too big/);
    else expect(result.message).toBe(message);
    await h.mail.settled(); // mail goes out in the background: count it only once it has
    expect(await state()).toEqual(before);
  });

  it("an unknown token of the right shape is refused too, and changes nothing", async () => {
    const before = await state();
    for (const procedure of ["verifyEmail", "signInWithMagicLink"]) {
      expect(await outcome(calls()[procedure]!({ token: TOKEN }))).toMatchObject({ code: "BAD_REQUEST", message: MSG.invalidOrExpiredLink });
    }
    expect(await outcome(calls().resetPassword!({ token: TOKEN, password: "new-password" }))).toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.invalidOrExpiredLink,
    });
    await h.mail.settled();
    expect(await state()).toEqual(before);
  });
});
