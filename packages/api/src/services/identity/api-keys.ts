// Team-scoped API keys for the runtime API: create, list, revoke, and authenticate the key a
// request brings. Services take `db` and plain values; the procedure builders have checked who may
// manage a team's keys. The key itself is returned once by create and never stored: only its hash.
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db, DbOrTx } from "@promptly/db";
import type { AuthenticatedApiKey } from "../access/visibility.ts";
import { API_KEY_MSG, API_KEY_PREFIX, API_KEY_PUBLIC_PREFIX, API_KEY_SCOPES, LANGFUSE_MSG, RUNTIME_MSG, type ApiKeySettings } from "@promptly/shared";
import type { RateLimits } from "../platform/rate-limits.ts";
import { fail, type DomainErrorCode } from "../../errors.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";
import { Lru } from "@promptly/shared";

const DAY_MS = 24 * 60 * 60 * 1000;
/** lastUsedAt moves at most once a minute per key: a busy key costs one write a minute, not one a request. */
const LAST_USED_RESOLUTION_MS = 60_000;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_BYTES = 32;
/** 256 bits in base62 need 43 characters (62^43 > 2^256); shorter numbers are padded, so every key has one length. */
const SECRET_LENGTH = 43;
const KEY_FORMAT = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH}}$`);
/** What a list shows of a key: `promptly_` and three characters of the secret (about 18 bits, nothing to guess from). */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 3;

function base62(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString("hex")}`);
  let text = "";
  while (value > 0n) {
    text = BASE62[Number(value % 62n)] + text;
    value /= 62n;
  }
  return text.padStart(SECRET_LENGTH, "0");
}

/** A key's public half (Langfuse's `publicKey`), computed from its id: nothing to store or back-fill. */
const publicKeyOf = (apiKeyId: string) => API_KEY_PUBLIC_PREFIX + apiKeyId;

/** The stored form of a key: the SHA-256 of all of it, hex. A 256-bit random secret needs no salt or slow hash. */
const hashApiKey = (key: string) => createHash("sha256").update(key).digest("hex");

/**
 * The hashes of keys this process has found stored, by the key, so a tool's every request does not
 * hash its key again (SHA-256 and its hex were about 3% of a runtime fetch's CPU). Only keys found
 * stored are kept (made-up keys cannot fill it), at most KNOWN_KEY_HASHES. A key's hash never
 * changes, so nothing here goes stale: revocation, expiry and deletion are the kept row's, which is
 * still looked up by the hash on every request, as before.
 */
const KNOWN_KEY_HASHES = 1_000;
const knownKeyHashes = new Lru<string>(KNOWN_KEY_HASHES);

// ---- answers ----

export const createdApiKey = z.object({
  id: z.string(),
  /** The whole key: shown once, never again. */
  key: z.string(),
  /** Its public half, for the Langfuse SDKs (HTTP Basic `publicKey:secretKey`, the key being the secret). */
  publicKey: z.string(),
});

const apiKeyScopes = z.array(z.enum(API_KEY_SCOPES));

export const apiKeyItem = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, to recognise it. */
  prefix: z.string(),
  /** Its public half, for the Langfuse SDKs; not secret. */
  publicKey: z.string(),
  /** The labels it may fetch; null: any label and explicit versions. */
  labels: z.array(z.string()).nullable(),
  scopes: apiKeyScopes,
  /** Who created it; null once that account is deleted (the key stays the team's). */
  author: z.object({ id: z.string(), fullName: z.string().nullable(), email: z.string().nullable() }).nullable(),
  createdAt: z.date(),
  lastUsedAt: z.date().nullable(),
  expiresAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
  /** Past its expiry: refused, like a revoked key. */
  expired: z.boolean(),
});
type ApiKeyItem = z.infer<typeof apiKeyItem>;

export const revokedApiKey = z.object({ id: z.string(), revokedAt: z.date() });

// ---- managing keys ----

