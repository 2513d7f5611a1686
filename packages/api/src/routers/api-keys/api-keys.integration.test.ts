// Team-scoped API keys: who may create, list and revoke them; that a key is shown once and
// stored only as its hash; what create refuses; and how a request's key is authenticated.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { API_KEY_MSG, MSG, PROMPT_MSG } from "@promptly/shared";
import { CONTROL_CHARACTERS, createHarness, type Harness } from "../../../testing/harness.ts";
import { authenticateApiKey } from "../../services/identity/api-keys.ts";
import { CALLER_KINDS, EXPECTED_AT_LEVEL, advanceClock, createSignedInAccount, createWorld, failure, outcome } from "../../../testing/teams-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createWorld(h);
});
afterAll(() => h.close());

const DAY_MS = 24 * 60 * 60 * 1000;
const KEY_FORMAT = /^promptly_[0-9A-Za-z]{43}$/;
const adminLevel = EXPECTED_AT_LEVEL.admin;

const db = () => h.database.db;
const keyRow = (id: string) => db().apiKey.findUniqueOrThrow({ where: { id } });
const keyCount = (teamId: string) => db().apiKey.count({ where: { teamId } });
const authenticate = (key: string) => authenticateApiKey(db(), key, h.clock.now());

async function teamWithKey(settings: { labels?: string[] | null; scopes?: ("read" | "write")[]; expiresInDays?: number } = {}) {
  const team = await world.team();
  const created = await world.callers.admin.apiKeys.create({ teamId: team.id, name: "Deploy bot", ...settings });
  return { team, ...created };
}

describe("apiKeys procedures × caller kinds (team admin level)", () => {
  it.each(CALLER_KINDS)("apiKeys.create as %s", async (kind) => {
    const team = await world.team();
    const result = await outcome(world.callers[kind].apiKeys.create({ teamId: team.id, name: "Matrix" }));
    expect(result).toBe(adminLevel[kind]);
    expect(await keyCount(team.id)).toBe(result === "OK" ? 1 : 0);
  });

  it.each(CALLER_KINDS)("apiKeys.list as %s", async (kind) => {
    const { team } = await teamWithKey();
    expect(await outcome(world.callers[kind].apiKeys.list({ teamId: team.id }))).toBe(adminLevel[kind]);
  });

  it.each(CALLER_KINDS)("apiKeys.revoke as %s", async (kind) => {
    const { id } = await teamWithKey();
    const result = await outcome(world.callers[kind].apiKeys.revoke({ id }));
    expect(result).toBe(adminLevel[kind]);
    expect((await keyRow(id)).revokedAt).toEqual(result === "OK" ? expect.any(Date) : null);
  });

  it("answers NOT_FOUND for an unknown key id and BAD_REQUEST for a malformed one", async () => {
    expect(await failure(world.callers.superUser.apiKeys.revoke({ id: "00000000-0000-4000-8000-000000000000" }))).toEqual({
      code: "NOT_FOUND",
      message: MSG.notFound,
    });
    expect(await outcome(world.callers.admin.apiKeys.revoke({ id: "nope" }))).toBe("BAD_REQUEST");
  });

  it("an admin of one team cannot touch another team's keys, even in the same organization", async () => {
    const { team, id } = await teamWithKey();
    const otherAdmin = await createSignedInAccount(h, { fullName: "Theo Otherteam" });
    await db().organizationMember.create({ data: { organizationId: world.organization.id, userId: otherAdmin.id, role: "member" } });
    const other = await world.team("Other");
    await db().teamMember.create({ data: { teamId: other.id, userId: otherAdmin.id, role: "admin" } });
    expect(await outcome(otherAdmin.api.apiKeys.list({ teamId: team.id }))).toBe("NOT_FOUND");
    expect(await outcome(otherAdmin.api.apiKeys.revoke({ id }))).toBe("NOT_FOUND");
    expect((await keyRow(id)).revokedAt).toBeNull();
  });
});

