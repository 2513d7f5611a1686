// The tRPC API (/trpc) with a team API key instead of a session: the tRPC client keeps working with
// either a session cookie or an API key, over HTTP with @promptly/client's
// createClient against a real app and database. A key acts as a viewer of its team (an editor with
// the `write` scope) on the procedures of its team's prompts, nowhere else; every refusal says why and
// changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@promptly/client";
import { API_KEY_MSG, MSG, PROMPT_MSG, RUNTIME_MSG } from "@promptly/shared";
import { appProcess, createAccount, createHarness, createOrganization, createTeam, type AppProcess, type Harness } from "@promptly/api/testing";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

let h: Harness;
let app: AppProcess;
let server: TestServer;
let admin: Awaited<ReturnType<Harness["signedInClient"]>>["api"];
let adminId: string;
let organizationId: string;
let teamId: string;
let otherTeamId: string;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};

beforeAll(async () => {
  h = await createHarness();
  app = appProcess(h);
  server = await listenForTests(createApp({ services: app.services }));
  const person = await createAccount(h, { fullName: "Ada Admin" });
  adminId = person.id;
  organizationId = (await createOrganization(h, [{ userId: person.id, role: "member" }], "Acme")).id;
  teamId = (await createTeam(h, organizationId, [{ userId: person.id, role: "admin" }], "Core")).id;
  otherTeamId = (await createTeam(h, organizationId, [{ userId: person.id, role: "admin" }], "Other")).id;
  admin = (await h.signedInClient(person.id)).api;

  const text = { type: "text" as const, template: "Hello {{ name }}" };
  ids["reply"] = (await admin.prompts.create({ teamId, name: "support/reply", title: "Support reply", visibility: "team", ...text })).id;
  await admin.promptVersions.create({ promptId: ids["reply"], template: "Hi {{ name }}" });
  await admin.promptLabels.set({ promptId: ids["reply"], label: "production", version: 1 });
  await admin.promptLabels.set({ promptId: ids["reply"], label: "staging", version: 2 });
  ids["private"] = (await admin.prompts.create({ teamId, name: "mine", title: "Private draft", visibility: "private", ...text })).id;
  // Readable by every member of the organization, but a key of another team acts only within its team.
  ids["shared"] = (await admin.prompts.create({ teamId, name: "shared", title: "Shared", visibility: "organization", ...text })).id;
  ids["theirs"] = (await admin.prompts.create({ teamId: otherTeamId, name: "theirs", title: "Theirs", visibility: "team", ...text })).id;
  ids["archived"] = (await admin.prompts.create({ teamId, name: "old", title: "Archived", visibility: "team", ...text })).id;
  await admin.promptLabels.set({ promptId: ids["archived"], label: "production", version: 1 });
  await admin.prompts.archive({ id: ids["archived"] });

  const create = async (name: string, settings: { teamId?: string; labels?: string[]; scopes?: ("read" | "write")[] } = {}) =>
    (keys[name] = (await admin.apiKeys.create({ teamId: settings.teamId ?? teamId, name, labels: settings.labels, scopes: settings.scopes })).key);
  await create("read");
  await create("write", { scopes: ["write"] });
  await create("production", { labels: ["production"] });
  await create("other", { teamId: otherTeamId, scopes: ["write"] });
  const revoked = await admin.apiKeys.create({ teamId, name: "revoked", scopes: ["write"] });
  await admin.apiKeys.revoke({ id: revoked.id });
  keys["revoked"] = revoked.key;
});
afterAll(async () => {
  await server.close();
  await app.close();
  await h.close();
});

const withKey = (name: string) => createClient({ url: server.base, apiKey: keys[name] ?? name });

/** The refusal of a call: its tRPC code and message. */
async function refusal(call: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  const refused = error as { data?: { code?: string }; message?: string } | null;
  if (!refused?.data?.code) throw new Error(`expected a tRPC refusal, got ${String(error)}`);
  return { code: refused.data.code, message: refused.message ?? "" };
}

/** What a prompt looks like in the database: nothing a refused call may change. */
const snapshot = () =>
  h.database.db.prompt.findMany({
    orderBy: { name: "asc" },
    select: { name: true, title: true, visibility: true, latestVersion: true, labels: { select: { name: true, version: true }, orderBy: { name: "asc" } } },
  });