/** Creates a key for the team; the answer holds the only copy of the key. */
export async function createApiKey(
  db: Db,
  input: { teamId: string; createdById: string; settings: ApiKeySettings; now: Date },
  context: AuditContext,
): Promise<z.infer<typeof createdApiKey>> {
  const { settings, now } = input;
  const key = API_KEY_PREFIX + base62(randomBytes(SECRET_BYTES));
  return db.$transaction(async (tx) => {
  const row = await tx.apiKey.create({
    data: {
      teamId: input.teamId,
      name: settings.name,
      prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
      keyHash: hashApiKey(key),
      // Stored empty for "any label": a Prisma list cannot be null, and an empty list is refused as input.
      labels: settings.labels ?? [],
      scopes: settings.scopes ?? ["read"],
      createdById: input.createdById,
      createdAt: now,
      expiresAt: settings.expiresInDays ? new Date(now.getTime() + settings.expiresInDays * DAY_MS) : null,
    },
    select: { id: true, labels: true, scopes: true, expiresAt: true, team: { select: { organizationId: true } } },
  });
  await auditAs(tx, context, {
    organizationId: row.team.organizationId,
    teamId: input.teamId,
    action: "api_key.create",
    target: { type: "api_key", id: row.id, name: settings.name },
    after: { name: settings.name, labels: row.labels.length ? row.labels : null, scopes: row.scopes, expiresAt: row.expiresAt },
  });
  return { id: row.id, key, publicKey: publicKeyOf(row.id) };
  });
}

/** Every key of the team, revoked and expired ones too, newest first. */
export async function listApiKeys(db: DbOrTx, teamId: string, now: Date): Promise<ApiKeyItem[]> {
  const rows = await db.apiKey.findMany({
    where: { teamId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    select: {
      id: true,
      name: true,
      prefix: true,
      labels: true,
      scopes: true,
      createdAt: true,
      lastUsedAt: true,
      expiresAt: true,
      revokedAt: true,
      createdBy: { select: { id: true, email: true, profile: { select: { fullName: true } } } },
    },
  });
  return rows.map(({ createdBy, labels, ...row }) => ({
    ...row,
    publicKey: publicKeyOf(row.id),
    labels: labels.length ? labels : null,
    author: createdBy && { id: createdBy.id, fullName: createdBy.profile?.fullName ?? null, email: createdBy.email },
    expired: row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime(),
  }));
}

/** The team of a key, for the procedure builder (null: no such key). */
export async function findApiKeyTeamId(db: DbOrTx, apiKeyId: string): Promise<string | null> {
  const row = await db.apiKey.findUnique({ where: { id: apiKeyId }, select: { teamId: true } });
  return row?.teamId ?? null;
}

/**
 * Revokes a key at once and for good. Revoking a revoked key is no error and changes nothing: the
 * answer keeps the first revocation's time (two admins revoking together both succeed).
 */
export async function revokeApiKey(
  db: Db,
  input: { teamId: string; apiKeyId: string; now: Date },
  context: AuditContext,
): Promise<z.infer<typeof revokedApiKey>> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.apiKey.updateMany({ where: { id: input.apiKeyId, teamId: input.teamId, revokedAt: null }, data: { revokedAt: input.now } });
    const row = await tx.apiKey.findFirst({
      where: { id: input.apiKeyId, teamId: input.teamId },
      select: { id: true, name: true, revokedAt: true, team: { select: { organizationId: true } } },
    });
    if (!row?.revokedAt) return fail("NOT_FOUND", API_KEY_MSG.notFound);
    // Revoking it again changes nothing: nothing to record.
    if (count === 1) {
      await auditAs(tx, context, {
        organizationId: row.team.organizationId,
        teamId: input.teamId,
        action: "api_key.revoke",
        target: { type: "api_key", id: row.id, name: row.name },
        after: { revokedAt: row.revokedAt },
      });
    }
    return { id: row.id, revokedAt: row.revokedAt };
  });
}

// ---- authenticating a request ----

