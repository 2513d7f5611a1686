// Provider connections of an organization: saved with the key sealed, listed without it,
// limited to some teams or open to all, and tested by asking the provider for its models.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { Prisma, hotQuery, isUniqueViolation, type Db, type DbOrTx } from "@promptly/db";
import { PROVIDER_KINDS, PROVIDER_MSG, RUN_MSG, createProviderInput, updateNeedsKey, updateProviderInput, type ProviderKind } from "@promptly/shared";
import type { ApiConfig } from "../types.ts";
import { fail } from "../../errors.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";
import { openSecret, sealSecret } from "../platform/secret-box.ts";
import { dropProviderAgents, outboundAllowed } from "../platform/outbound.ts";
import { listProviderModels, loadedProviderModules, warmProviderSdks, type OpenConnection } from "./provider-client.ts";

type Config = Pick<ApiConfig, "secret" | "allowPrivateProviderUrls" | "providerTimeoutMs">;

const connectionTest = z.object({ at: z.date(), ok: z.boolean(), error: z.string().nullable() }).nullable();

export const providerConnectionItem = z.object({
  id: z.string(),
  organizationId: z.string(),
  kind: z.enum(PROVIDER_KINDS),
  name: z.string(),
  baseUrl: z.string().nullable(),
  /** The key's last four characters: enough to tell two keys apart, never the key. */
  apiKeyLast4: z.string(),
  models: z.array(z.string()),
  /** The teams that may use it; empty: every team of the organization. */
  teamIds: z.array(z.string()),
  /** Its last "Test connection": when, whether it worked, and why not; null: never tested. */
  lastTest: connectionTest,
  /** The organization's default: what its teams' runs use when neither the run nor the team names one. */
  isDefault: z.boolean(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type ProviderConnectionItem = z.infer<typeof providerConnectionItem>;

export const providerTestResult = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), models: z.array(z.string()) }),
  z.object({ ok: z.literal(false), status: z.number().nullable(), message: z.string(), detail: z.string().nullable() }),
]);

type DbKind = "openai" | "anthropic" | "openai_compatible";
const toDbKind = (kind: ProviderKind): DbKind => (kind === "openai-compatible" ? "openai_compatible" : kind);
const fromDbKind = (kind: DbKind): ProviderKind => (kind === "openai_compatible" ? "openai-compatible" : kind);

const SEAL = "provider key v1" as const;
const last4 = (key: string) => key.slice(-4);

const testSelect = { lastTestedAt: true, lastTestOk: true, lastTestError: true } as const;
type TestRow = { lastTestedAt: Date | null; lastTestOk: boolean | null; lastTestError: string | null };
const testOf = (row: TestRow): z.infer<typeof connectionTest> =>
  row.lastTestedAt === null || row.lastTestOk === null ? null : { at: row.lastTestedAt, ok: row.lastTestOk, error: row.lastTestError };

const itemSelect = {
  id: true, organizationId: true, kind: true, name: true, baseUrl: true, apiKeyLast4: true, models: true, createdAt: true, updatedAt: true,
  teams: { select: { teamId: true } }, ...testSelect, defaultOfOrganizations: { select: { id: true } },
} as const;

type ItemRow = { kind: DbKind; teams: { teamId: string }[]; defaultOfOrganizations: { id: string }[] } & TestRow & Omit<ProviderConnectionItem, "kind" | "teamIds" | "lastTest" | "isDefault">;
const toItem = ({ teams, kind, lastTestedAt, lastTestOk, lastTestError, defaultOfOrganizations, ...row }: ItemRow): ProviderConnectionItem => ({
  ...row,
  kind: fromDbKind(kind),
  teamIds: teams.map((team) => team.teamId).sort(),
  lastTest: testOf({ lastTestedAt, lastTestOk, lastTestError }),
  isDefault: defaultOfOrganizations.length > 0,
});

