// The cookies of the API: the session cookie and the signing-up browser's nonce. Procedures (and the
// context, for a dead session) set them; services never see a request or a cookie.
import { Cookie, type Lucia } from "lucia";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { clientOf, type RequestInfo } from "../request.ts";
import { hashToken } from "./lucia.ts";

type WithLucia = { lucia: Lucia };

function withSecure(cookie: Cookie, secure: boolean) {
  return new Cookie(cookie.name, cookie.value, { ...cookie.attributes, secure, httpOnly: true, sameSite: "lax", path: "/" });
}

/** The session id the request's cookie carries, or null. */
export function sessionIdFromCookie(services: WithLucia, req: RequestInfo): string | null {
  return req.cookieHeader ? services.lucia.readSessionCookie(req.cookieHeader) : null;
}

export function setSessionCookie(services: WithLucia, req: RequestInfo, sessionId: string) {
  req.setCookie(withSecure(services.lucia.createSessionCookie(sessionId), req.secure).serialize());
}

export function clearSessionCookie(services: WithLucia, req: RequestInfo) {
  req.setCookie(withSecure(services.lucia.createBlankSessionCookie(), req.secure).serialize());
}

/** A signing-in client: its address and device, and the session its browser had (ended by the sign-in). */
export const signInClientOf = (services: WithLucia, req: RequestInfo) => ({ ...clientOf(req), previousSessionId: sessionIdFromCookie(services, req) });

/** T without its session id, case by case for a union (signed in, or waiting for the second factor). */
type WithoutSessionId<T> = T extends unknown ? Omit<T, "sessionId"> : never;

/** Sets the cookie of the session a sign-in started, and answers without its id. */
export function withSessionCookie<T extends { sessionId: string }>(services: WithLucia, req: RequestInfo, result: T): WithoutSessionId<T> {
  const { sessionId, ...answer } = result;
  setSessionCookie(services, req, sessionId);
  return answer as WithoutSessionId<T>;
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