/** A key as a cache keeps it: the key, and what decides on each use whether it is still valid. */
export interface CachedApiKey extends AuthenticatedApiKey {
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** What authentication asks of the process's cache of keys (the runtime cache is one). */
export interface ApiKeyCache {
  mark(): number;
  apiKey(keyHash: string): CachedApiKey | undefined;
  keepApiKey(keyHash: string, value: CachedApiKey, mark: number): void;
  mayBeApiKey(prefix: string): boolean | null;
}

/** Why a key is refused; `message` is what its holder is told. */
type ApiKeyRefusal = { reason: "malformed" | "unknown" | "revoked" | "expired"; message: string };

type ApiKeyAuthentication = { ok: true; apiKey: AuthenticatedApiKey } | ({ ok: false } & ApiKeyRefusal);

const refused = (reason: ApiKeyRefusal["reason"], message: string): ApiKeyAuthentication => ({ ok: false, reason, message });

/**
 * The key a request brings, checked: its team, labels and scopes, or why it is refused. A malformed
 * key costs no query; with `cache` (the process's runtime cache) a known key costs none either: its
 * expiry is checked on every use from the kept expiresAt, and a revocation drops it (a notification).
 * A valid key's lastUsedAt is written only when a minute old, by a conditional update, so concurrent
 * requests (and app processes) write it once.
 */
export async function authenticateApiKey(
  db: DbOrTx,
  rawKey: string,
  now: Date,
  cache?: ApiKeyCache,
  options: { mayLookUp?: (prefix: string) => Promise<boolean> } = {},
): Promise<ApiKeyAuthentication> {
  if (!KEY_FORMAT.test(rawKey)) return refused("malformed", API_KEY_MSG.invalidKey);
  const known = knownKeyHashes.get(rawKey);
  const keyHash = known ?? hashApiKey(rawKey);
  let row: CachedApiKey | null | undefined = cache?.apiKey(keyHash);
  // Asked only for a key the cache does not know: a known key costs nothing more.
  if (!row && options.mayLookUp && !(await options.mayLookUp(rawKey.slice(0, DISPLAY_PREFIX_LENGTH)))) return refused("unknown", API_KEY_MSG.invalidKey);
  if (!row) {
    const mark = cache?.mark();
    const stored = await db.apiKey.findUnique({
      where: { keyHash },
      select: { id: true, teamId: true, labels: true, scopes: true, lastUsedAt: true, expiresAt: true, revokedAt: true },
    });
    // Stored empty for "any label" (a Prisma list cannot be null): null from here on.
    row = stored && { ...stored, labels: stored.labels.length ? stored.labels : null };
    if (row && cache) cache.keepApiKey(keyHash, row, mark!);
  }
  if (!row) return refused("unknown", API_KEY_MSG.invalidKey);
  if (known === undefined) knownKeyHashes.set(rawKey, keyHash);
  const refusal = storedKeyRefusal(row, now);
  if (refusal) return refusal;

  if (lastUseDue(row, now)) {
    const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    // The kept row moves first: concurrent hits of this process do not write it again.
    row.lastUsedAt = now;
    await db.apiKey.updateMany({
      where: { id: row.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: staleBefore } }] },
      data: { lastUsedAt: now },
    });
  }
  return { ok: true, apiKey: authenticatedKey(row) };
}

/** Why a stored key is refused at `now` (revoked, or expired); null when it is valid. */
function storedKeyRefusal(row: CachedApiKey, now: Date): ApiKeyAuthentication | null {
  if (row.revokedAt) return refused("revoked", API_KEY_MSG.revokedKey);
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return refused("expired", API_KEY_MSG.expiredKey);
  return null;
}

/** Whether a key's lastUsedAt is to be written (a minute old, or never written). */
const lastUseDue = (row: CachedApiKey, now: Date) => !row.lastUsedAt || row.lastUsedAt.getTime() <= now.getTime() - LAST_USED_RESOLUTION_MS;

const authenticatedKey = (row: CachedApiKey): AuthenticatedApiKey => ({ id: row.id, teamId: row.teamId, labels: row.labels, scopes: row.scopes });

/** The key of an `Authorization: Bearer <key>` header value, or null when the header is not of that form. */
export function bearerKey(header: string): string | null {
  return /^Bearer +(\S+) *$/i.exec(header)?.[1] ?? null;
}

