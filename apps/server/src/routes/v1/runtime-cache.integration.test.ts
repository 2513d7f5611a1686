// The runtime API served from memory, correct across processes: two app
// processes on one database, each with its own cache and listener. A change made through A is
// served by B within a second; B's repeated answers cost no query; B that loses its listening
// connection clears its cache and still answers right; usage is counted in memory and flushed in
// one statement per flush, at shutdown too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "@promptly/db/listen";
import { API_KEY_MSG } from "@promptly/shared";
import { appProcess, createAccount, createHarness, createOrganization, createTeam, type AppProcess, type Harness } from "@promptly/api/testing";
import { startFakeProvider } from "@promptly/api/testing/fake-provider";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";
import { within } from "../../../test/within.ts";

let h: Harness;
let a: AppProcess;
let b: AppProcess;
let serverA: TestServer;
let serverB: TestServer;
let adminViaA: ReturnType<Harness["client"]>["api"];
let promptId: string;
let writeKey: string;
let readKey: string;
let readKeyId: string;

const listening = (process: AppProcess) => within(5_000, async () => process.services.runtime.serving);

/**
 * Resolves once `process` has heard every change notified so far: PostgreSQL delivers notifications
 * in commit order, so when a marker sent now has arrived, so has every earlier one (a late one from
 * the set-up would drop the cache between two reads on a loaded machine). The marker is a key prefix
 * announcement, which drops nothing.
 */
async function caughtUp(process: AppProcess) {
  const marker = `caught-up-${Math.random().toString(36).slice(2)}`;
  await h.database.db.$executeRaw`SELECT pg_notify('promptly_runtime', ${`key-prefix:${marker}`})`;
  await within(5_000, async () => process.services.runtime.mayBeApiKey(marker) === true);
}

async function get(server: TestServer, path: string, key: string) {
  const response = await fetch(`${server.base}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

async function put(server: TestServer, path: string, key: string, body: unknown) {
  const response = await fetch(`${server.base}/api/v1${path}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

/** The listening connections of the runtime channel on the test database. */
async function runtimeListeners(): Promise<number[]> {
  const rows = await h.database.db.$queryRaw<{ pid: number }[]>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN promptly_runtime'`;
  return rows.map((row) => row.pid);
}

beforeAll(async () => {
  h = await createHarness();
  a = appProcess(h);
  b = appProcess(h);
  serverA = await listenForTests(createApp({ services: a.services }));
  serverB = await listenForTests(createApp({ services: b.services }));
  await Promise.all([listening(a), listening(b)]);

  const person = await createAccount(h);
  const organization = await createOrganization(h, [{ userId: person.id, role: "member" }]);
  const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }])).id;
  // A signed-in person whose tRPC calls run in process A.
  adminViaA = (await h.signedInClient(person.id, { services: a.services })).api;

  const prompt = await adminViaA.prompts.create({ teamId, name: "support/greeting", title: "Greeting", visibility: "team", type: "text", template: "One" });
  promptId = prompt.id;
  await adminViaA.promptVersions.create({ promptId, template: "Two" });
  await adminViaA.promptVersions.create({ promptId, template: "Three" });
  await adminViaA.promptLabels.set({ promptId, label: "production", version: 1 });
  await adminViaA.promptLabels.set({ promptId, label: "staging", version: 1 });
  writeKey = (await adminViaA.apiKeys.create({ teamId, name: "deploys", scopes: ["write"] })).key;
  const read = await adminViaA.apiKeys.create({ teamId, name: "reader" });
  readKey = read.key;
  readKeyId = read.id;
});

afterAll(async () => {
  await serverA?.close();
  await serverB?.close();
  await a?.close();
  await b?.close();
  await h?.close();
});

