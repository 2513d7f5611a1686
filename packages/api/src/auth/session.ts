// Reads the session cookie of a request and enforces the absolute and idle limits.
import { Cookie } from "lucia";
import type { Session, User } from "lucia";
import type { ApiServices, RequestInfo } from "../context.ts";
import { hashToken } from "./lucia.ts";

/** lastActiveAt is written at most this often, so reads stay cheap. */
const ACTIVITY_WRITE_INTERVAL_MS = 60_000;

export async function resolveRequestSession(
  services: ApiServices,
  req: RequestInfo,
): Promise<{ session: Session | null; user: User | null }> {
  const sessionId = req.cookieHeader ? services.lucia.readSessionCookie(req.cookieHeader) : null;
  if (!sessionId) return { session: null, user: null };
  const { session, user } = await services.lucia.validateSession(sessionId);
  if (!session || !user) {
    clearSessionCookie(services, req);
    return { session: null, user: null };
  }
  const now = services.now();
  const idleLimitMs = user.sessionTimeoutMinutes * 60_000;
  if (session.expiresAt.getTime() <= now.getTime() || now.getTime() - session.lastActiveAt.getTime() > idleLimitMs) {
    await services.lucia.invalidateSession(sessionId);
    clearSessionCookie(services, req);
    return { session: null, user: null };
  }
  if (now.getTime() - session.lastActiveAt.getTime() > ACTIVITY_WRITE_INTERVAL_MS) {
    await services.db.session.updateMany({ where: { id: hashToken(sessionId) }, data: { lastActiveAt: now } });
  }
  return { session, user };
}

function withSecure(cookie: Cookie, secure: boolean) {
  return new Cookie(cookie.name, cookie.value, { ...cookie.attributes, secure, httpOnly: true });
}

export function setSessionCookie(services: ApiServices, req: RequestInfo, sessionId: string) {
  req.setCookie(withSecure(services.lucia.createSessionCookie(sessionId), req.secure).serialize());
}

export function clearSessionCookie(services: ApiServices, req: RequestInfo) {
  req.setCookie(withSecure(services.lucia.createBlankSessionCookie(), req.secure).serialize());
}