/**
 * A key `cache` holds, valid at `now` and with nothing to write (its lastUsedAt is recent), as
 * authenticateApiKey would answer it, without a query or a write; null whenever authenticateApiKey
 * has more to do or would refuse it (the runtime fetch from memory then takes the full path).
 */
export function knownApiKey(cache: ApiKeyCache, rawKey: string, now: Date): AuthenticatedApiKey | null {
  if (!KEY_FORMAT.test(rawKey)) return null;
  const known = knownKeyHashes.get(rawKey);
  const keyHash = known ?? hashApiKey(rawKey);
  const row = cache.apiKey(keyHash);
  if (row && known === undefined) knownKeyHashes.set(rawKey, keyHash);
  if (!row || storedKeyRefusal(row, now) || lastUseDue(row, now)) return null;
  return authenticatedKey(row);
}

/** Why a request's Authorization header is refused: the domain code (the error table says its status) and what its holder is told. */
export interface BearerRefusal {
  code: Extract<DomainErrorCode, "UNAUTHENTICATED" | "RATE_LIMITED">;
  message: string;
  /** With RATE_LIMITED: when the key may call again. */
  retryAfterSeconds?: number;
}

const RATE_WINDOW_MS = 60_000;
/**
 * Malformed or unknown keys an address may send a minute: enough for a tool with a mistyped key to
 * see its 401s. Past it, for the rest of the minute, the address gets 429 for them. Others' bad keys
 * never refuse a valid key, so a well-formed key is still looked up unless this process knows that
 * no stored key begins like it (RuntimeCache.mayBeApiKey): random guesses cost no query, and
 * guessing the rest of a known key's secret (over 230 bits) stays hopeless however it is counted.
 */
const GUESSES_PER_ADDRESS = { limit: 30, windowMs: RATE_WINDOW_MS };
/** The rule of a key's own requests a minute (API_RATE_LIMIT_PER_MINUTE). */
const KEY_RULE = "api-key";
const keyRule = (ratePerMinute: number) => ({ limit: ratePerMinute, windowMs: RATE_WINDOW_MS });

/**
 * authenticateBearer's count of a valid key's request, when it can be made at once (RateLimits.hitNow):
 * true when counted and allowed (or limits are off), false when nothing was counted and only
 * authenticateBearer can answer.
 */
export function countKeyNow(rateLimits: RateLimits, ratePerMinute: number | null, keyId: string): boolean {
  return ratePerMinute === null || rateLimits.hitNow(KEY_RULE, keyRule(ratePerMinute), keyId);
}
const GUESS_RULE = "api-key-guess";

/** Limits of a bearer check: the key's requests a minute and the caller's address (null: limits off). */
export interface BearerLimits {
  ratePerMinute: number | null;
  ip: string;
  /** The calls the request carries (a batch's), each counted as a request; one if absent. */
  calls?: number;
}

/**
 * The key of an `Authorization: Bearer <key>` header, checked, then counted against its limit of
 * requests a minute. The runtime API (/api/v1) and the tRPC API (/trpc) both ask here, so a key is
 * refused the same way, and counts against one limit, wherever it is used. With limits on, an address
 * that keeps sending unknown keys is answered 429 for the rest of the minute (GUESSES_PER_ADDRESS).
 */