describe("two app processes on one database", () => {
  it("B's second answer comes from memory: no database query at all", async () => {
    await caughtUp(b);
    const first = await get(serverB, "/prompts/support/greeting", readKey);
    expect(first).toMatchObject({ status: 200, json: { version: 1, template: "One" } });
    const before = b.queries();
    const second = await get(serverB, "/prompts/support/greeting", readKey);
    expect(second).toEqual(first);
    expect(b.queries()).toBe(before);
    // And the first one did ask the database: the count is of real queries.
    const cold = b.queries();
    await get(serverB, "/prompts/support/greeting?version=3", readKey);
    expect(b.queries()).toBeGreaterThan(cold);
  });

  it("a label moved through A (REST) is served by B within 1 s", async () => {
    expect((await get(serverB, "/prompts/support/greeting?label=staging", readKey)).json.version).toBe(1);
    expect((await get(serverB, "/prompts/support/greeting?label=staging", readKey)).json.version).toBe(1);
    await put(serverA, "/prompts/support/greeting/labels/staging", writeKey, { version: 2 });
    // A, the writer, answers with the change at once.
    expect((await get(serverA, "/prompts/support/greeting?label=staging", readKey)).json.version).toBe(2);
    await within(1_000, async () => (await get(serverB, "/prompts/support/greeting?label=staging", readKey)).json.version === 2);
  });

  it("a label moved through A's tRPC API (production, by a team admin) is served by B within 1 s", async () => {
    expect((await get(serverB, "/prompts/support/greeting", readKey)).json.version).toBe(1);
    await adminViaA.promptLabels.set({ promptId, label: "production", version: 3 });
    await within(1_000, async () => (await get(serverB, "/prompts/support/greeting", readKey)).json.version === 3);
    expect((await get(serverB, "/prompts/support/greeting", readKey)).json).toMatchObject({ version: 3, template: "Three", labels: ["production"] });
  });

  it("a key revoked through A is refused by B within 1 s", async () => {
    const key = await adminViaA.apiKeys.create({ teamId: (await h.database.db.prompt.findUniqueOrThrow({ where: { id: promptId } })).teamId, name: "soon revoked" });
    expect((await get(serverB, "/prompts/support/greeting", key.key)).status).toBe(200);
    const before = b.queries();
    expect((await get(serverB, "/prompts/support/greeting", key.key)).status).toBe(200);
    expect(b.queries(), "the key was kept in B's memory").toBe(before);
    await adminViaA.apiKeys.revoke({ id: key.id });
    await within(1_000, async () => (await get(serverB, "/prompts/support/greeting", key.key)).status === 401);
    expect((await get(serverB, "/prompts/support/greeting", key.key)).json).toEqual({ error: { code: "UNAUTHORIZED", message: API_KEY_MSG.revokedKey } });
  });

  it("a process that loses its listening connection clears its cache, answers from the database meanwhile, and listens again", async () => {
    const before = await runtimeListeners();
    const c = appProcess(h);
    try {
      const serverC = await listenForTests(createApp({ services: c.services }));
      try {
        await listening(c);
        const [pid] = (await runtimeListeners()).filter((id) => !before.includes(id));
        expect(pid).toBeDefined();
        await get(serverC, "/prompts/support/greeting?label=staging", readKey);
        expect(c.services.runtime.entries.prompts).toBe(1);

        await h.database.db.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
        await within(1_000, async () => !c.services.runtime.serving);
        expect(c.services.runtime.entries).toEqual({ prompts: 0, keys: 0 });
        // Moved while C hears nothing: C answers from the database, not from what it had.
        await put(serverA, "/prompts/support/greeting/labels/staging", writeKey, { version: 3 });
        expect((await get(serverC, "/prompts/support/greeting?label=staging", readKey)).json.version).toBe(3);

        await listening(c);
        // The move above may be heard only now, after the new listener opened: heard before the reads below.
        await caughtUp(c);
        expect((await runtimeListeners()).filter((id) => !before.includes(id) && id !== pid)).toHaveLength(1);
        expect((await get(serverC, "/prompts/support/greeting?label=staging", readKey)).json.version).toBe(3);
        const warm = c.queries();
        expect((await get(serverC, "/prompts/support/greeting?label=staging", readKey)).json.version).toBe(3);
        expect(c.queries(), "serving from memory again").toBe(warm);
        // And hears changes again.
        await put(serverA, "/prompts/support/greeting/labels/staging", writeKey, { version: 1 });
        await within(1_000, async () => (await get(serverC, "/prompts/support/greeting?label=staging", readKey)).json.version === 1);
      } finally {
        await serverC.close();
      }
    } finally {
      await c.close();
    }
  });
});

