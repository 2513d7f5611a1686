// Provider connections: who may keep them, that the key is sealed at rest and never answered, that
// "Test connection" asks the real provider protocol (a local server speaking OpenAI's and Anthropic's
// APIs through their official SDKs), and where a connection may point.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { startFakeProvider, type FakeProvider } from "../../../testing/fake-provider.ts";
import { CALLER_KINDS, createTeam, createWorld, failure, outcome } from "../../../testing/teams-support.ts";
import { openProviderConnection } from "../../services/models/connections.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
let provider: FakeProvider;

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  world = await createWorld(h);
});
afterAll(() => Promise.all([h.close(), provider.close()]));

const organizationId = () => world.organization.id;
let counter = 0;
const compatible = (overrides: Record<string, unknown> = {}) => ({
  organizationId: organizationId(),
  kind: "openai-compatible" as const,
  name: `Local ${++counter}`,
  baseUrl: provider.openaiBaseUrl,
  apiKey: provider.apiKey,
  ...overrides,
});

/** Organization admins (and super users) keep connections; nobody else learns they exist. */
const EXPECTED: Record<(typeof CALLER_KINDS)[number], string> = {
  anonymous: "UNAUTHORIZED",
  outsider: "NOT_FOUND",
  orgMember: "FORBIDDEN",
  viewer: "FORBIDDEN",
  editor: "FORBIDDEN",
  admin: "FORBIDDEN",
  orgAdmin: "OK",
  superUser: "OK",
};

describe("providers procedures × caller kinds (organization admins)", () => {
  it.each(CALLER_KINDS)("providers.create and providers.list as %s", async (kind) => {
    const before = await h.database.db.providerConnection.count();
    expect(await outcome(world.callers[kind].providers.create(compatible()))).toBe(EXPECTED[kind]);
    expect(await h.database.db.providerConnection.count()).toBe(before + (EXPECTED[kind] === "OK" ? 1 : 0));
    expect(await outcome(world.callers[kind].providers.list({ organizationId: organizationId() }))).toBe(EXPECTED[kind]);
  });

  it.each(CALLER_KINDS)("providers.update, test and delete as %s", async (kind) => {
    const { id } = await world.callers.orgAdmin.providers.create(compatible());
    expect(await outcome(world.callers[kind].providers.update({ id, name: `Renamed ${++counter}` }))).toBe(EXPECTED[kind]);
    expect(await outcome(world.callers[kind].providers.test({ id }))).toBe(EXPECTED[kind]);
    expect(await outcome(world.callers[kind].providers.delete({ id }))).toBe(EXPECTED[kind]);
    expect(await h.database.db.providerConnection.count({ where: { id } })).toBe(EXPECTED[kind] === "OK" ? 0 : 1);
  });
});