/** The organization that owns a connection (the procedures' locator); null when there is none. */
export async function findProviderConnectionOrganizationId(db: DbOrTx, id: string): Promise<string | null> {
  return (await db.providerConnection.findUnique({ where: { id }, select: { organizationId: true } }))?.organizationId ?? null;
}

async function checkBaseUrl(config: Config, baseUrl: string | null | undefined) {
  if (baseUrl && !(await outboundAllowed(baseUrl, config.allowPrivateProviderUrls ?? false))) fail("INVALID", PROVIDER_MSG.baseUrlPrivate, "PRIVATE_ADDRESS");
}

async function checkTeams(db: DbOrTx, organizationId: string, teamIds: readonly string[]) {
  if (!teamIds.length) return;
  const found = await db.team.count({ where: { id: { in: [...teamIds] }, organizationId } });
  if (found !== teamIds.length) fail("INVALID", PROVIDER_MSG.teamNotInOrganization);
}

/**
 * Loads, without waiting, the SDKs of the connections just read or made, so the run that follows does
 * not wait for a module load (a load that fails here fails again at the call, which says why).
 */
function warmFor(kinds: readonly ProviderKind[]) {
  if (kinds.length) warmProviderSdks(kinds).catch(() => undefined);
}

/** At start: loads the SDKs the stored connections call through; the names of the provider modules then loaded. */
export async function warmStoredProviderSdks(db: DbOrTx): Promise<string[]> {
  const kinds = await db.providerConnection.findMany({ distinct: ["kind"], select: { kind: true } });
  await warmProviderSdks(kinds.map((row) => fromDbKind(row.kind)));
  return loadedProviderModules();
}

export async function listProviderConnections(db: DbOrTx, organizationId: string): Promise<ProviderConnectionItem[]> {
  const rows = await db.providerConnection.findMany({ where: { organizationId }, select: itemSelect, orderBy: [{ name: "asc" }, { id: "asc" }] });
  const items = rows.map(toItem);
  warmFor(items.map((item) => item.kind));
  return items;
}

/** A connection as the playground offers it to a prompt's runners: what to choose by, nothing of the key. */
export const runConnectionItem = providerConnectionItem.pick({ id: true, kind: true, name: true, models: true, lastTest: true });

/**
 * The rule of a connection's teams: limited to none, it is open to every team of its organization.
 * Here for a row in hand; listRunConnections and findTeamRunConnections say the same in their queries.
 */
const isOpenToTeam = (teams: readonly { teamId: string }[], teamId: string) => teams.length === 0 || teams.some((team) => team.teamId === teamId);