describe("apiKeys.create", () => {
  it("answers the key once, in the promptly_ format, and stores only its SHA-256", async () => {
    const { team, id, key } = await teamWithKey();
    expect(key).toMatch(KEY_FORMAT);
    const row = await keyRow(id);
    expect(row).toMatchObject({
      teamId: team.id,
      name: "Deploy bot",
      prefix: key.slice(0, 12),
      keyHash: createHash("sha256").update(key).digest("hex"),
      labels: [],
      scopes: ["read"],
      createdById: world.accounts.admin.id,
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
    });
    // Nothing stored holds the secret part of the key.
    expect(JSON.stringify(row)).not.toContain(key.slice(12));
    const again = await world.callers.admin.apiKeys.create({ teamId: team.id, name: "Deploy bot" });
    // Its public half (the Langfuse SDKs' publicKey) beside it: the id, nothing of the secret.
    expect(again.publicKey).toBe(`pk-lf-${again.id}`);
    expect(again.key).not.toBe(key);
    expect(again.key.slice(0, 9)).toBe("promptly_");
  });

  it("keeps labels without repeats, gives write with read, and sets the expiry from the clock", async () => {
    const team = await world.team();
    const now = h.clock.now().getTime();
    const { id } = await world.callers.orgAdmin.apiKeys.create({
      teamId: team.id,
      name: "  CI staging  ",
      labels: ["staging", "production", "staging", "latest"],
      scopes: ["write"],
      expiresInDays: 30,
    });
    const [item] = await world.callers.admin.apiKeys.list({ teamId: team.id });
    expect(item).toMatchObject({
      id,
      name: "CI staging",
      labels: ["staging", "production", "latest"],
      scopes: ["read", "write"],
      author: { id: world.accounts.orgAdmin.id, fullName: "Olga Orgadmin" },
      expired: false,
    });
    expect(item!.expiresAt!.getTime() - item!.createdAt.getTime()).toBe(30 * DAY_MS);
    expect(item!.createdAt.getTime()).toBeGreaterThanOrEqual(now);
  });

  it.each([
    [["run"], ["read", "run"]],
    [["run", "write", "run"], ["read", "write", "run"]],
    [["write"], ["read", "write"]],
  ] as const)("stores the scopes %j as %j: run and write each hold read, neither the other", async (scopes, stored) => {
    const team = await world.team();
    await world.callers.orgAdmin.apiKeys.create({ teamId: team.id, name: "Scoped", scopes: [...scopes] });
    const [item] = await world.callers.admin.apiKeys.list({ teamId: team.id });
    expect(item!.scopes).toEqual(stored);
  });

  it.each([
    ["an empty name", { name: "" }, API_KEY_MSG.nameRequired],
    ["a blank name", { name: "   " }, API_KEY_MSG.nameRequired],
    ["a name of 101 characters", { name: "k".repeat(101) }, API_KEY_MSG.nameTooLong],
    ...CONTROL_CHARACTERS.map(([label, c]) => [`a name with ${label}`, { name: `Deploy${c}bot` }, MSG.controlCharacters] as const),
    ["an empty label list", { labels: [] }, API_KEY_MSG.labelsEmpty],
    ["an uppercase label", { labels: ["Production"] }, PROMPT_MSG.labelInvalid],
    ["a label with a space", { labels: ["prod uction"] }, PROMPT_MSG.labelInvalid],
    ["a label of 37 characters", { labels: ["l".repeat(37)] }, PROMPT_MSG.labelInvalid],
    ["21 labels", { labels: Array.from({ length: 21 }, (_, i) => `label-${i}`) }, API_KEY_MSG.tooManyLabels],
    ["no scope", { scopes: [] }, API_KEY_MSG.scopesEmpty],
    ["an unknown scope", { scopes: ["admin"] }, API_KEY_MSG.scopeInvalid],
    ["an expiry of 0 days", { expiresInDays: 0 }, API_KEY_MSG.expiresInDaysRange],
    ["an expiry of 366 days", { expiresInDays: 366 }, API_KEY_MSG.expiresInDaysRange],
    ["an expiry of 1.5 days", { expiresInDays: 1.5 }, API_KEY_MSG.expiresInDaysRange],
    ["an expiry given as text", { expiresInDays: "30" }, API_KEY_MSG.expiresInDaysRange],
  ] as const)("refuses %s with BAD_REQUEST and stores nothing", async (_case, fields, message) => {
    const team = await world.team();
    const input = { teamId: team.id, name: "Deploy bot", ...fields } as Parameters<typeof world.callers.admin.apiKeys.create>[0];
    expect(await failure(world.callers.admin.apiKeys.create(input))).toEqual({ code: "BAD_REQUEST", message });
    expect(await keyCount(team.id)).toBe(0);
  });

  it("accepts the limits: 1 and 365 days, 100 characters, 20 labels", async () => {
    const team = await world.team();
    const labels = Array.from({ length: 20 }, (_, i) => `label-${i}`);
    await world.callers.admin.apiKeys.create({ teamId: team.id, name: "k".repeat(100), labels, expiresInDays: 1 });
    await world.callers.admin.apiKeys.create({ teamId: team.id, name: "Year", expiresInDays: 365, scopes: ["read"] });
    expect(await keyCount(team.id)).toBe(2);
  });
});