describe("the provider key", () => {
  it("is sealed at rest, never answered, shown by its last four characters, and replaced (not read) on update", async () => {
    const created = await world.callers.orgAdmin.providers.create(compatible());
    const listed = await world.callers.orgAdmin.providers.list({ organizationId: organizationId() });
    for (const answer of [created, listed]) expect(JSON.stringify(answer)).not.toContain(provider.apiKey);
    expect(created.apiKeyLast4).toBe(provider.apiKey.slice(-4));

    const row = await h.database.db.providerConnection.findUniqueOrThrow({ where: { id: created.id } });
    expect(JSON.stringify(row)).not.toContain(provider.apiKey);
    expect(row.apiKeySealed).toMatch(/^v1\./);

    const updated = await world.callers.orgAdmin.providers.update({ id: created.id, apiKey: "sk-another-key-9876" });
    expect(updated.apiKeyLast4).toBe("9876");
    expect(JSON.stringify(updated)).not.toContain("sk-another-key-9876");
    const opened = await openProviderConnection(h.database.db, h.services.config, created.id);
    expect(opened.apiKey).toBe("sk-another-key-9876");
  });

  it("goes only where it was entered for: a new base URL needs the key entered again", async () => {
    const { id } = await world.callers.orgAdmin.providers.create(compatible());
    const elsewhere = "https://models.example.com/v1";
    expect(await failure(world.callers.orgAdmin.providers.update({ id, baseUrl: elsewhere }))).toEqual({ code: "BAD_REQUEST", message: PROVIDER_MSG.keyRequiredForBaseUrl });
    // An Anthropic connection's base URL cleared (its own API) or set (one left empty) alike.
    const anthropic = await world.callers.orgAdmin.providers.create(compatible({ kind: "anthropic", baseUrl: provider.anthropicBaseUrl }));
    expect(await failure(world.callers.orgAdmin.providers.update({ id: anthropic.id, name: `Moved ${++counter}`, baseUrl: null }))).toEqual({ code: "BAD_REQUEST", message: PROVIDER_MSG.keyRequiredForBaseUrl });
    const ownApi = await world.callers.orgAdmin.providers.create(compatible({ kind: "anthropic", baseUrl: undefined }));
    expect(await failure(world.callers.orgAdmin.providers.update({ id: ownApi.id, baseUrl: elsewhere }))).toEqual({ code: "BAD_REQUEST", message: PROVIDER_MSG.keyRequiredForBaseUrl });
    // Nothing changed: the stored base URL and key still open the provider.
    expect(await h.database.db.providerConnection.findUniqueOrThrow({ where: { id }, select: { baseUrl: true } })).toEqual({ baseUrl: provider.openaiBaseUrl });
    expect(await world.callers.orgAdmin.providers.test({ id })).toMatchObject({ ok: true });

    // The same base URL (as the form sends it back, a trailing slash included) needs no key; a new one with its key is saved.
    await world.callers.orgAdmin.providers.update({ id, name: `Kept ${++counter}`, baseUrl: `${provider.openaiBaseUrl}/` });
    const moved = await world.callers.orgAdmin.providers.update({ id, baseUrl: elsewhere, apiKey: "sk-elsewhere-key-5555" });
    expect(moved).toMatchObject({ baseUrl: elsewhere, apiKeyLast4: "5555" });
  });

  it("is bound to its connection: a sealed key copied onto another connection does not open", async () => {
    const first = await world.callers.orgAdmin.providers.create(compatible());
    const second = await world.callers.orgAdmin.providers.create(compatible({ apiKey: "sk-second-key-0000" }));
    const { apiKeySealed } = await h.database.db.providerConnection.findUniqueOrThrow({ where: { id: first.id } });
    await h.database.db.providerConnection.update({ where: { id: second.id }, data: { apiKeySealed } });
    await expect(openProviderConnection(h.database.db, h.services.config, second.id)).rejects.toThrow();
  });
});

describe("Test connection, through the providers' own SDKs", () => {
  it("lists an OpenAI-compatible server's models", async () => {
    const { id } = await world.callers.orgAdmin.providers.create(compatible());
    expect(await world.callers.orgAdmin.providers.test({ id })).toEqual({ ok: true, models: ["claude-haiku-4-5", "gpt-4o-mini", "local-llama"] });
    expect(provider.calls.at(-1)).toMatchObject({ protocol: "openai", path: "/v1/models" });
  });

  it("lists Anthropic's models (a request with the anthropic-version header)", async () => {
    const { id } = await world.callers.orgAdmin.providers.create(compatible({ kind: "anthropic", baseUrl: provider.anthropicBaseUrl }));
    expect(await world.callers.orgAdmin.providers.test({ id })).toEqual({ ok: true, models: ["claude-haiku-4-5", "gpt-4o-mini", "local-llama"] });
    expect(provider.calls.at(-1)).toMatchObject({ protocol: "anthropic", path: "/v1/models" });
  });

  it("says in plain words why it failed: a wrong key (401), a rate limit (429), a provider error (500), nobody listening", async () => {
    const wrong = await world.callers.orgAdmin.providers.create(compatible({ apiKey: "sk-wrong" }));
    expect(await world.callers.orgAdmin.providers.test({ id: wrong.id })).toEqual({
      ok: false,
      status: 401,
      message: PROVIDER_MSG.keyRefused(wrong.name),
      detail: "401: Incorrect API key provided.",
    });
    const anthropicWrong = await world.callers.orgAdmin.providers.create(compatible({ kind: "anthropic", baseUrl: provider.anthropicBaseUrl, apiKey: "sk-wrong" }));
    expect(await world.callers.orgAdmin.providers.test({ id: anthropicWrong.id })).toEqual({
      ok: false,
      status: 401,
      message: PROVIDER_MSG.keyRefused(anthropicWrong.name),
      detail: "401: invalid x-api-key",
    });

    const { id, name } = await world.callers.orgAdmin.providers.create(compatible());
    provider.failWith = 429;
    try {
      expect(await world.callers.orgAdmin.providers.test({ id })).toMatchObject({
        ok: false,
        status: 429,
        message: expect.stringMatching(new RegExp(`^${name} is rate limiting requests \\(429\\): retry in`)),
        detail: "429: Rate limit reached for requests.",
      });
      provider.failWith = 500;
      expect(await world.callers.orgAdmin.providers.test({ id })).toMatchObject({ ok: false, status: 500, message: PROVIDER_MSG.providerFailed(name, 500), detail: expect.stringMatching(/^500: /) });
    } finally {
      provider.failWith = null;
    }

    const nobody = await world.callers.orgAdmin.providers.create(compatible({ baseUrl: "http://127.0.0.1:9/v1" }));
    expect(await world.callers.orgAdmin.providers.test({ id: nobody.id })).toMatchObject({ ok: false, status: null, message: PROVIDER_MSG.unreachable(nobody.name, "127.0.0.1:9") });
  });
  it("never answers the key a provider quotes in its message, whole or masked", async () => {
    const key = "sk-proj-quotedKey0123456789abcdefWXYZ";
    const quoted = await world.callers.orgAdmin.providers.create(compatible({ apiKey: key }));
    try {
      provider.failMessage = `Incorrect API key provided: sk-proj-quo************************WXYZ. You can find your API key at https://platform.openai.com/account/api-keys.`;
      const masked = await world.callers.orgAdmin.providers.test({ id: quoted.id });
      expect(masked).toEqual({
        ok: false,
        status: 401,
        message: PROVIDER_MSG.keyRefused(quoted.name),
        detail: "401: Incorrect API key provided: [redacted] You can find your API key at https://platform.openai.com/account/api-keys.",
      });
      provider.failMessage = `Key ${key} is not valid (Authorization: Bearer ${key})`;
      const whole = await world.callers.orgAdmin.providers.test({ id: quoted.id });
      expect(whole).toMatchObject({ ok: false, status: 401 });
      expect(JSON.stringify(whole)).not.toContain("quotedKey");
      expect(JSON.stringify(whole)).not.toContain("WXYZ");
    } finally {
      provider.failMessage = null;
    }
  });
});

