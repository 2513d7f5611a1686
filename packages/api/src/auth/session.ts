// Reads the session cookie of a request and enforces the absolute and idle limits.
import { Cookie } from "lucia";
import type { Session, User } from "lucia";
import type { ApiServices, RequestInfo } from "../context.ts";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { findSessionRow, hashToken } from "./lucia.ts";

/** lastActiveAt is written at most this often, so reads stay cheap. */
const ACTIVITY_WRITE_INTERVAL_MS = 60_000;

/**
 * One indexed query per request. Lucia's validateSession is not used here: it checks expiry against
 * the process clock and slides the expiry in memory, while sessions here have an absolute end and
 * the idle limit of the user's settings, both measured on `services.now()`.
 */
export async function resolveRequestSession(
  services: ApiServices,
  req: RequestInfo,
): Promise<{ session: Session | null; user: User | null }> {
  const sessionId = req.cookieHeader ? services.lucia.readSessionCookie(req.cookieHeader) : null;
  if (!sessionId) return { session: null, user: null };
  const row = await findSessionRow(services.db, sessionId);
  if (!row) {
    clearSessionCookie(services, req);
    return { session: null, user: null };
  }
  const now = services.now().getTime();
  const idleLimitMs = row.user.sessionTimeoutMinutes * 60_000;
  if (row.expiresAt.getTime() <= now || now - row.lastActiveAt.getTime() > idleLimitMs) {
    await services.db.session.deleteMany({ where: { id: hashToken(sessionId) } });
    clearSessionCookie(services, req);
    return { session: null, user: null };
  }
  let lastActiveAt = row.lastActiveAt;
  if (now - lastActiveAt.getTime() > ACTIVITY_WRITE_INTERVAL_MS) {
    lastActiveAt = new Date(now);
    await services.db.session.updateMany({ where: { id: hashToken(sessionId) }, data: { lastActiveAt } });
  }
  const session: Session = {
    id: sessionId,
    userId: row.userId,
    expiresAt: row.expiresAt,
    fresh: false,
    twoFactorVerified: row.twoFactorVerified,
    lastActiveAt,
    signInMethod: row.signInMethod,
  };
  return { session, user: { id: row.userId, ...row.user } };
}

/** Starts a session for `userId` and sets its cookie; a session the request already carried ends (no fixation). */
export async function startSession(
  services: ApiServices,
  req: RequestInfo,
  userId: string,
  options: { twoFactorVerified: boolean; signInMethod: "password" | "magic_link" },
): Promise<Session> {
  const previousId = req.cookieHeader ? services.lucia.readSessionCookie(req.cookieHeader) : null;
  if (previousId) await services.lucia.invalidateSession(previousId);
  const session = await services.lucia.createSession(userId, {
    twoFactorVerified: options.twoFactorVerified,
    signInMethod: options.signInMethod,
    lastActiveAt: services.now(),
    userAgent: req.userAgent?.slice(0, 512) ?? null,
  });
  setSessionCookie(services, req, session.id);
  return session;
}

function withSecure(cookie: Cookie, secure: boolean) {
  return new Cookie(cookie.name, cookie.value, { ...cookie.attributes, secure, httpOnly: true, sameSite: "lax", path: "/" });
}

export function setSessionCookie(services: Pick<ApiServices, "lucia">, req: RequestInfo, sessionId: string) {
  req.setCookie(withSecure(services.lucia.createSessionCookie(sessionId), req.secure).serialize());
}

export function clearSessionCookie(services: ApiServices, req: RequestInfo) {
  req.setCookie(withSecure(services.lucia.createBlankSessionCookie(), req.secure).serialize());
}

// ---- the signing-up browser ----

/** Marks the browser that signed up (or asked for a new confirmation link) with a random nonce. */
const SIGN_UP_BROWSER_COOKIE = "promptly_signup";

function readCookie(header: string | null, name: string): string | null {
  for (const part of header?.split(";") ?? []) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) return decodeURIComponent(part.slice(index + 1).trim());
  }
  return null;
}

/**
 * Gives the browser a nonce cookie for `maxAgeMs` (keeping the one it has, so its earlier links stay
 * bound to it) and returns the nonce's hash, to be stored with the confirmation link.
 */
export function bindSignUpBrowser(req: RequestInfo, maxAgeMs: number): string {
  const current = readCookie(req.cookieHeader, SIGN_UP_BROWSER_COOKIE);
  const nonce = current && /^[0-9a-f]{40}$/.test(current) ? current : encodeHexLowerCase(crypto.getRandomValues(new Uint8Array(20)));
  req.setCookie(
    new Cookie(SIGN_UP_BROWSER_COOKIE, nonce, { httpOnly: true, sameSite: "lax", path: "/", secure: req.secure, maxAge: Math.floor(maxAgeMs / 1000) }).serialize(),
  );
  return hashToken(nonce);
}

/** The hash of this browser's sign-up nonce, or null. */
export function signUpBrowserHash(req: RequestInfo): string | null {
  const nonce = readCookie(req.cookieHeader, SIGN_UP_BROWSER_COOKIE);
  return nonce ? hashToken(nonce) : null;
}