/** The organization's connections open to one team (those limited to no team, or to it too), by name. */
export async function listRunConnections(db: DbOrTx, organizationId: string, teamId: string): Promise<z.infer<typeof runConnectionItem>[]> {
  const rows = await db.providerConnection.findMany({
    where: { organizationId, OR: [{ teams: { none: {} } }, { teams: { some: { teamId } } }] },
    select: { id: true, kind: true, name: true, models: true, ...testSelect },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
  const items = rows.map(({ lastTestedAt, lastTestOk, lastTestError, ...row }) => ({ ...row, kind: fromDbKind(row.kind), lastTest: testOf({ lastTestedAt, lastTestOk, lastTestError }) }));
  warmFor(items.map((item) => item.kind));
  return items;
}

const DEFAULT_REASONS = ["team", "organization", "onlyTested"] as const;
type DefaultReason = (typeof DEFAULT_REASONS)[number];

/** The connection a run uses when it names none, why, and the sentence that says so (or asks to pick or test one). */
export const runConnectionChoice = z.object({ connectionId: z.string().nullable(), reason: z.enum(DEFAULT_REASONS).nullable(), message: z.string() });

/**
 * The one rule of the connection a run uses when it names none, among those open to the team: the
 * team's default, else the organization's, else the only one whose last test worked. A connection
 * failing or never tested is never picked silently: with no default and not exactly one that passed,
 * there is none.
 */
export function chooseRunConnection<T extends { id: string; testedOk: boolean | null }>(
  open: readonly T[],
  defaults: { team: string | null; organization: string | null },
): { connection: T; reason: DefaultReason } | null {
  const teamDefault = defaults.team === null ? undefined : open.find((connection) => connection.id === defaults.team);
  if (teamDefault) return { connection: teamDefault, reason: "team" };
  const organizationDefault = defaults.organization === null ? undefined : open.find((connection) => connection.id === defaults.organization);
  if (organizationDefault) return { connection: organizationDefault, reason: "organization" };
  const passed = open.filter((connection) => connection.testedOk === true);
  return passed.length === 1 ? { connection: passed[0]!, reason: "onlyTested" } : null;
}

/** The team's default connection and its organization's (ids; null: none chosen). */
async function defaultsOf(db: DbOrTx, teamId: string): Promise<{ team: string | null; organization: string | null }> {
  const team = await db.team.findUnique({ where: { id: teamId }, select: { defaultConnectionId: true, organization: { select: { defaultConnectionId: true } } } });
  return { team: team?.defaultConnectionId ?? null, organization: team?.organization.defaultConnectionId ?? null };
}

/** The connection a team's run (the playground's) uses when it names none, and why, in words. */
export async function chooseTeamRunConnection(db: DbOrTx, organizationId: string, teamId: string): Promise<z.infer<typeof runConnectionChoice>> {
  const [open, defaults] = await Promise.all([listRunConnections(db, organizationId, teamId), defaultsOf(db, teamId)]);
  const chosen = chooseRunConnection(open.map((item) => ({ ...item, testedOk: item.lastTest?.ok ?? null })), defaults);
  if (!chosen) return { connectionId: null, reason: null, message: PROVIDER_MSG.noConnectionChosen };
  return { connectionId: chosen.connection.id, reason: chosen.reason, message: PROVIDER_MSG.usesConnection(chosen.connection.name, chosen.reason) };
}

/** Sets (or clears, null) the organization's default connection: one of its own. */
export async function setOrganizationDefaultConnection(db: Db, organizationId: string, connectionId: string | null, context: AuditContext): Promise<{ connectionId: string | null }> {
  return db.$transaction(async (tx) => {
    const connection = connectionId === null ? null : await tx.providerConnection.findFirst({ where: { id: connectionId, organizationId }, select: { id: true, name: true } });
    if (connectionId !== null && !connection) return fail("NOT_FOUND", PROVIDER_MSG.notFound);
    const before = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { defaultConnectionId: true } });
    await tx.organization.update({ where: { id: organizationId }, data: { defaultConnectionId: connectionId } });
    if (before.defaultConnectionId !== connectionId) {
      await auditAs(tx, context, {
        organizationId, action: "provider.default", target: { type: "organization", id: organizationId },
        before: { defaultConnectionId: before.defaultConnectionId }, after: { defaultConnectionId: connectionId, name: connection?.name ?? null },
      });
    }
    return { connectionId };
  });
}

/** A team's default connection and the connections it may choose from (those of its organization open to it). */
export const teamDefaultConnection = z.object({ connectionId: z.string().nullable(), connections: z.array(runConnectionItem) });

export async function getTeamDefaultConnection(db: DbOrTx, teamId: string): Promise<z.infer<typeof teamDefaultConnection>> {
  const team = await db.team.findUniqueOrThrow({ where: { id: teamId }, select: { organizationId: true, defaultConnectionId: true } });
  return { connectionId: team.defaultConnectionId, connections: await listRunConnections(db, team.organizationId, teamId) };
}