describe("what a connection may be", () => {
  it("refuses a second connection of the same name, an OpenAI-compatible one without a base URL, and teams of another organization", async () => {
    const first = await world.callers.orgAdmin.providers.create(compatible());
    expect(await failure(world.callers.orgAdmin.providers.create(compatible({ name: first.name })))).toEqual({ code: "CONFLICT", message: PROVIDER_MSG.nameTaken });
    expect(await failure(world.callers.orgAdmin.providers.create(compatible({ baseUrl: undefined })))).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(PROVIDER_MSG.baseUrlRequired) });
    expect(await failure(world.callers.orgAdmin.providers.create(compatible({ baseUrl: "http://user:pw@127.0.0.1/v1" })))).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining(PROVIDER_MSG.baseUrlInvalid) });

    const elsewhere = await h.database.db.organization.findFirstOrThrow({ where: { name: "Elsewhere" } });
    const foreignTeam = await createTeam(h, elsewhere.id, [], `Foreign ${++counter}`);
    expect(await failure(world.callers.orgAdmin.providers.create(compatible({ teamIds: [foreignTeam.id] })))).toEqual({
      code: "BAD_REQUEST",
      message: PROVIDER_MSG.teamNotInOrganization,
    });
    const team = await world.team(`Limited ${++counter}`);
    const limited = await world.callers.orgAdmin.providers.create(compatible({ teamIds: [team.id, team.id] }));
    expect(limited.teamIds).toEqual([team.id]);
    expect((await world.callers.orgAdmin.providers.update({ id: limited.id, teamIds: [] })).teamIds).toEqual([]);
  });

  it("is audited: added, changed (the new key's last four, never the key) and removed", async () => {
    const { id } = await world.callers.orgAdmin.providers.create(compatible());
    await world.callers.orgAdmin.providers.update({ id, apiKey: "sk-rotated-key-4321" });
    await world.callers.orgAdmin.providers.delete({ id });
    const events = await h.database.db.auditEvent.findMany({ where: { targetId: id }, orderBy: { seq: "asc" } });
    expect(events.map((event) => event.action)).toEqual(["provider.create", "provider.update", "provider.delete"]);
    expect(JSON.stringify(events.map(({ before, after }) => ({ before, after })))).not.toContain("sk-rotated-key-4321");
    expect(events[1]!.after).toMatchObject({ apiKeyLast4: "4321" });
  });
});

