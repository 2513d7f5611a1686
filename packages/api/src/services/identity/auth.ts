// Accounts and sign-in: sign-up with email verification, password and magic-link sign-in, password
// reset, sign-out. Nothing here reveals whether an address has an account: unknown addresses get the
// same answers, in about the same time (a dummy argon2id hash; mail queued in the outbox for every
// address alike, the account looked up only when the mail is sent).
import { hash, verify } from "@node-rs/argon2";
import pLimit from "p-limit";
import {
  MSG, UNKNOWN_LOCATION,
  safeRedirectPath,
} from "@promptly/shared";
import { inTransaction, type DbOrTx, type DbTransaction } from "@promptly/db";
import type { User } from "lucia";
import type { ApiServices, ClientInfo } from "../types.ts";
import { resolveCaller } from "../access/access.ts";
import { avatarUrl, type Me } from "./account.ts";
import { fail } from "../../errors.ts";
import { startSession } from "../../auth/session.ts";
import { describeDevice } from "../../auth/user-agent.ts";
import { enqueueMail } from "../platform/outbox.ts";
import { consumeToken, findLiveToken, revokeEmailedLinks } from "./tokens.ts";
import type { RateLimitRule } from "../platform/rate-limits.ts";

// ---- passwords ----

/**
 * argon2id computations run one at a time in a process. Each holds 19 MiB for its duration; with one
 * per core (as before) a burst of sign-ins held 38 MiB at once on 2 cores for no more throughput
 * (`npm run bench -- auth`, 4 clients signing in: 105 sign-ins a second with two at once, 110 with
 * one; each takes about 9 ms, and the rest of a sign-in is the main thread's). The others wait here.
 */
export const passwordChecks = pLimit(1);

/** argon2id with the library's defaults (m=19456 KiB, t=2, p=1: OWASP's recommendation), off the main thread. */
export const hashPassword = (password: string) => passwordChecks(() => hash(password));

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await passwordChecks(() => verify(passwordHash, password));
  } catch {
    return false; // a malformed stored hash never signs anyone in
  }
}

let dummyHash: Promise<string> | null = null;
/** Verifying against this takes as long as a real check, so unknown addresses cannot be timed apart. */
const getDummyHash = () => (dummyHash ??= hashPassword("promptly-dummy-password-for-timing"));

// ---- rate limits ----

const MINUTE = 60_000;
export type RateLimitedAction = "signIn" | "signUp" | "sendMagicLink" | "requestPasswordReset" | "resendVerification";

/** Per client address and per email address; generous for people, tight for scripts. */
export const AUTH_RATE_LIMITS: Record<RateLimitedAction, { ip: RateLimitRule; email: RateLimitRule }> = {
  signIn: { ip: { limit: 30, windowMs: 15 * MINUTE }, email: { limit: 10, windowMs: 15 * MINUTE } },
  signUp: { ip: { limit: 10, windowMs: 60 * MINUTE }, email: { limit: 5, windowMs: 60 * MINUTE } },
  sendMagicLink: { ip: { limit: 10, windowMs: 15 * MINUTE }, email: { limit: 5, windowMs: 15 * MINUTE } },
  requestPasswordReset: { ip: { limit: 10, windowMs: 15 * MINUTE }, email: { limit: 5, windowMs: 15 * MINUTE } },
  resendVerification: { ip: { limit: 10, windowMs: 15 * MINUTE }, email: { limit: 5, windowMs: 15 * MINUTE } },
};

export async function enforceRateLimit(
  services: Pick<ApiServices, "rateLimits" | "config">,
  action: RateLimitedAction,
  ip: string,
  email: string,
) {
  if (!services.config.rateLimits) return;
  const rules = AUTH_RATE_LIMITS[action];
  // Both counters always count, so switching addresses does not reset the other one.
  const [byIp, byEmail] = await Promise.all([
    services.rateLimits.hit(`${action}:ip`, rules.ip, ip),
    services.rateLimits.hit(`${action}:email`, rules.email, email),
  ]);
  if (!byIp.allowed || !byEmail.allowed) fail("RATE_LIMITED", MSG.tooManyRequests);
}

// ---- sign-up and email verification ----

/** Serialises sign-ups so exactly one can be the installation's first account. */
const FIRST_ACCOUNT_LOCK = 7_253_001;