describe("the cache's budget of bytes", () => {
  it("large prompts fetched push the least recently fetched out, under the budget; one larger than the whole budget is served from the database each time, not kept", async () => {
    const budget = 300_000;
    const c = appProcess(h, { runtimeCacheMaxBytes: budget });
    try {
      const serverC = await listenForTests(createApp({ services: c.services }));
      try {
        const { teamId } = await h.database.db.prompt.findUniqueOrThrow({ where: { id: promptId }, select: { teamId: true } });
        // Versions 1 to 4 of 30,000 characters, some 120,000 bytes each as estimated: two fit. Version 5's 100,000 characters alone are over.
        const texts = ["a", "b", "c", "d", "z"].map((letter, index) => letter.repeat(index < 4 ? 30_000 : 100_000));
        const large = await adminViaA.prompts.create({ teamId, name: "budget/large", title: "Large", visibility: "team", type: "text", template: texts[0]! });
        for (const template of texts.slice(1)) await adminViaA.promptVersions.create({ promptId: large.id, template });
        await listening(c);
        await caughtUp(c);
        const fetched = async (version: number) => {
          const answer = await get(serverC, `/prompts/budget/large?version=${version}`, readKey);
          expect(answer).toMatchObject({ status: 200, json: { version, template: texts[version - 1] } });
        };

        for (const version of [1, 2, 3, 4]) {
          await fetched(version);
          expect(c.services.runtime.bytes, `after version ${version}`).toBeLessThanOrEqual(budget);
        }
        expect(c.services.runtime.entries.prompts).toBe(2);
        expect(c.services.runtime.bytes).toBeGreaterThan(budget / 2);
        // The newest two answer from memory; the first went.
        const warm = c.queries();
        await fetched(4);
        await fetched(3);
        expect(c.queries(), "versions 3 and 4 from memory").toBe(warm);
        await fetched(1);
        expect(c.queries(), "version 1 from the database").toBeGreaterThan(warm);

        const kept = { entries: c.services.runtime.entries, bytes: c.services.runtime.bytes };
        await fetched(5);
        const once = c.queries();
        await fetched(5);
        expect(c.queries(), "version 5 from the database again").toBeGreaterThan(once);
        expect({ entries: c.services.runtime.entries, bytes: c.services.runtime.bytes }, "version 5 not kept, the others kept").toEqual(kept);
      } finally {
        await serverC.close();
      }
    } finally {
      await c.close();
    }
  });
});

describe("the notifications: every write that can change an answer sends one, in its transaction", () => {
  /** What the runtime channel carried while `act` ran (a marker sent after it bounds the wait: delivery is in commit order). */
  async function heardDuring(act: () => Promise<unknown>): Promise<string[]> {
    const heard: string[] = [];
    const listener = await listen(h.database.url, "promptly_runtime", (payload) => heard.push(payload), () => undefined);
    try {
      await act().catch(() => undefined);
      await h.database.db.$executeRaw`SELECT pg_notify('promptly_runtime', 'marker')`;
      await within(2_000, async () => heard.includes("marker"));
      return heard.filter((payload) => payload !== "marker");
    } finally {
      await listener.close();
    }
  }

  it("on every prompt, label and version write, the team; on a key's revocation, the key; a new key's prefix; nothing for bookmarks or a failed write", async () => {
    const { teamId } = await h.database.db.prompt.findUniqueOrThrow({ where: { id: promptId }, select: { teamId: true } });
    const team = [`team:${teamId}`];
    const created = await adminViaA.prompts.create({ teamId, name: "notify/one", title: "One", visibility: "team", type: "text", template: "x" });
    const id = created.id;
    const cases: [string, () => Promise<unknown>, string[]][] = [
      ["create", () => adminViaA.prompts.create({ teamId, name: "notify/two", title: "Two", visibility: "team", type: "text", template: "x" }), team],
      ["new version", () => adminViaA.promptVersions.create({ promptId: id, template: "y" }), team],
      ["label set", () => adminViaA.promptLabels.set({ promptId: id, label: "staging", version: 1 }), team],
      ["label moved", () => adminViaA.promptLabels.set({ promptId: id, label: "staging", version: 2 }), team],
      ["label removed", () => adminViaA.promptLabels.remove({ promptId: id, label: "staging" }), team],
      ["details", () => adminViaA.prompts.update({ id, title: "One, retitled" }), team],
      ["visibility", () => adminViaA.prompts.update({ id, visibility: "private" }), team],
      ["rename", () => adminViaA.prompts.rename({ id, name: "notify/renamed" }), team],
      ["archive", () => adminViaA.prompts.archive({ id }), team],
      ["restore", () => adminViaA.prompts.restore({ id }), team],
      ["a bookmark (changes no answer)", () => adminViaA.bookmarks.add({ promptId: id }), []],
      ["a failed write (rolled back)", () => adminViaA.promptLabels.set({ promptId: id, label: "staging", version: 99 }), []],
      // Two transactions: the archive, then the delete.
      ["archive and delete", async () => {
        await adminViaA.prompts.archive({ id });
        await adminViaA.prompts.delete({ id });
      }, [...team, ...team]],
    ];
    for (const [what, act, expected] of cases) expect(await heardDuring(act), what).toEqual(expected);

    const key = await adminViaA.apiKeys.create({ teamId, name: "to revoke" });
    // A new key changes no answer kept; its prefix is announced so that every process knows which keys may exist.
    let another = "";
    expect(await heardDuring(async () => (another = (await adminViaA.apiKeys.create({ teamId, name: "another" })).key)), "a new key").toEqual([`key-prefix:${another.slice(0, 12)}`]);
    expect(await heardDuring(() => adminViaA.apiKeys.revoke({ id: key.id })), "revoke").toEqual([`key:${key.id}`]);
  });

  it("B keeps a team's run connections; a new default or a deleted connection made through A is followed by B's next run within 1 s", async () => {
    const provider = await startFakeProvider();
    try {
      const person = await createAccount(h);
      const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }]);
      const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }])).id;
      const admin = (await h.signedInClient(person.id, { services: a.services })).api;
      const connection = (name: string) =>
        admin.providers.create({ organizationId: organization.id, kind: "openai-compatible", name, baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
      const [first, second] = [await connection("First"), await connection("Second")];
      await admin.providers.setDefault({ organizationId: organization.id, connectionId: first.id });
      const prompt = await admin.prompts.create({ teamId, name: "support/run", title: "Run", visibility: "team", type: "text", template: "Hello", model: "gpt-4o-mini" });
      await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
      const runKey = (await admin.apiKeys.create({ teamId, name: "runs", scopes: ["run"] })).key;
      /** A run through B: its status, and the connection it was recorded on. */
      const runOnB = async () => {
        const response = await fetch(`${serverB.base}/api/v1/prompts/support/run/run`, {
          method: "POST", headers: { authorization: `Bearer ${runKey}`, "content-type": "application/json" }, body: JSON.stringify({}),
        });
        if (response.status !== 200) return { status: response.status, connectionId: null };
        const { run } = (await response.json()) as { run: { id: string } };
        return { status: 200, connectionId: (await h.database.db.promptRun.findUniqueOrThrow({ where: { id: run.id }, select: { connectionId: true } })).connectionId };
      };

      await caughtUp(b);
      expect(await runOnB()).toEqual({ status: 200, connectionId: first.id });
      expect(b.services.runtime.teamRunConnections<{ defaults: { organization: string | null } }>(teamId, undefined)?.defaults.organization).toBe(first.id);
      await admin.providers.setDefault({ organizationId: organization.id, connectionId: second.id });
      await within(1_000, async () => (await runOnB()).connectionId === second.id);
      // Deleted, it is no more the default: the only one left never passed a test, so the run asks to name one.
      await admin.providers.delete({ id: second.id });
      await within(1_000, async () => (await runOnB()).status === 400);
      // What B heard (heardDuring's own marker drops everything, so it is asked last).
      expect(await heardDuring(() => admin.providers.setDefault({ organizationId: organization.id, connectionId: first.id }))).toEqual(["run-connections"]);
    } finally {
      await provider.close();
    }
  });
});