describe("where a connection may point", () => {
  let closed: Harness;
  let closedWorld: Awaited<ReturnType<typeof createWorld>>;
  beforeAll(async () => {
    closed = await createHarness({ allowPrivateProviderUrls: false });
    closedWorld = await createWorld(closed);
  });
  afterAll(() => closed.close());

  it.each(["http://127.0.0.1:8080/v1", "http://10.1.2.3/v1", "http://192.168.0.10:11434/v1", "http://[::1]:8000/v1", "http://169.254.169.254/latest", "http://localhost:11434/v1",
    // IPv6 ways to an inside IPv4 address: mapped (the URL parser writes it ::ffff:7f00:1), NAT64, 6to4; NAT64's local-use range.
    "http://[::ffff:127.0.0.1]/v1", "http://[64:ff9b::10.0.0.1]/v1", "http://[64:ff9b::a9fe:a9fe]/v1", "http://[2002:c0a8:1::1]/v1", "http://[64:ff9b:1::5]/v1"])(
    "refuses %s without ALLOW_PRIVATE_PROVIDER_URLS",
    async (baseUrl) => {
      const result = await failure(
        closedWorld.callers.orgAdmin.providers.create({ organizationId: closedWorld.organization.id, kind: "openai-compatible", name: "Inside", baseUrl, apiKey: "sk-x" }),
      );
      expect(result).toEqual({ code: "BAD_REQUEST", message: PROVIDER_MSG.baseUrlPrivate });
      expect(await closed.database.db.providerConnection.count()).toBe(0);
    },
  );

  it("accepts a public IPv4 address reached through NAT64 or 6to4 (IPv6-only networks call providers that way)", async () => {
    for (const [name, baseUrl] of [["NAT64", "http://[64:ff9b::8.8.8.8]/v1"], ["6to4", "http://[2002:808:808::1]/v1"]]) {
      await closedWorld.callers.orgAdmin.providers.create({ organizationId: closedWorld.organization.id, kind: "openai-compatible", name: name!, baseUrl: baseUrl!, apiKey: "sk-x" });
    }
    expect(await closed.database.db.providerConnection.count({ where: { organizationId: closedWorld.organization.id } })).toBe(2);
    await closed.database.db.providerConnection.deleteMany({ where: { organizationId: closedWorld.organization.id } });
  });

  it("refuses, at call time, a connection whose address is private (stored before the rule, or a name that now resolves inside)", async () => {
    const { id } = await closedWorld.callers.orgAdmin.providers.create({
      organizationId: closedWorld.organization.id,
      kind: "openai-compatible",
      name: "Public",
      baseUrl: "https://models.example.com/v1",
      apiKey: provider.apiKey,
    });
    // As if the row had been written with an address inside the network.
    await closed.database.db.providerConnection.update({ where: { id }, data: { baseUrl: provider.openaiBaseUrl } });
    const calls = provider.calls.length;
    expect(await closedWorld.callers.orgAdmin.providers.test({ id })).toMatchObject({
      ok: false,
      message: expect.stringContaining("private address 127.0.0.1"),
    });
    expect(provider.calls.length).toBe(calls);
  });
});

describe("the price table", () => {
  it("lists the built-in prices; an admin's price replaces a model's and is audited; a bad price changes nothing", async () => {
    const organization = { organizationId: organizationId() };
    const before = await world.callers.orgAdmin.providers.prices(organization);
    expect(before.find((row) => row.model === "gpt-4o-mini")).toEqual({ model: "gpt-4o-mini", inputPerMillion: 0.15, outputPerMillion: 0.6, source: "default" });

    await world.callers.orgAdmin.providers.setPrice({ ...organization, model: "gpt-4o-mini", inputPerMillion: 0.2, outputPerMillion: 0.8 });
    await world.callers.orgAdmin.providers.setPrice({ ...organization, model: "local-llama", inputPerMillion: 0, outputPerMillion: 0 });
    const after = await world.callers.orgAdmin.providers.prices(organization);
    expect(after.filter((row) => row.model === "gpt-4o-mini")).toEqual([{ model: "gpt-4o-mini", inputPerMillion: 0.2, outputPerMillion: 0.8, source: "organization" }]);
    expect(after.find((row) => row.model === "local-llama")).toMatchObject({ source: "organization", inputPerMillion: 0 });
    expect(after.map((row) => row.model)).toEqual([...after.map((row) => row.model)].sort((a, b) => a.localeCompare(b)));

    expect(await failure(world.callers.orgAdmin.providers.setPrice({ ...organization, model: "gpt-4o-mini", inputPerMillion: -1, outputPerMillion: 1 }))).toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining(PROVIDER_MSG.priceInvalid),
    });
    expect((await world.callers.orgAdmin.providers.prices(organization)).find((row) => row.model === "gpt-4o-mini")?.inputPerMillion).toBe(0.2);
    expect(await outcome(world.callers.admin.providers.setPrice({ ...organization, model: "gpt-4o", inputPerMillion: 1, outputPerMillion: 1 }))).toBe("FORBIDDEN");
    expect(await h.database.db.auditEvent.count({ where: { action: "model_price.set", organizationId: organizationId() } })).toBe(2);
  });
});