describe("apiKeys.list", () => {
  it("lists the team's keys newest first, with what a panel shows and never the key", async () => {
    const team = await world.team();
    const first = await world.callers.admin.apiKeys.create({ teamId: team.id, name: "First" });
    await advanceClock(h, 1000);
    const second = await world.callers.admin.apiKeys.create({ teamId: team.id, name: "Second", labels: ["production"] });
    await teamWithKey(); // another team's key is not listed

    const listed = await world.callers.admin.apiKeys.list({ teamId: team.id });
    expect(listed).toEqual([
      {
        id: second.id,
        name: "Second",
        prefix: second.key.slice(0, 12),
        publicKey: `pk-lf-${second.id}`,
        labels: ["production"],
        scopes: ["read"],
        author: { id: world.accounts.admin.id, fullName: "Ada Admin", email: world.accounts.admin.email },
        createdAt: expect.any(Date),
        lastUsedAt: null,
        expiresAt: null,
        revokedAt: null,
        expired: false,
      },
      expect.objectContaining({ id: first.id, name: "First", prefix: first.key.slice(0, 12), labels: null }),
    ]);
    const text = JSON.stringify(listed);
    for (const key of [first.key, second.key]) expect(text).not.toContain(key.slice(12));
    expect(text).not.toMatch(/keyHash|key_hash/);
  });

  it("shows use, expiry and revocation; the author becomes null when the account is deleted, and the key still works", async () => {
    const team = await world.team();
    const author = await createSignedInAccount(h, { fullName: "Gone Soon" });
    await db().organizationMember.create({ data: { organizationId: world.organization.id, userId: author.id, role: "member" } });
    await db().teamMember.create({ data: { teamId: team.id, userId: author.id, role: "admin" } });
    const used = await author.api.apiKeys.create({ teamId: team.id, name: "Used", expiresInDays: 1 });
    const revoked = await author.api.apiKeys.create({ teamId: team.id, name: "Revoked" });
    await world.callers.admin.apiKeys.revoke({ id: revoked.id });
    const before = h.clock.now().getTime();
    expect(await authenticate(used.key)).toMatchObject({ ok: true });
    const after = h.clock.now().getTime();

    await db().user.delete({ where: { id: author.id } });
    await advanceClock(h, DAY_MS);
    const byId = new Map((await world.callers.admin.apiKeys.list({ teamId: team.id })).map((item) => [item.id, item]));
    expect(byId.get(used.id)).toMatchObject({ author: null, expired: true, revokedAt: null });
    // The clock runs on during the call: the use is recorded at a moment within it.
    const lastUsed = byId.get(used.id)!.lastUsedAt!.getTime();
    expect(lastUsed).toBeGreaterThanOrEqual(before);
    expect(lastUsed).toBeLessThanOrEqual(after);
    expect(byId.get(revoked.id)).toMatchObject({ author: null, expired: false, revokedAt: expect.any(Date) });

    // Not expired yet: a key outlives its author (it is the team's).
    const kept = await world.callers.admin.apiKeys.create({ teamId: team.id, name: "Kept" });
    expect(await authenticate(kept.key)).toMatchObject({ ok: true, apiKey: { teamId: team.id } });
  });
});

