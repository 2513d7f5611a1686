// Lucia sessions over Prisma. Lucia v3 hands the adapter the raw session id; this adapter stores
// only its SHA-256 hash, so a leaked sessions table cannot be replayed as cookies.
import { createHash } from "node:crypto";
import { Lucia, TimeSpan, type Adapter, type DatabaseSession, type DatabaseUser } from "lucia";
import { hotRead, type Db } from "@promptly/db";
import { SESSION_MAX_AGE_DAYS } from "@promptly/shared";

export const SESSION_COOKIE_NAME = "promptly_session";

/** The hex SHA-256 of a session token's UTF-8 bytes: the key its session is stored and cached under. */
export const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

interface SessionAttributes {
  twoFactorVerified: boolean;
  lastActiveAt: Date;
  signInMethod: "password" | "magic_link";
}
interface UserAttributes {
  email: string;
  sessionTimeoutMinutes: number;
  emailVerifiedAt: Date | null;
  lastSignInAt: Date | null;
  createdAt: Date;
  /** Loaded with the session (one query per request), so auth.me needs no query of its own. */
  profile: { fullName: string | null; username: string | null; avatarKey: string | null; superUser: boolean } | null;
  appRole: { role: "administrator" | "team_lead" | "user" } | null;
}

interface SessionRowSql {
  user_id: string;
  expires_at: Date;
  two_factor_verified: boolean;
  last_active_at: Date;
  sign_in_method: "password" | "magic_link";
  email: string;
  session_timeout_minutes: number;
  email_verified_at: Date | null;
  last_sign_in_at: Date | null;
  created_at: Date;
  has_profile: boolean;
  full_name: string | null;
  username: string | null;
  avatar_key: string | null;
  super_user: boolean | null;
  app_role: "administrator" | "team_lead" | "user" | null;
}

const SESSION_ROW_SQL = `
  SELECT s.user_id::text, s.expires_at, s.two_factor_verified, s.last_active_at, s.sign_in_method::text,
         u.email, u.session_timeout_minutes, u.email_verified_at, u.last_sign_in_at, u.created_at,
         (p.user_id IS NOT NULL) AS has_profile, p.full_name, p.username, p.avatar_key, p.super_user,
         r.role::text AS app_role
    FROM sessions s
    JOIN users u ON u.id = s.user_id
    LEFT JOIN profiles p ON p.user_id = s.user_id
    LEFT JOIN user_roles r ON r.user_id = s.user_id
   WHERE s.id = $1`;

/** A session and its user's fields as one request needs them (and as the session cache keeps them). */
export interface SessionRow {
  userId: string;
  expiresAt: Date;
  twoFactorVerified: boolean;
  lastActiveAt: Date;
  signInMethod: "password" | "magic_link";
  user: UserAttributes;
}

/**
 * The request's session and the user fields every request needs, by the id's hash. Read whenever the
 * session cache cannot answer, so it is one SQL statement (Prisma's nested select costs several times more).
 */
export async function findSessionRowByHash(db: Db, id: string): Promise<SessionRow | null> {
  const rows = (await hotRead<SessionRowSql>(db, { name: "promptly_session_row", text: SESSION_ROW_SQL, values: [id] }))
    ?? (await db.$queryRawUnsafe<SessionRowSql[]>(SESSION_ROW_SQL, id));
  const row = rows[0];
  if (!row) return null;
  return {
    userId: row.user_id,
    expiresAt: row.expires_at,
    twoFactorVerified: row.two_factor_verified,
    lastActiveAt: row.last_active_at,
    signInMethod: row.sign_in_method,
    user: {
      email: row.email,
      sessionTimeoutMinutes: row.session_timeout_minutes,
      emailVerifiedAt: row.email_verified_at,
      lastSignInAt: row.last_sign_in_at,
      createdAt: row.created_at,
      profile: row.has_profile
        ? { fullName: row.full_name, username: row.username, avatarKey: row.avatar_key, superUser: row.super_user ?? false }
        : null,
      appRole: row.app_role ? { role: row.app_role } : null,
    },
  };
}

class PrismaSessionAdapter implements Adapter {
  constructor(private readonly db: Db) {}

  async getSessionAndUser(sessionId: string): Promise<[DatabaseSession | null, DatabaseUser | null]> {
    const row = await findSessionRowByHash(this.db, hashToken(sessionId));
    if (!row) return [null, null];
    return [
      {
        id: sessionId,
        userId: row.userId,
        expiresAt: row.expiresAt,
        attributes: { twoFactorVerified: row.twoFactorVerified, lastActiveAt: row.lastActiveAt, signInMethod: row.signInMethod },
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
      attributes: { twoFactorVerified: row.twoFactorVerified, lastActiveAt: row.lastActiveAt, signInMethod: row.signInMethod },
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
        signInMethod: attributes.signInMethod ?? "password",
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