export async function authenticateBearer(
  services: { db: DbOrTx; now: () => Date; runtime?: ApiKeyCache; rateLimits: RateLimits },
  header: string | null | undefined,
  limits: BearerLimits,
): Promise<{ ok: true; apiKey: AuthenticatedApiKey } | ({ ok: false } & BearerRefusal)> {
  if (!header) return { ok: false, code: "UNAUTHENTICATED", message: RUNTIME_MSG.missingKey };
  const rawKey = bearerKey(header);
  if (rawKey === null) return { ok: false, code: "UNAUTHENTICATED", message: RUNTIME_MSG.malformedHeader };
  const limited = limits.ratePerMinute !== null;
  // Guesses (malformed or unknown keys) count against the address; a revoked or expired key is a real
  // one, refused without counting. Past the limit, a well-formed key is looked up unless no stored key
  // begins like it: a valid key is never refused for others' guesses.
  const result = await authenticateApiKey(services.db, rawKey, services.now(), services.runtime, {
    mayLookUp: limited
      ? async (prefix) => services.runtime?.mayBeApiKey(prefix) !== false || !(await services.rateLimits.isLimited(GUESS_RULE, GUESSES_PER_ADDRESS, limits.ip))
      : undefined,
  });
  if (!result.ok) {
    const guess = result.reason === "malformed" || result.reason === "unknown";
    // Past the limit the hit is refused too (fixed window: counting on changes nothing), with its Retry-After.
    const counted = guess && limited ? await services.rateLimits.hit(GUESS_RULE, GUESSES_PER_ADDRESS, limits.ip) : null;
    if (counted && !counted.allowed) {
      return { ok: false, code: "RATE_LIMITED", message: RUNTIME_MSG.tooManyFailedKeys, retryAfterSeconds: retryAfterSeconds(counted.retryAfterMs) };
    }
    const message = result.reason === "malformed" ? RUNTIME_MSG.malformedKey : result.reason === "unknown" ? RUNTIME_MSG.unknownKey : result.message;
    return { ok: false, code: "UNAUTHENTICATED", message };
  }
  const counted = await countKeyCalls(services.rateLimits, limits.ratePerMinute, result.apiKey.id, limits.calls ?? 1);
  return counted.ok ? result : counted;
}

/**
 * Counts `calls` requests of a known key against its limit, all or none: a batch of calls costs what
 * they would cost one by one. Refused past the limit with authenticateBearer's 429. A door that learns
 * a batch's size after authenticateBearer counted its request (MCP) counts the other calls here.
 */
export async function countKeyCalls(
  rateLimits: RateLimits, ratePerMinute: number | null, keyId: string, calls: number,
): Promise<{ ok: true } | ({ ok: false } & BearerRefusal)> {
  if (ratePerMinute === null || calls <= 0) return { ok: true };
  // Counted in process, reconciled with the shared store in batches: a known key costs no round trip.
  const counted = await rateLimits.hitReconciled(KEY_RULE, keyRule(ratePerMinute), keyId, calls);
  if (counted.allowed) return { ok: true };
  return { ok: false, code: "RATE_LIMITED", message: RUNTIME_MSG.rateLimited, retryAfterSeconds: retryAfterSeconds(counted.retryAfterMs) };
}

/**
 * The key of a Langfuse SDK's request: HTTP Basic `publicKey:secretKey`, the secret being the key and
 * the public key its public half (publicKeyOf), or `Bearer <key>` as /api/v1 takes it. The secret is
 * checked and counted exactly as authenticateBearer does (the one limit of the key); a public key
 * that is not the key's own is refused too, so a pair that does not match is a 401.
 */
export async function authenticateKeyPair(
  services: Parameters<typeof authenticateBearer>[0],
  header: string | null | undefined,
  limits: BearerLimits,
): ReturnType<typeof authenticateBearer> {
  if (!header) return { ok: false, code: "UNAUTHENTICATED", message: LANGFUSE_MSG.missingAuth };
  if (/^Bearer /i.test(header)) return authenticateBearer(services, header, limits);
  const basic = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header);
  const pair = basic ? Buffer.from(basic[1]!, "base64").toString("utf8") : "";
  const colon = pair.indexOf(":");
  if (colon < 0) return { ok: false, code: "UNAUTHENTICATED", message: LANGFUSE_MSG.malformedAuth };
  const publicKey = pair.slice(0, colon);
  const secret = pair.slice(colon + 1);
  if (!/^\S+$/.test(secret)) return { ok: false, code: "UNAUTHENTICATED", message: RUNTIME_MSG.malformedKey };
  const result = await authenticateBearer(services, `Bearer ${secret}`, limits);
  if (result.ok && publicKey !== publicKeyOf(result.apiKey.id)) return { ok: false, code: "UNAUTHENTICATED", message: LANGFUSE_MSG.keyPairMismatch };
  return result;
}

/** A 429's Retry-After: whole seconds until the window ends, at least one. */
const retryAfterSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