/**
 * The account's rows (user, profile, role `user`, notification defaults), under the lock that lets
 * exactly one sign-up be the installation's first account (a super user); null when the address has
 * an account already.
 */
export async function insertAccount(
  tx: DbTransaction,
  input: { email: string; passwordHash: string; fullName: string | undefined; emailVerifiedAt: Date | null },
): Promise<{ id: string } | null> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK}::bigint)`;
  if (await tx.user.findUnique({ where: { email: input.email }, select: { id: true } })) return null;
  const isFirstAccount = (await tx.user.findFirst({ select: { id: true } })) === null;
  return tx.user.create({
    data: {
      email: input.email,
      passwordHash: input.passwordHash,
      emailVerifiedAt: input.emailVerifiedAt,
      profile: { create: { superUser: isFirstAccount, fullName: input.fullName?.trim() || null } },
      appRole: { create: { role: "user" } },
      notificationPreferences: { create: {} },
    },
    select: { id: true },
  });
}

/**
 * Creates the account (user, profile, role `user`, notification defaults) and mails a verification
 * link. The first account of an installation is a super user. An address that already has an account
 * gets the same answer, and that address an email saying so.
 */
export async function createAccount(
  services: ApiServices,
  client: ClientInfo,
  input: { email: string; password: string; fullName?: string; redirectTo?: string; browserHash: string },
) {
  await enforceRateLimit(services, "signUp", client.ip, input.email);
  const passwordHash = await hashPassword(input.password);
  const now = services.now();
  const browserHash = input.browserHash;
  await services.db.$transaction(async (tx) => {
    const created = await insertAccount(tx, { email: input.email, passwordHash, fullName: input.fullName, emailVerifiedAt: null });
    if (!created) {
      await enqueueMail(tx, { kind: "already_registered", to: input.email, payload: {} }, now);
      return;
    }
    // The link itself is issued when the mail is sent (outbox-mail.ts).
    const payload = { browserHash, redirectTo: safeRedirectPath(input.redirectTo) };
    await enqueueMail(tx, { kind: "email_verification", to: input.email, payload }, now);
  });
}

/**
 * Confirms the address; returns where sign-up asked to go afterwards (a same-origin path) or null.
 * The link proves the inbox, not who chose the password: someone may have signed up with another
 * person's address first (account pre-hijacking). So the password set at sign-up is kept only when
 * the link is confirmed in the browser that asked for it, or when the password is entered; otherwise
 * the owner of the inbox uses 'Forgot password', whose link confirms the address with their password.
 */
export async function confirmEmailAddress(
  services: ApiServices,
  client: ClientInfo,
  input: { token: string; password?: string | undefined; browserHash: string | null },
): Promise<{ redirectTo: string | null }> {
  const now = services.now();
  const live = await findLiveToken(services.db, "email_verification", input.token, now);
  if (!live) return fail("INVALID", MSG.invalidOrExpiredLink);
  const sameBrowser = live.browserHash !== null && live.browserHash === input.browserHash;
  if (!sameBrowser) {
    if (input.password === undefined) return fail("PRECONDITION", MSG.confirmWithPassword, "PASSWORD_REQUIRED");
    const user = await services.db.user.findUniqueOrThrow({ where: { id: live.userId }, select: { email: true, passwordHash: true } });
    await enforceRateLimit(services, "signIn", client.ip, user.email);
    if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.password))) {
      return fail("INVALID", MSG.incorrectPassword, "INCORRECT_PASSWORD");
    }
  }
  return services.db.$transaction(async (tx) => {
    const consumed = await consumeToken(tx, "email_verification", input.token, now);
    if (!consumed) return fail("INVALID", MSG.invalidOrExpiredLink);
    await tx.user.updateMany({ where: { id: consumed.userId, emailVerifiedAt: null }, data: { emailVerifiedAt: now } });
    return { redirectTo: consumed.redirectTo };
  });
}

/**
 * A fresh verification link for an unverified account; nothing for unknown or verified addresses.
 * The request only queues the mail: which case it is is decided when it is sent, so the answer
 * takes the same time for every address.
 */
export async function resendVerificationMail(services: ApiServices, client: ClientInfo, input: { email: string; browserHash: string }) {
  const { email, browserHash } = input;
  await enforceRateLimit(services, "resendVerification", client.ip, email);
  await enqueueMail(services.db, { kind: "email_verification", to: email, payload: { browserHash, redirectTo: null } }, services.now());
}

// ---- sign-in ----

export type SignInMethod = "password" | "magic_link";
export type SignInResult = {
  /** Where the browser goes next: a same-origin path, or null for "/". */
  redirectTo: string | null;
  /** The new session; the procedure sets its cookie. */
  sessionId: string;
} & (
  // firstSignIn: the account had never completed a sign-in before this one (the greeting says 'Welcome!').
  { status: "signed_in"; firstSignIn: boolean } | { status: "two_factor_required" }
);

/** Who signs in from where: the client, and the session its browser already had (it ends: no fixation). */
export interface SignInClient extends ClientInfo {
  previousSessionId: string | null;
}

/**
 * A login event (browser on OS, location) and users.last_sign_in_at, for a completed sign-in only.
 * Returns whether it is the account's first completed sign-in (no last sign-in time before it).
 */
export async function recordSignIn(
  services: { db: DbOrTx; now: () => Date },
  userId: string,
  method: SignInMethod,
  client: ClientInfo,
): Promise<{ firstSignIn: boolean }> {
  const now = services.now();
  return inTransaction(services.db, async (tx) => {
    await tx.loginEvent.create({
      // No IP-location service is reachable from a self-hosted install; the spec's fallback applies.
      data: { userId, method, device: describeDevice(client.userAgent), location: UNKNOWN_LOCATION, createdAt: now },
    });
    // A conditional write under the row's lock: of two first sign-ins at the same moment, one is first.
    const first = await tx.user.updateMany({ where: { id: userId, lastSignInAt: null }, data: { lastSignInAt: now } });
    if (first.count === 1) return { firstSignIn: true };
    await tx.user.update({ where: { id: userId }, data: { lastSignInAt: now }, select: { id: true } });
    return { firstSignIn: false };
  });
}

/**
 * Starts the session once the first factor is proven. With two-factor enabled the session waits for
 * the code (twoFactorVerified=false) and the sign-in is recorded after it; otherwise it is recorded now.
 */
export async function completeSignIn(
  services: ApiServices,
  client: SignInClient,
  user: { id: string; twoFactorEnabled: boolean },
  method: SignInMethod,
  redirectTo: string | null,
): Promise<SignInResult> {
  const session = await startSession(services, {
    userId: user.id,
    previousSessionId: client.previousSessionId,
    userAgent: client.userAgent,
    twoFactorVerified: !user.twoFactorEnabled,
    signInMethod: method,
  });
  if (user.twoFactorEnabled) return { status: "two_factor_required", redirectTo, sessionId: session.id };
  let recorded: { firstSignIn: boolean };
  try {
    recorded = await recordSignIn(services, user.id, method, client);
  } catch (error) {
    // No session without its sign-in on record.
    await services.lucia.invalidateSession(session.id).catch(() => undefined);
    throw error;
  }
  return { status: "signed_in", redirectTo, sessionId: session.id, firstSignIn: recorded.firstSignIn };
}

export async function signInWithPassword(
  services: ApiServices,
  client: SignInClient,
  input: { email: string; password: string; redirectTo?: string },
): Promise<SignInResult> {
  await enforceRateLimit(services, "signIn", client.ip, input.email);
  const user = await services.db.user.findUnique({
    where: { email: input.email },
    select: { id: true, passwordHash: true, emailVerifiedAt: true, twoFactor: { select: { enabledAt: true } } },
  });
  const valid = await verifyPassword(user?.passwordHash ?? (await getDummyHash()), input.password);
  if (!user?.passwordHash || !valid) return fail("INVALID", MSG.invalidCredentials, "INVALID_CREDENTIALS");
  // Only someone who knows the password learns that the address is unconfirmed.
  if (!user.emailVerifiedAt) return fail("PRECONDITION", MSG.emailNotConfirmed, "EMAIL_NOT_VERIFIED");
  return completeSignIn(
    services,
    client,
    { id: user.id, twoFactorEnabled: !!user.twoFactor?.enabledAt },
    "password",
    safeRedirectPath(input.redirectTo),
  );
}

// ---- magic link ----

/**
 * Mails a single-use sign-in link (15 minutes) to an existing account; unknown addresses get nothing.
 * Only the mail is queued here, for every address alike: the account is looked up when it is sent.
 */
export async function mailMagicLink(services: ApiServices, client: ClientInfo, input: { email: string; redirectTo?: string }) {
  await enforceRateLimit(services, "sendMagicLink", client.ip, input.email);
  const payload = { redirectTo: safeRedirectPath(input.redirectTo) };
  await enqueueMail(services.db, { kind: "magic_link", to: input.email, payload }, services.now());
}

export async function consumeMagicLink(services: ApiServices, client: SignInClient, token: string): Promise<SignInResult> {
  const now = services.now();
  const signedIn = await services.db.$transaction(async (tx) => {
    const consumed = await consumeToken(tx, "magic_link", token, now);
    if (!consumed) return fail("INVALID", MSG.invalidOrExpiredLink);
    const user = await tx.user.findUniqueOrThrow({
      where: { id: consumed.userId },
      select: { id: true, emailVerifiedAt: true, twoFactor: { select: { enabledAt: true } } },
    });
    if (!user.emailVerifiedAt) {
      // The link proves the inbox. A password set before anyone proved it may be someone else's
      // (account pre-hijacking), so it stops working; the owner can set one by password reset.
      await tx.user.update({ where: { id: user.id }, data: { emailVerifiedAt: now, passwordHash: null }, select: { id: true } });
    }
    return { id: user.id, twoFactorEnabled: !!user.twoFactor?.enabledAt, redirectTo: consumed.redirectTo };
  });
  return completeSignIn(services, client, signedIn, "magic_link", safeRedirectPath(signedIn.redirectTo));
}

// ---- password reset ----

/** Mails a single-use reset link (1 hour) to an existing account; unknown addresses get nothing (as sendMagicLink). */
export async function mailPasswordResetLink(services: ApiServices, client: ClientInfo, email: string) {
  await enforceRateLimit(services, "requestPasswordReset", client.ip, email);
  await enqueueMail(services.db, { kind: "password_reset", to: email, payload: {} }, services.now());
}

/** Sets the new password and ends every session of the user, this browser's included (the procedure clears its cookie). */
export async function setPasswordFromLink(services: ApiServices, input: { token: string; password: string }) {
  const now = services.now();
  // The costly hash only for a link that can still work: junk tokens must not buy argon2 work.
  if (!(await findLiveToken(services.db, "password_reset", input.token, now))) return fail("INVALID", MSG.invalidOrExpiredLink);
  const passwordHash = await hashPassword(input.password);
  await services.db.$transaction(async (tx) => {
    const consumed = await consumeToken(tx, "password_reset", input.token, now);
    if (!consumed) return fail("INVALID", MSG.invalidOrExpiredLink);
    const user = await tx.user.findUniqueOrThrow({ where: { id: consumed.userId }, select: { emailVerifiedAt: true } });
    await tx.user.update({
      where: { id: consumed.userId },
      // The reset link proves the inbox, so it also confirms the address.
      data: { passwordHash, passwordChangedAt: now, emailVerifiedAt: user.emailVerifiedAt ?? now },
      select: { id: true },
    });
    await tx.session.deleteMany({ where: { userId: consumed.userId } });
    await revokeEmailedLinks(tx, consumed.userId);
  });
}

// ---- sign-out ----

export async function endSession(services: Pick<ApiServices, "lucia">, sessionId: string | null) {
  if (sessionId) await services.lucia.invalidateSession(sessionId);
}

// ---- the signed-in person ----

/** What auth.me needs of the user; resolveRequestSession loads it with the session (see lucia.ts). */
export type MeSource = Pick<User, "id" | "email" | "emailVerifiedAt" | "lastSignInAt" | "createdAt" | "profile" | "appRole">;

/**
 * auth.me from the user loaded with the session, the role resolved as everywhere (resolveCaller).
 */
export async function loadMe(db: DbOrTx, user: MeSource): Promise<Me> {
  const { role, isSuperUser, roleCreated } = await resolveCaller(db, user);
  return {
    user: {
      id: user.id,
      email: user.email,
      emailVerified: user.emailVerifiedAt !== null,
      lastSignInAt: user.lastSignInAt,
      createdAt: user.createdAt,
    },
    profile: {
      fullName: user.profile?.fullName ?? null,
      username: user.profile?.username ?? null,
      avatarUrl: avatarUrl(user.profile?.avatarKey),
    },
    role,
    isSuperUser,
    roleCreated,
  };
}
