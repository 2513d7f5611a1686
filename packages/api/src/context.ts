import type { Db } from "@promptly/db";
import type { Lucia, Session, User } from "lucia";
import type { Mailer } from "./services/mailer.ts";
import type { Storage } from "./services/storage.ts";
import type { RateLimiter } from "./services/rate-limiter.ts";
import { resolveRequestSession } from "./auth/session.ts";

export interface ApiConfig {
  /** Public origin of the app, e.g. http://localhost:3000: links in emails point here. */
  appUrl: string;
  /** 32+ byte secret; encrypts two-factor secrets at rest. */
  secret: string;
  /** Off in tests that exercise other rules many times in a row. */
  rateLimits: boolean;
  production: boolean;
}

/** Process-wide services, created once at start-up. */
export interface ApiServices {
  db: Db;
  mailer: Mailer;
  storage: Storage;
  lucia: Lucia;
  rateLimiter: RateLimiter;
  config: ApiConfig;
  /** The clock; tests replace it to move time. */
  now: () => Date;
}

/** What the host (Express, a test) tells the API about one HTTP request. */
export interface RequestInfo {
  ip: string;
  userAgent: string | null;
  cookieHeader: string | null;
  /** True when the request reached us over https (directly or via a trusted proxy). */
  secure: boolean;
  /** Adds a Set-Cookie header to the response. */
  setCookie(serialized: string): void;
}

export interface Context extends ApiServices {
  req: RequestInfo;
  session: Session | null;
  user: User | null;
}

export async function createContext(services: ApiServices, req: RequestInfo): Promise<Context> {
  const { session, user } = await resolveRequestSession(services, req);
  return { ...services, req, session, user };
}