describe("usage", () => {
  const usageRows = () =>
    h.database.db.$queryRaw<{ version: number; count: bigint; day: Date }[]>`
      SELECT version, count, day FROM prompt_usage WHERE prompt_id = ${promptId}::uuid AND api_key_id = ${readKeyId}::uuid ORDER BY version`;

  it("N fetches are one row per (version, key, day) with count N after a flush, written by one statement, none per request", async () => {
    await b.sync.flush();
    await h.database.db.$executeRaw`DELETE FROM prompt_usage`;
    const production = (await get(serverB, "/prompts/support/greeting", readKey)).json.version as number;
    for (let i = 1; i < 7; i++) await get(serverB, "/prompts/support/greeting", readKey);
    for (let i = 0; i < 3; i++) await get(serverB, "/prompts/support/greeting?version=2", readKey);
    expect(await usageRows(), "nothing is written per request").toEqual([]);

    const before = b.queries();
    await b.sync.flush();
    expect(b.queries() - before, "one statement").toBe(1);
    const today = new Date(new Date().toISOString().slice(0, 10));
    expect(await usageRows()).toEqual(
      [
        { version: production, count: 7n, day: today },
        { version: 2, count: 3n, day: today },
      ].sort((x, y) => x.version - y.version),
    );

    // The next flush adds to the same rows.
    await get(serverB, "/prompts/support/greeting?version=2", readKey);
    await b.sync.flush();
    expect((await usageRows()).find((row) => row.version === 2)?.count).toBe(4n);
  });

  it("a process that stops flushes what it counted", async () => {
    await h.database.db.$executeRaw`DELETE FROM prompt_usage`;
    const c = appProcess(h);
    const serverC = await listenForTests(createApp({ services: c.services }));
    await listening(c);
    for (let i = 0; i < 5; i++) await get(serverC, "/prompts/support/greeting?version=1", readKey);
    await serverC.close();
    expect(await usageRows()).toEqual([]);
    await c.close();
    expect((await usageRows()).map((row) => [row.version, row.count])).toEqual([[1, 5n]]);
  });
});