/** Sets (or clears, null) a team's default connection: one of its organization open to the team. */
export async function setTeamDefaultConnection(db: Db, teamId: string, connectionId: string | null, context: AuditContext): Promise<{ connectionId: string | null }> {
  return db.$transaction(async (tx) => {
    const team = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { organizationId: true, defaultConnectionId: true } });
    let name: string | null = null;
    if (connectionId !== null) {
      const row = await tx.providerConnection.findFirst({ where: { id: connectionId, organizationId: team.organizationId }, select: { name: true, teams: { select: { teamId: true } } } });
      if (!row) return fail("NOT_FOUND", PROVIDER_MSG.notFound);
      if (!isOpenToTeam(row.teams, teamId)) fail("INVALID", PROVIDER_MSG.defaultNotOpenToTeam, "CONNECTION_NOT_FOR_TEAM");
      name = row.name;
    }
    await tx.team.update({ where: { id: teamId }, data: { defaultConnectionId: connectionId } });
    if (team.defaultConnectionId !== connectionId) {
      await auditAs(tx, context, {
        organizationId: team.organizationId, teamId, action: "provider.default", target: { type: "team", id: teamId },
        before: { defaultConnectionId: team.defaultConnectionId }, after: { defaultConnectionId: connectionId, name },
      });
    }
    return { connectionId };
  });
}

