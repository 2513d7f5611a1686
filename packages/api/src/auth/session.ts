// Sessions: the request's session (absolute and idle limits enforced), and starting a new one.
import type { Session } from "lucia";
import type { ApiServices } from "../services/types.ts";
import type { RequestInfo } from "../request.ts";
import type { Principal } from "../principal.ts";
import { findSessionRowByHash, hashToken, type SessionRow } from "./lucia.ts";
import { clearSessionCookie, sessionIdFromCookie } from "./cookies.ts";

/** lastActiveAt is written at most this often, so reads stay cheap. */
const ACTIVITY_WRITE_INTERVAL_MS = 60_000;

/**
 * The principal of a request. From this process's session cache when it holds the session and its
 * activity was written less than a minute ago, else one indexed query. Lucia's validateSession is not
 * used here: it checks expiry against the process clock and slides the expiry in memory, while
 * sessions here have an absolute end and the idle limit of the user's settings, both measured on
 * `services.now()`. A cookie that names no live session is cleared (the host's job, done here for
 * every procedure).
 */
export async function resolveRequestSession(services: ApiServices, req: RequestInfo): Promise<Principal | null> {
  const sessionId = sessionIdFromCookie(services, req);
  if (!sessionId) return null;
  const idHash = hashToken(sessionId);
  const now = services.now().getTime();
  const cached = services.sessions.get(idHash);
  // A cached lastActiveAt is never later than the stored one (other processes may have written since):
  // within the write interval (and the idle limit) the session is not idle and no write is due, so
  // memory decides alone; past it, the stored row decides, as without a cache.
  if (
    cached && cached.expiresAt.getTime() > now &&
    now - cached.lastActiveAt.getTime() <= Math.min(ACTIVITY_WRITE_INTERVAL_MS, cached.user.sessionTimeoutMinutes * 60_000)
  ) {
    return principalOf(sessionId, cached, cached.lastActiveAt);
  }
  const mark = services.sessions.mark();
  const row = await findSessionRowByHash(services.db, idHash);
  if (!row) {
    services.sessions.drop(idHash);
    clearSessionCookie(services, req);
    return null;
  }
  const idleLimitMs = row.user.sessionTimeoutMinutes * 60_000;
  if (row.expiresAt.getTime() <= now || now - row.lastActiveAt.getTime() > idleLimitMs) {
    services.sessions.drop(idHash);
    await services.db.session.deleteMany({ where: { id: idHash } });
    clearSessionCookie(services, req);
    return null;
  }
  let lastActiveAt = row.lastActiveAt;
  if (now - lastActiveAt.getTime() > ACTIVITY_WRITE_INTERVAL_MS) {
    lastActiveAt = new Date(now);
    await services.db.session.updateMany({ where: { id: idHash }, data: { lastActiveAt } });
  }
  // Not a user without a stored app role: the first request creates it (auth.me's roleCreated), and the
  // next must see it whether or not the notification has come back yet.
  if (row.user.appRole) services.sessions.keep(idHash, { ...row, lastActiveAt }, mark);
  return principalOf(sessionId, row, lastActiveAt);
}

function principalOf(sessionId: string, row: SessionRow, lastActiveAt: Date): Principal {
  const session: Session = {
    id: sessionId,
    userId: row.userId,
    expiresAt: row.expiresAt,
    fresh: false,
    twoFactorVerified: row.twoFactorVerified,
    lastActiveAt,
    signInMethod: row.signInMethod,
  };
  return { kind: "user", session, user: { id: row.userId, ...row.user } };
}

/** Starts a session for `userId`; the session the browser already had ends (no fixation). The caller sets the cookie. */
export async function startSession(
  services: Pick<ApiServices, "lucia" | "now">,
  input: {
    userId: string;
    previousSessionId: string | null;
    userAgent: string | null;
    twoFactorVerified: boolean;
    signInMethod: "password" | "magic_link";
  },
): Promise<Session> {
  if (input.previousSessionId) await services.lucia.invalidateSession(input.previousSessionId);
  return services.lucia.createSession(input.userId, {
    twoFactorVerified: input.twoFactorVerified,
    signInMethod: input.signInMethod,
    lastActiveAt: services.now(),
    userAgent: input.userAgent?.slice(0, 512) ?? null,
  });
}