describe("a read key", () => {
  it("reads its team's prompts, versions and team like a team viewer", async () => {
    const client = withKey("read");
    const prompt = await client.prompts.get.query({ id: ids["reply"]! });
    expect(prompt.name).toBe("support/reply");
    expect(prompt.labels.map((label) => [label.name, label.version])).toEqual([["production", 1], ["staging", 2]]);
    const versions = await client.promptVersions.list.query({ promptId: ids["reply"]! });
    expect(versions.items.map((version) => version.version)).toEqual([2, 1]);
    expect((await client.teams.get.query({ id: teamId })).name).toBe("Core");
  });

  it("lists only its own team's prompts, never a private one, with the organization's list", async () => {
    const page = await withKey("read").prompts.list.query({ organizationId });
    expect(page.items.map((item) => item.name).sort()).toEqual(["shared", "support/reply"]);
    const facets = await withKey("read").prompts.facets.query({ organizationId });
    expect(facets.folders).toEqual([{ path: "support", count: 1 }]);
    expect((await refusal(withKey("read").prompts.list.query({ organizationId, teamId: otherTeamId }))).code).toBe("NOT_FOUND");
  });

  it("does not see a private prompt, or another team's", async () => {
    for (const id of [ids["private"]!, ids["theirs"]!]) {
      expect(await refusal(withKey("read").prompts.get.query({ id }))).toEqual({ code: "NOT_FOUND", message: MSG.notFound });
    }
  });

  it("may not write: each write says it needs the write scope, and nothing changes", async () => {
    const before = await snapshot();
    const client = withKey("read");
    const refusals = [
      await refusal(client.prompts.create.mutate({ teamId, name: "new", title: "New", visibility: "team", type: "text", template: "x" })),
      await refusal(client.promptVersions.create.mutate({ promptId: ids["reply"]!, template: "changed" })),
      await refusal(client.promptLabels.set.mutate({ promptId: ids["reply"]!, label: "staging", version: 1 })),
      await refusal(client.prompts.update.mutate({ id: ids["reply"]!, title: "Changed" })),
    ];
    for (const refused of refusals) expect(refused).toEqual({ code: "FORBIDDEN", message: RUNTIME_MSG.readOnlyKey });
    expect(await snapshot()).toEqual(before);
  });
});