describe("apiKeys.revoke", () => {
  it("revokes at once; revoking again is no error and keeps the first time", async () => {
    const { team, id, key } = await teamWithKey();
    const before = h.clock.now();
    const first = await world.callers.admin.apiKeys.revoke({ id });
    expect(first).toEqual({ id, revokedAt: expect.any(Date) });
    expect(first.revokedAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(await authenticate(key)).toEqual({ ok: false, reason: "revoked", message: API_KEY_MSG.revokedKey });
    await advanceClock(h, 60_000);
    expect(await world.callers.orgAdmin.apiKeys.revoke({ id })).toEqual(first);
    const [item] = await world.callers.admin.apiKeys.list({ teamId: team.id });
    expect(item).toMatchObject({ id, revokedAt: first.revokedAt });
  });

  it("two revocations at the same moment both succeed with one time", async () => {
    const { id } = await teamWithKey();
    const [a, b] = await Promise.all([world.callers.admin.apiKeys.revoke({ id }), world.callers.orgAdmin.apiKeys.revoke({ id })]);
    expect(a).toEqual(b);
  });

  it("deleting the team deletes its keys", async () => {
    const { team, id, key } = await teamWithKey();
    await db().team.delete({ where: { id: team.id } });
    expect(await db().apiKey.count({ where: { id } })).toBe(0);
    expect(await authenticate(key)).toEqual({ ok: false, reason: "unknown", message: API_KEY_MSG.invalidKey });
  });
});

describe("authenticateApiKey", () => {
  it("gives a valid key's team, labels and scopes", async () => {
    const any = await teamWithKey();
    expect(await authenticate(any.key)).toEqual({ ok: true, apiKey: { id: any.id, teamId: any.team.id, labels: null, scopes: ["read"] } });
    const bound = await teamWithKey({ labels: ["production"], scopes: ["read", "write"] });
    expect(await authenticate(bound.key)).toEqual({
      ok: true,
      apiKey: { id: bound.id, teamId: bound.team.id, labels: ["production"], scopes: ["read", "write"] },
    });
  });

  it("a key acts for its own team only: two teams' keys each answer their own team", async () => {
    const a = await teamWithKey();
    const b = await teamWithKey();
    expect(a.team.id).not.toBe(b.team.id);
    expect(await authenticate(a.key)).toMatchObject({ ok: true, apiKey: { teamId: a.team.id } });
    expect(await authenticate(b.key)).toMatchObject({ ok: true, apiKey: { teamId: b.team.id } });
  });

  it.each([
    ["empty", ""],
    ["the prefix alone", "promptly_"],
    ["too short", `promptly_${"a".repeat(42)}`],
    ["too long", `promptly_${"a".repeat(44)}`],
    ["another prefix", `sk_live_${"a".repeat(43)}`],
    ["a character outside base62", `promptly_${"a".repeat(42)}-`],
    ["surrounding space", ` promptly_${"a".repeat(43)}`],
  ])("refuses a malformed key (%s)", async (_case, key) => {
    expect(await authenticate(key)).toEqual({ ok: false, reason: "malformed", message: API_KEY_MSG.invalidKey });
  });

  it("refuses a well-formed key nobody issued, and a real key changed by one character", async () => {
    const { key } = await teamWithKey();
    expect(await authenticate(`promptly_${"a".repeat(43)}`)).toEqual({ ok: false, reason: "unknown", message: API_KEY_MSG.invalidKey });
    const last = key.at(-1) === "a" ? "b" : "a";
    expect(await authenticate(key.slice(0, -1) + last)).toEqual({ ok: false, reason: "unknown", message: API_KEY_MSG.invalidKey });
  });

  it("refuses an expired key from its expiry on, and revocation before expiry", async () => {
    const { id, key } = await teamWithKey({ expiresInDays: 2 });
    await advanceClock(h, 2 * DAY_MS - 1000);
    expect(await authenticate(key)).toMatchObject({ ok: true });
    await advanceClock(h, 1000);
    expect(await authenticate(key)).toEqual({ ok: false, reason: "expired", message: API_KEY_MSG.expiredKey });
    // A revoked key is told so, expired or not.
    await world.callers.admin.apiKeys.revoke({ id });
    expect(await authenticate(key)).toEqual({ ok: false, reason: "revoked", message: API_KEY_MSG.revokedKey });
  });

  it("writes lastUsedAt at most once a minute, however many requests come", async () => {
    // Every write to the key's row is counted by a trigger of this test's own database.
    await db().$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS api_key_writes (api_key_id uuid NOT NULL)`);
    await db().$executeRawUnsafe(`CREATE OR REPLACE FUNCTION count_api_key_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO api_key_writes VALUES (NEW.id); RETURN NEW; END $$`);
    await db().$executeRawUnsafe(`CREATE OR REPLACE TRIGGER api_keys_count_writes AFTER UPDATE ON api_keys FOR EACH ROW EXECUTE FUNCTION count_api_key_write()`);
    const { id, key } = await teamWithKey();
    const writes = async () => Number((await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM api_key_writes WHERE api_key_id = ${id}::uuid`)[0]!.n);
    const lastUsed = async () => (await keyRow(id)).lastUsedAt;

    const start = h.clock.now();
    await authenticate(key);
    const first = await lastUsed();
    expect(first!.getTime()).toBeGreaterThanOrEqual(start.getTime());
    expect(await writes()).toBe(1);

    // Within the minute: no write, whether one request or fifty at once.
    await advanceClock(h, 30_000);
    await authenticate(key);
    await Promise.all(Array.from({ length: 50 }, () => authenticate(key)));
    expect(await lastUsed()).toEqual(first);
    expect(await writes()).toBe(1);

    await advanceClock(h, 30_000);
    await authenticate(key);
    const second = await lastUsed();
    expect(second!.getTime()).toBeGreaterThanOrEqual(first!.getTime() + 60_000);
    expect(await writes()).toBe(2);

    // Many requests at once a minute later: the conditional update lets one write through.
    await advanceClock(h, 60_000);
    const results = await Promise.all(Array.from({ length: 10 }, () => authenticate(key)));
    expect(results.every((result) => result.ok)).toBe(true);
    expect((await lastUsed())!.getTime()).toBeGreaterThanOrEqual(second!.getTime() + 60_000);
    expect(await writes()).toBe(3);

    // A refused key is not marked used (the revocation itself is the one write).
    const third = await lastUsed();
    await world.callers.admin.apiKeys.revoke({ id });
    await advanceClock(h, 120_000);
    expect(await authenticate(key)).toMatchObject({ ok: false, reason: "revoked" });
    expect(await lastUsed()).toEqual(third);
    expect(await writes()).toBe(4);
  });
});
