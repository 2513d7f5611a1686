// Lucia sessions over Prisma. Lucia v3 hands the adapter the raw session id; this adapter stores
// only its SHA-256 hash, so a leaked sessions table cannot be replayed as cookies.
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { Lucia, TimeSpan, type Adapter, type DatabaseSession, type DatabaseUser } from "lucia";
import type { Db } from "@promptly/db";
import { SESSION_MAX_AGE_DAYS } from "@promptly/shared";

export const SESSION_COOKIE_NAME = "promptly_session";

export const hashToken = (token: string) => encodeHexLowerCase(sha256(new TextEncoder().encode(token)));

export interface SessionAttributes {
  twoFactorVerified: boolean;
  lastActiveAt: Date;
}
export interface UserAttributes {
  email: string;
  sessionTimeoutMinutes: number;
  emailVerifiedAt: Date | null;
  lastSignInAt: Date | null;
  createdAt: Date;
  /** Loaded with the session (one query per request), so auth.me needs no query of its own. */
  profile: { fullName: string | null; username: string | null; avatarKey: string | null; superUser: boolean } | null;
  appRole: { role: "administrator" | "team_lead" | "user" | "super_user" } | null;
}

/** One query for a request's session and the user fields every request needs (by the id's hash). */
export function findSessionRow(db: Db, sessionId: string) {
  return db.session.findUnique({
    where: { id: hashToken(sessionId) },
    select: {
      userId: true,
      expiresAt: true,
      twoFactorVerified: true,
      lastActiveAt: true,
      user: {
        select: {
          email: true,
          sessionTimeoutMinutes: true,
          emailVerifiedAt: true,
          lastSignInAt: true,
          createdAt: true,
          profile: { select: { fullName: true, username: true, avatarKey: true, superUser: true } },
          appRole: { select: { role: true } },
        },
      },
    },
  });
}

export class PrismaSessionAdapter implements Adapter {
  constructor(private readonly db: Db) {}

  async getSessionAndUser(sessionId: string): Promise<[DatabaseSession | null, DatabaseUser | null]> {
    const row = await findSessionRow(this.db, sessionId);
    if (!row) return [null, null];
    return [
      {
        id: sessionId,
        userId: row.userId,
        expiresAt: row.expiresAt,
        attributes: { twoFactorVerified: row.twoFactorVerified, lastActiveAt: row.lastActiveAt },
      },
      { id: row.userId, attributes: row.user },
    ];
  }

  async getUserSessions(userId: string): Promise<DatabaseSession[]> {
    const rows = await this.db.session.findMany({ where: { userId } });
    // The raw ids are not known (only hashes are stored); callers use these for counting and expiry only.
    return rows.map((row) => ({
      id: row.id,
      userId: row.userId,
      expiresAt: row.expiresAt,
      attributes: { twoFactorVerified: row.twoFactorVerified, lastActiveAt: row.lastActiveAt },
    }));
  }

  async setSession(session: DatabaseSession): Promise<void> {
    const attributes = session.attributes as Partial<SessionAttributes> & { userAgent?: string | null };
    await this.db.session.create({
      data: {
        id: hashToken(session.id),
        userId: session.userId,
        expiresAt: session.expiresAt,
        twoFactorVerified: attributes.twoFactorVerified ?? true,
        // The caller's clock (tests move it), not the database's.
        ...(attributes.lastActiveAt ? { lastActiveAt: attributes.lastActiveAt } : {}),
        userAgent: attributes.userAgent ?? null,
      },
    });
  }

  /** Sessions have an absolute lifetime: Lucia's sliding extension is deliberately ignored. */
  async updateSessionExpiration(): Promise<void> {}

  async deleteSession(sessionId: string): Promise<void> {
    await this.db.session.deleteMany({ where: { id: hashToken(sessionId) } });
  }

  async deleteUserSessions(userId: string): Promise<void> {
    await this.db.session.deleteMany({ where: { userId } });
  }

  async deleteExpiredSessions(): Promise<void> {
    await this.db.session.deleteMany({ where: { expiresAt: { lte: new Date() } } });
  }
}

export function createLucia(db: Db) {
  return new Lucia(new PrismaSessionAdapter(db), {
    sessionExpiresIn: new TimeSpan(SESSION_MAX_AGE_DAYS, "d"),
    sessionCookie: { name: SESSION_COOKIE_NAME, attributes: { sameSite: "lax" } },
    getSessionAttributes: (attributes) => attributes,
    getUserAttributes: (attributes) => attributes,
  });
}

declare module "lucia" {
  interface Register {
    Lucia: ReturnType<typeof createLucia>;
    DatabaseSessionAttributes: SessionAttributes & { userAgent?: string | null };
    DatabaseUserAttributes: UserAttributes;
  }
}