describe("an archived prompt", () => {
  const rest = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${server.base}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${keys[key]}`, "content-type": "application/json" } });

  it("is not served to a key on /trpc, as on /api/v1: not found on both, reads and writes alike", async () => {
    const notFound = { code: "NOT_FOUND", message: MSG.notFound };
    expect((await rest("/prompts/old", "read")).status).toBe(404);
    expect(await refusal(withKey("read").prompts.get.query({ id: ids["archived"]! }))).toEqual(notFound);
    expect(await refusal(withKey("read").promptVersions.list.query({ promptId: ids["archived"]! }))).toEqual(notFound);
    expect((await withKey("read").prompts.list.query({ organizationId, archived: true })).items).toEqual([]);
    const before = await snapshot();
    expect((await rest("/prompts/old/versions", "write", { method: "POST", body: JSON.stringify({ template: "late" }) })).status).toBe(404);
    expect(await refusal(withKey("write").promptVersions.create.mutate({ promptId: ids["archived"]!, template: "late" }))).toEqual(notFound);
    expect(await refusal(withKey("write").prompts.update.mutate({ id: ids["archived"]!, title: "Late" }))).toEqual(notFound);
    expect(await snapshot()).toEqual(before);
  });

  it("is still there for a person, in the app as before", async () => {
    expect((await admin.prompts.get({ id: ids["archived"]! })).archivedAt).toBeInstanceOf(Date);
    expect((await admin.promptVersions.list({ promptId: ids["archived"]! })).items.map((version) => version.version)).toEqual([1]);
    expect((await admin.prompts.list({ organizationId, archived: true })).items.map((item) => item.name)).toEqual(["old"]);
  });
});

describe("a write key", () => {
  it("creates prompts and versions and moves labels other than production, recorded as nobody's", async () => {
    const client = withKey("write");
    const created = await client.prompts.create.mutate({ teamId, name: "tools/made", title: "Made by a tool", visibility: "team", type: "text", template: "v1" });
    const { version } = await client.promptVersions.create.mutate({ promptId: created.id, template: "v2" });
    expect(version).toBe(2);
    await client.promptLabels.set.mutate({ promptId: created.id, label: "staging", version: 2 });
    await client.prompts.update.mutate({ id: created.id, tags: ["tooling"] });
    const row = await h.database.db.prompt.findUniqueOrThrow({
      where: { id: created.id },
      select: { authorId: true, tags: true, versions: { select: { authorId: true } }, labels: { select: { name: true, version: true, movedBy: true } } },
    });
    expect(row.authorId).toBeNull();
    expect(row.tags).toEqual(["tooling"]);
    expect(row.versions.map((v) => v.authorId)).toEqual([null, null]);
    expect(row.labels).toEqual([{ name: "staging", version: 2, movedBy: null }]);
  });

  it("is served by the runtime API at once: a label moved over tRPC is what /api/v1 answers next", async () => {
    await withKey("write").promptLabels.set.mutate({ promptId: ids["reply"]!, label: "staging", version: 1 });
    const answer = await fetch(`${server.base}/api/v1/prompts/support/reply?label=staging`, { headers: { authorization: `Bearer ${keys["read"]}` } });
    expect(((await answer.json()) as { version: number }).version).toBe(1);
    await admin.promptLabels.set({ promptId: ids["reply"]!, label: "staging", version: 2 });
  });

  it("never moves or removes production, never makes a prompt private, and changes nothing when refused", async () => {
    const before = await snapshot();
    const client = withKey("write");
    // What /api/v1 tells the key, decided before the prompt is looked up: another team's prompt too.
    for (const promptId of [ids["reply"]!, ids["theirs"]!]) {
      expect(await refusal(client.promptLabels.set.mutate({ promptId, label: "production", version: 2 }))).toEqual({
        code: "FORBIDDEN", message: RUNTIME_MSG.protectedLabel,
      });
      expect(await refusal(client.promptLabels.remove.mutate({ promptId, label: "production" }))).toEqual({
        code: "FORBIDDEN", message: RUNTIME_MSG.protectedLabel,
      });
    }
    expect(await refusal(client.prompts.create.mutate({ teamId, name: "secret", title: "Secret", visibility: "private", type: "text", template: "x" }))).toEqual({
      code: "BAD_REQUEST", message: RUNTIME_MSG.privateByKey,
    });
    expect(await refusal(client.prompts.update.mutate({ id: ids["reply"]!, visibility: "private" }))).toEqual({
      code: "FORBIDDEN", message: PROMPT_MSG.privateAuthorOnly,
    });
    // Admin actions are a person's: a key is at most an editor.
    expect(await refusal(client.prompts.archive.mutate({ id: ids["reply"]! }))).toEqual({ code: "FORBIDDEN", message: API_KEY_MSG.personOnly });
    expect(await snapshot()).toEqual(before);
  });

  it("acts only within its team: another team's key finds nothing here, even an organization-wide prompt", async () => {
    const client = withKey("other");
    for (const id of [ids["reply"]!, ids["shared"]!]) {
      expect((await refusal(client.prompts.get.query({ id }))).code).toBe("NOT_FOUND");
      expect((await refusal(client.promptLabels.set.mutate({ promptId: id, label: "staging", version: 1 }))).code).toBe("NOT_FOUND");
    }
    expect((await refusal(client.prompts.create.mutate({ teamId, name: "intruder", title: "x", visibility: "team", type: "text", template: "x" }))).code).toBe("NOT_FOUND");
    expect((await refusal(client.teams.get.query({ id: teamId }))).code).toBe("NOT_FOUND");
    expect((await client.prompts.list.query({ organizationId })).items.map((item) => item.name)).toEqual(["theirs"]);
  });
});

describe("what a key may not do on /trpc", () => {
  it("a person's procedures answer FORBIDDEN and say a person is needed", async () => {
    const client = withKey("write");
    const calls: (() => Promise<unknown>)[] = [
      () => client.bookmarks.add.mutate({ promptId: ids["reply"]! }),
      () => client.ratings.set.mutate({ promptId: ids["reply"]!, stars: 5 }),
      () => client.teams.list.query(),
      () => client.organizations.list.query(),
      () => client.profile.get.query(),
      () => client.apiKeys.create.mutate({ teamId, name: "escalated" }),
      () => client.apiKeys.list.query({ teamId }),
      () => client.teamMembers.list.query({ teamId }),
    ];
    for (const call of calls) expect(await refusal(call())).toEqual({ code: "FORBIDDEN", message: API_KEY_MSG.personOnly });
    expect(await h.database.db.promptBookmark.count()).toBe(0);
    expect(await h.database.db.apiKey.count({ where: { name: "escalated" } })).toBe(0);
  });

  it("a key bound to labels lists its team's prompts as on /api/v1, and reads nothing that is not one of its labels", async () => {
    const client = withKey("production");
    expect((await client.prompts.list.query({ organizationId })).items.map((item) => item.name).sort()).toEqual(
      (await withKey("read").prompts.list.query({ organizationId })).items.map((item) => item.name).sort(),
    );
    const labelBound = { code: "FORBIDDEN", message: API_KEY_MSG.labelBound(["production"]) };
    // Refused before the lookup: another team's prompt, or none, is answered the same.
    for (const id of [ids["reply"]!, ids["theirs"]!, "00000000-0000-4000-8000-000000000000"]) {
      expect(await refusal(client.prompts.get.query({ id }))).toEqual(labelBound);
      expect(await refusal(client.prompts.get.query({ id, label: "production" }))).toEqual(labelBound);
      expect(await refusal(client.promptVersions.list.query({ promptId: id }))).toEqual(labelBound);
    }
    expect(await refusal(client.teams.get.query({ id: teamId }))).toEqual(labelBound);
    expect(await refusal(client.promptVersions.create.mutate({ promptId: ids["reply"]!, template: "x" }))).toEqual({
      code: "FORBIDDEN", message: RUNTIME_MSG.readOnlyKey,
    });
  });

  it("a revoked, unknown or malformed key, or a bad header, is refused on every procedure, public ones too", async () => {
    const unknown = `promptly_${"A".repeat(43)}`;
    const cases: [string, string][] = [
      ["revoked", API_KEY_MSG.revokedKey],
      [unknown, RUNTIME_MSG.unknownKey],
      ["promptly_short", RUNTIME_MSG.malformedKey],
    ];
    for (const [key, message] of cases) {
      expect(await refusal(withKey(key).prompts.get.query({ id: ids["reply"]! }))).toEqual({ code: "UNAUTHORIZED", message });
      expect(await refusal(withKey(key).auth.me.query())).toEqual({ code: "UNAUTHORIZED", message });
    }
    const basic = createClient({ url: server.base, headers: { authorization: `Basic ${keys["read"]}` } });
    expect(await refusal(basic.prompts.get.query({ id: ids["reply"]! }))).toEqual({ code: "UNAUTHORIZED", message: RUNTIME_MSG.malformedHeader });
  });
});

describe("sessions keep working", () => {
  it("a session cookie works as before, and an Authorization header decides over it", async () => {
    const signedIn = await h.signedInClient(adminId);
    const cookie = [...signedIn.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const person = createClient({ url: server.base, headers: { cookie } });
    expect((await person.prompts.get.query({ id: ids["private"]! })).name).toBe("mine");
    expect((await person.auth.me.query())?.user.id).toBe(adminId);
    // The same browser-like caller with a key: the key is who asks, so the author's private prompt is not there.
    const both = createClient({ url: server.base, apiKey: keys["read"], headers: { cookie } });
    expect((await refusal(both.prompts.get.query({ id: ids["private"]! }))).code).toBe("NOT_FOUND");
  });
});

describe("one rate limit a key, across /api/v1 and /trpc", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await listenForTests(
      createApp({ services: { ...app.services, config: { ...app.services.config, rateLimits: true } }, apiRateLimitPerMinute: 2 }),
    );
  });
  afterAll(async () => {
    await limited.close();
    await app.services.rateLimits.reset();
  });

  it("counts both APIs together and answers 429 past it", async () => {
    const key = (await admin.apiKeys.create({ teamId, name: "limited" })).key;
    const rest = await fetch(`${limited.base}/api/v1/prompts`, { headers: { authorization: `Bearer ${key}` } });
    expect(rest.status).toBe(200);
    const client = createClient({ url: limited.base, apiKey: key });
    expect((await client.prompts.get.query({ id: ids["reply"]! })).name).toBe("support/reply");
    expect(await refusal(client.prompts.get.query({ id: ids["reply"]! }))).toEqual({ code: "TOO_MANY_REQUESTS", message: RUNTIME_MSG.rateLimited });
    expect((await fetch(`${limited.base}/api/v1/prompts`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(429);
  });

  it("counts each call of a batch: a batch of the limit is answered, and is all of it; a batch past it is refused whole", async () => {
    const batch = (key: string, size: number) => {
      const input = Object.fromEntries(Array.from({ length: size }, (_, i) => [i, { json: { id: ids["reply"] } }]));
      const path = Array.from({ length: size }, () => "prompts.get").join(",");
      return fetch(`${limited.base}/trpc/${path}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { authorization: `Bearer ${key}` } })
        .then(async (response) => ((await response.json()) as { result?: unknown; error?: { json: { data: { code: string } } } }[]).map((answer) => answer.error?.json.data.code ?? "OK"));
    };
    const key = (await admin.apiKeys.create({ teamId, name: "batched" })).key;
    expect(await batch(key, 2)).toEqual(["OK", "OK"]);
    expect(await batch(key, 1)).toEqual(["TOO_MANY_REQUESTS"]);
    const fresh = (await admin.apiKeys.create({ teamId, name: "batched past the limit" })).key;
    expect(await batch(fresh, 3)).toEqual(["TOO_MANY_REQUESTS", "TOO_MANY_REQUESTS", "TOO_MANY_REQUESTS"]);
  });
});
