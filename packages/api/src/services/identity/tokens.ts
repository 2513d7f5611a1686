// Emailed single-use tokens (email verification, magic link, password reset). The token itself only
// travels in the email; the database keeps its SHA-256 hash, bound to one user and one purpose.
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { inTransaction, type DbOrTx, type TokenPurpose } from "@promptly/db";
import { hashToken } from "../../auth/lucia.ts";

/** Namespace of the per-user advisory lock taken while a token is issued. */
const TOKEN_ISSUE_LOCK = 7_253_002;

/** 160 random bits: far beyond guessing, short enough for a link. */
const TOKEN_BYTES = 20;

function generateToken(): string {
  const bytes = new Uint8Array(TOKEN_BYTES);
  crypto.getRandomValues(bytes);
  return encodeBase64urlNoPadding(bytes);
}

export interface IssueTokenOptions {
  userId: string;
  purpose: TokenPurpose;
  ttlMs: number;
  now: Date;
  /** Where a magic-link sign-in continues (a same-origin path, already checked). */
  redirectTo?: string | null;
  /** Email verification: the hash of the requesting browser's nonce (see bindSignUpBrowser). */
  browserHash?: string | null;
}

/** Issues a new token and revokes the user's older unused ones of the same purpose. Returns the raw token. */
export async function issueToken(db: DbOrTx, options: IssueTokenOptions): Promise<string> {
  const token = generateToken();
  // Revoke and issue together: concurrent requests must not leave two live tokens, nor a failure none.
  await inTransaction(db, async (tx) => {
    // One issuer per user at a time: otherwise two overlapping requests each delete what they see
    // (not yet the other's new token) and both links stay live. An advisory lock, not the users row:
    // consuming a token updates the users row after the token, and the opposite order could deadlock.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${TOKEN_ISSUE_LOCK}::int, hashtext(${options.userId}))`;
    await tx.oneTimeToken.deleteMany({ where: { userId: options.userId, purpose: options.purpose, usedAt: null } });
    await tx.oneTimeToken.create({
      data: {
        userId: options.userId,
        purpose: options.purpose,
        tokenHash: hashToken(token),
        expiresAt: new Date(options.now.getTime() + options.ttlMs),
        redirectTo: options.redirectTo ?? null,
        browserHash: options.browserHash ?? null,
      },
    });
  });
  return token;
}

export interface ConsumedToken {
  userId: string;
  redirectTo: string | null;
}

/**
 * Marks the token used and returns its owner, or null when it is unknown, of another purpose,
 * expired or already used. One conditional UPDATE: of two concurrent requests only one wins.
 */
export async function consumeToken(db: DbOrTx, purpose: TokenPurpose, token: string, now: Date): Promise<ConsumedToken | null> {
  const [row] = await db.oneTimeToken.updateManyAndReturn({
    where: { tokenHash: hashToken(token), purpose, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
    select: { userId: true, redirectTo: true },
  });
  return row ?? null;
}

/** The token if it could be consumed now (read only: consumeToken still decides, atomically). */
export async function findLiveToken(db: DbOrTx, purpose: TokenPurpose, token: string, now: Date) {
  return db.oneTimeToken.findFirst({
    where: { tokenHash: hashToken(token), purpose, usedAt: null, expiresAt: { gt: now } },
    select: { userId: true, browserHash: true },
  });
}

/**
 * Revokes every live emailed link of the user: after a change of credentials (password change, reset,
 * two-factor enabled) no link issued before it may sign anyone in or set a password.
 */
export async function revokeEmailedLinks(db: DbOrTx, userId: string) {
  // Links still waiting in the outbox are issued when sent: cancel those first (waiting for a worker
  // that is issuing one right now), then revoke every token, that one included.
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
  if (user) {
    await db.outboxMessage.updateMany({
      where: { recipient: user.email, status: "pending", kind: { in: ["email_verification", "magic_link", "password_reset"] } },
      data: { status: "skipped", lastError: "Cancelled: the account's credentials changed after the link was asked for", lockedUntil: null },
    });
  }
  await revokeTokens(db, userId, ["email_verification", "magic_link", "password_reset"]);
}

/** Revokes every unused token of the given purposes. */
async function revokeTokens(db: DbOrTx, userId: string, purposes: TokenPurpose[]) {
  await db.oneTimeToken.deleteMany({ where: { userId, purpose: { in: purposes }, usedAt: null } });
}