export async function createProviderConnection(
  deps: { db: Db; config: Config },
  input: z.output<typeof createProviderInput> & { createdById: string },
  context: AuditContext,
): Promise<ProviderConnectionItem> {
  const baseUrl = input.baseUrl ?? null;
  await checkBaseUrl(deps.config, baseUrl);
  // The id is known before the row exists: the sealed key is bound to it.
  const id = randomUUID();
  warmFor([input.kind]);
  try {
    return await deps.db.$transaction(async (tx) => {
      await checkTeams(tx, input.organizationId, input.teamIds ?? []);
      const row = await tx.providerConnection.create({
        data: {
          id,
          organizationId: input.organizationId,
          kind: toDbKind(input.kind),
          name: input.name,
          baseUrl,
          apiKeySealed: sealSecret(deps.config.secret, SEAL, id, new TextEncoder().encode(input.apiKey)),
          apiKeyLast4: last4(input.apiKey),
          models: input.models ?? [],
          createdById: input.createdById,
          teams: { create: (input.teamIds ?? []).map((teamId) => ({ teamId })) },
        },
        select: itemSelect,
      });
      await auditAs(tx, context, {
        organizationId: input.organizationId,
        action: "provider.create",
        target: { type: "provider", id, name: input.name },
        after: { kind: input.kind, baseUrl, models: row.models, teamIds: input.teamIds ?? [] },
      });
      return toItem(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) fail("ALREADY_EXISTS", PROVIDER_MSG.nameTaken, "NAME_TAKEN");
    throw error;
  }
}

export async function updateProviderConnection(
  deps: { db: Db; config: Config },
  input: z.output<typeof updateProviderInput>,
  context: AuditContext,
): Promise<ProviderConnectionItem> {
  if (input.baseUrl) await checkBaseUrl(deps.config, input.baseUrl);
  try {
    const updated = await deps.db.$transaction(async (tx) => {
      const before = await tx.providerConnection.findUnique({ where: { id: input.id }, select: itemSelect });
      if (!before) return fail("NOT_FOUND", PROVIDER_MSG.notFound);
      if (input.baseUrl === null && before.kind === "openai_compatible") fail("INVALID", PROVIDER_MSG.baseUrlRequired);
      if (updateNeedsKey(before.baseUrl, input)) fail("INVALID", PROVIDER_MSG.keyRequiredForBaseUrl, "KEY_REQUIRED_FOR_BASE_URL");
      if (input.teamIds) await checkTeams(tx, before.organizationId, input.teamIds);
      const row = await tx.providerConnection.update({
        where: { id: input.id },
        data: {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.baseUrl !== undefined ? { baseUrl: input.baseUrl } : {}),
          ...(input.models !== undefined ? { models: input.models } : {}),
          ...(input.apiKey !== undefined
            ? { apiKeySealed: sealSecret(deps.config.secret, SEAL, input.id, new TextEncoder().encode(input.apiKey)), apiKeyLast4: last4(input.apiKey) }
            : {}),
          ...(input.teamIds !== undefined
            ? { teams: { deleteMany: {}, create: input.teamIds.map((teamId) => ({ teamId })) } }
            : {}),
        },
        select: itemSelect,
      });
      const shown = (item: ProviderConnectionItem, keyReplaced: boolean) => ({
        name: item.name, baseUrl: item.baseUrl, models: item.models, teamIds: item.teamIds, ...(keyReplaced ? { apiKeyLast4: item.apiKeyLast4 } : {}),
      });
      await auditAs(tx, context, {
        organizationId: before.organizationId,
        action: "provider.update",
        target: { type: "provider", id: input.id, name: row.name },
        before: shown(toItem(before), input.apiKey !== undefined),
        after: shown(toItem(row), input.apiKey !== undefined),
      });
      return toItem(row);
    });
    forgetConnection(input.id);
    return updated;
  } catch (error) {
    if (isUniqueViolation(error)) fail("ALREADY_EXISTS", PROVIDER_MSG.nameTaken, "NAME_TAKEN");
    throw error;
  }
}

export async function deleteProviderConnection(db: Db, id: string, context: AuditContext): Promise<void> {
  await db.$transaction(async (tx) => {
    const row = await tx.providerConnection.findUnique({ where: { id }, select: { organizationId: true, name: true } });
    if (!row) return fail("NOT_FOUND", PROVIDER_MSG.notFound);
    await tx.providerConnection.delete({ where: { id } });
    await auditAs(tx, context, { organizationId: row.organizationId, action: "provider.delete", target: { type: "provider", id, name: row.name } });
  });
  forgetConnection(id);
}

/**
 * Keys opened in this process, by connection, with the sealed value they were opened from: a run
 * reads the sealed key with its connection anyway, and opens it only when it differs (a replaced key,
 * in any process) or was kept past OPENED_KEY_TTL_MS (a key sits in memory no longer than that
 * unused). Never logged, never answered.
 */
type OpenedKey = { sealed: string; apiKey: string; until: number; connection?: OpenConnection & { id: string; organizationId: string; name: string } };
const openedKeys = new Map<string, OpenedKey>();
const OPENED_KEY_TTL_MS = 5 * 60_000;
const OPENED_KEYS_MAX = 500;

/**
 * The connection's key opened from `sealed`, kept (with the run connection made of it) while valid. A key
 * sealed under another app secret (APP_SECRET changed) opens for no call: PRECONDITION, saying so by the
 * connection's name, for every caller (a run, an evaluation, a judge).
 */
function openedKey(config: Config, id: string, sealed: string, name: string): OpenedKey {
  const now = Date.now();
  const kept = openedKeys.get(id);
  if (kept && kept.sealed === sealed && kept.until > now) return kept;
  let apiKey: string;
  try {
    apiKey = new TextDecoder().decode(openSecret(config.secret, SEAL, id, sealed));
  } catch {
    return fail("PRECONDITION", PROVIDER_MSG.keyUnreadable(name));
  }
  const opened = { sealed, apiKey, until: now + OPENED_KEY_TTL_MS };
  openedKeys.delete(id);
  openedKeys.set(id, opened);
  if (openedKeys.size > OPENED_KEYS_MAX) openedKeys.delete(openedKeys.keys().next().value!);
  return opened;
}

/** What this process keeps of a connection (its opened key, its sockets) goes once it is changed or removed. */
function forgetConnection(id: string) {
  openedKeys.delete(id);
  dropProviderAgents(id);
}

/** Everything a run needs of a connection, its key still sealed, in one read. */
export type RunConnectionRow = { kind: DbKind; teams: { teamId: string }[]; id: string; organizationId: string; name: string; baseUrl: string | null; apiKeySealed: string; models: string[] };

/**
 * The rule of every call a team's prompt makes on a connection (a run, a judged assertion): a
 * connection of another organization does not exist for it (NOT_FOUND), one not open to the team is
 * refused (FORBIDDEN).
 */
export function allowTeamConnection(row: RunConnectionRow | null, place: { organizationId: string; teamId: string }): asserts row is RunConnectionRow {
  if (!row || row.organizationId !== place.organizationId) fail("NOT_FOUND", PROVIDER_MSG.notFound);
  if (!isOpenToTeam(row!.teams, place.teamId)) fail("FORBIDDEN", RUN_MSG.connectionNotForTeam, "CONNECTION_NOT_FOR_TEAM");
}

/** A connection that lists its models offers only those. */
export function allowModel(row: RunConnectionRow, model: string): void {
  if (row.models.length && !row.models.includes(model)) fail("INVALID", RUN_MSG.modelNotOffered(model), "MODEL_NOT_OFFERED");
}

/**
 * A connection as a run needs it; null when there is none. Plain SQL
 * (hotQuery, not Prisma's engine): a playground run reads it before the provider is called.
 */
export async function findRunConnection(db: DbOrTx, id: string): Promise<RunConnectionRow | null> {
  const [row] = await hotQuery<Omit<RunConnectionRow, "teams"> & { teamIds: string[] | null }>(db, Prisma.sql`
    SELECT c.id::text AS id, c.organization_id::text AS "organizationId", c.kind::text AS kind, c.name, c.base_url AS "baseUrl",
           c.api_key_sealed AS "apiKeySealed", c.models,
           (SELECT array_agg(ct.team_id::text) FROM provider_connection_teams ct WHERE ct.connection_id = c.id) AS "teamIds"
    FROM provider_connections c WHERE c.id = ${id}::uuid`);
  if (!row) return null;
  const { teamIds, ...rest } = row;
  return { ...rest, teams: (teamIds ?? []).map((teamId) => ({ teamId })) };
}

/**
 * In one query, a team's organization, its defaults (the team's and the organization's connection),
 * and the connections of it a run of the team may consider: `connectionId` (when it is the
 * organization's, whether or not open to the team: the run says why not), else those open to the team,
 * the defaults and those that passed their test first (up to 10: enough to choose by chooseRunConnection).
 * Plain SQL on our own connections (hotQuery, not Prisma's engine): this is on the path of every API
 * run, before the provider is called.
 */
export async function findTeamRunConnections(
  db: DbOrTx,
  teamId: string,
  connectionId?: string,
): Promise<{ organizationId: string; defaults: { team: string | null; organization: string | null }; connections: (RunConnectionRow & { testedOk: boolean | null })[] }> {
  const which = connectionId
    ? Prisma.sql`c.id = ${connectionId}::uuid`
    : Prisma.sql`(NOT EXISTS (SELECT 1 FROM provider_connection_teams ct WHERE ct.connection_id = c.id)
                  OR EXISTS (SELECT 1 FROM provider_connection_teams ct WHERE ct.connection_id = c.id AND ct.team_id = t.id))`;
  const rows = await hotQuery<
    { teamOrganizationId: string; teamDefault: string | null; organizationDefault: string | null; id: string | null; teamIds: string[] | null; testedOk: boolean | null } & Omit<RunConnectionRow, "id" | "teams">
  >(db, Prisma.sql`
    SELECT t.organization_id::text AS "teamOrganizationId", t.default_connection_id::text AS "teamDefault", o.default_connection_id::text AS "organizationDefault",
           c.id::text AS id, c.organization_id::text AS "organizationId", c.kind::text AS kind,
           c.name, c.base_url AS "baseUrl", c.api_key_sealed AS "apiKeySealed", c.models, c.last_test_ok AS "testedOk",
           (SELECT array_agg(ct.team_id::text) FROM provider_connection_teams ct WHERE ct.connection_id = c.id) AS "teamIds"
    FROM teams t
    JOIN organizations o ON o.id = t.organization_id
    LEFT JOIN LATERAL (
      SELECT * FROM provider_connections c WHERE c.organization_id = t.organization_id AND ${which}
      ORDER BY c.id = t.default_connection_id DESC NULLS LAST, c.id = o.default_connection_id DESC NULLS LAST, c.last_test_ok IS TRUE DESC, c.name
      LIMIT 10) c ON true
    WHERE t.id = ${teamId}::uuid`);
  if (!rows.length) throw new Error(`No team ${teamId}`);
  return {
    organizationId: rows[0]!.teamOrganizationId,
    defaults: { team: rows[0]!.teamDefault, organization: rows[0]!.organizationDefault },
    connections: rows.flatMap(({ teamOrganizationId: _, teamDefault: _t, organizationDefault: _o, id, teamIds, ...row }) =>
      id ? [{ ...row, id, teams: (teamIds ?? []).map((team) => ({ teamId: team })) }] : [],
    ),
  };
}

/** A connection read for a run, with its key opened; never leaves the server. */
export function openRunConnection(config: Config, row: RunConnectionRow): OpenConnection & { id: string; organizationId: string } {
  const opened = openedKey(config, row.id, row.apiKeySealed, row.name);
  const kind = fromDbKind(row.kind);
  // The same object while nothing of it changed: the provider's SDK client built for it is reused (provider-client.ts).
  const kept = opened.connection;
  if (kept?.kind === kind && kept.baseUrl === row.baseUrl && kept.organizationId === row.organizationId && kept.name === row.name) return kept;
  return (opened.connection = { id: row.id, organizationId: row.organizationId, name: row.name, kind, baseUrl: row.baseUrl, apiKey: opened.apiKey });
}

/**
 * At start, ahead of the first run: a run's reads of its connections (a team's, with and without one
 * named, and one by id) for the team of a stored connection, and the opening of a key through the
 * same code as a run's, but a throwaway key sealed for a throwaway id and not kept: no stored key is
 * opened. False when no team's organization has a connection.
 */
export async function warmRunConnections(db: DbOrTx, config: Config): Promise<boolean> {
  const stored = await db.providerConnection.findFirst({
    where: { organization: { teams: { some: {} } } },
    select: { id: true, organization: { select: { teams: { select: { id: true }, take: 1 } } } },
  });
  const teamId = stored?.organization.teams[0]?.id;
  if (!stored || !teamId) return false;
  const [{ connections }] = await Promise.all([findTeamRunConnections(db, teamId), findTeamRunConnections(db, teamId, stored.id), findRunConnection(db, stored.id)]);
  const id = randomUUID();
  const row = connections[0] ?? { kind: "openai" as const, teams: [], organizationId: randomUUID(), name: "warm-up", baseUrl: null, models: [] };
  try {
    openRunConnection(config, { ...row, id, apiKeySealed: sealSecret(config.secret, SEAL, id, new TextEncoder().encode("warm-up")) });
  } finally {
    forgetConnection(id);
  }
  return true;
}

/** The connection with its key opened, for a call to the provider; never leaves the server. */
export async function openProviderConnection(db: DbOrTx, config: Config, id: string): Promise<OpenConnection & { id: string; organizationId: string }> {
  const row = await db.providerConnection.findUnique({ where: { id }, select: { id: true, organizationId: true, name: true, kind: true, baseUrl: true, apiKeySealed: true } });
  if (!row) return fail("NOT_FOUND", PROVIDER_MSG.notFound);
  return { id: row.id, organizationId: row.organizationId, name: row.name, kind: fromDbKind(row.kind), baseUrl: row.baseUrl, apiKey: openedKey(config, row.id, row.apiKeySealed, row.name).apiKey };
}

/**
 * "Test connection": the provider's model list for the stored key, or why it could not be had. The
 * connection keeps the outcome (when, whether it worked, why not): a run picks no connection silently
 * unless it passed its test.
 */
export async function testProviderConnection(deps: { db: Db; config: Config }, id: string) {
  const connection = await openProviderConnection(deps.db, deps.config, id);
  const result = await listProviderModels(connection, {
    allowPrivate: deps.config.allowPrivateProviderUrls ?? false,
    timeoutMs: deps.config.providerTimeoutMs ?? 60_000,
  });
  // updateMany: a connection deleted meanwhile is no error of the test's.
  await deps.db.providerConnection.updateMany({
    where: { id },
    data: { lastTestedAt: new Date(), lastTestOk: result.ok, lastTestError: result.ok ? null : result.message },
  });
  return result;
}
