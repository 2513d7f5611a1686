// Analytics over real rows: usage counted by real runtime fetches (REST /api/v1 with a
// key, flushed as the app does) and rows seeded straight into prompt_usage. The overview counts only
// what the caller may read (a private prompt's usage is not counted for others), the team filter
// narrows it, and a range is whole UTC days ending today.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BY_VERSION_LABEL, analyticsDays } from "@promptly/shared";
import { appProcess, createAccount, createHarness, createOrganization, createTeam, outcome, type AppProcess, type Harness } from "@promptly/api/testing";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

let h: Harness;
let app: AppProcess;
let server: TestServer;
let organizationId: string;
let coreId: string;
let otherId: string;
let replyId: string;
let privateId: string;
let otherPromptId: string;
let readKeyId: string;
let readKey: string;
type Api = Awaited<ReturnType<Harness["signedInClient"]>>["api"];
let admin: Api;
let viewer: Api;
let outsider: Api;

async function fetchPrompt(path: string, key = readKey) {
  const response = await fetch(`${server.base}/api/v1/prompts/${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
}

const daysAgo = (n: number) => new Date(Date.parse(new Date().toISOString().slice(0, 10)) - n * 86_400_000);

async function seed(promptId: string, version: number, label: string, day: Date, count: number, apiKeyId = readKeyId) {
  await h.database.db.promptUsage.create({ data: { promptId, version, apiKeyId, label, day, count: BigInt(count) } });
}

beforeAll(async () => {
  h = await createHarness();
  app = appProcess(h);
  server = await listenForTests(createApp({ services: app.services }));
  const ada = await createAccount(h, { fullName: "Ada Admin" });
  const vic = await createAccount(h, { fullName: "Vic Viewer" });
  const olga = await createAccount(h, { fullName: "Olga Outsider" });
  const organization = await createOrganization(h, [{ userId: ada.id, role: "member" }, { userId: vic.id, role: "member" }]);
  organizationId = organization.id;
  coreId = (await createTeam(h, organizationId, [{ userId: ada.id, role: "admin" }, { userId: vic.id, role: "viewer" }], "Core")).id;
  otherId = (await createTeam(h, organizationId, [{ userId: ada.id, role: "admin" }], "Other")).id;
  await createOrganization(h, [{ userId: olga.id, role: "admin" }]);
  admin = (await h.signedInClient(ada.id)).api;
  viewer = (await h.signedInClient(vic.id)).api;
  outsider = (await h.signedInClient(olga.id)).api;

  const reply = await admin.prompts.create({ teamId: coreId, name: "support/reply", title: "Reply", visibility: "team", type: "text", template: "One" });
  replyId = reply.id;
  await admin.promptVersions.create({ promptId: replyId, template: "Two" });
  await admin.promptLabels.set({ promptId: replyId, label: "production", version: 1 });
  await admin.promptLabels.set({ promptId: replyId, label: "staging", version: 2 });
  privateId = (await admin.prompts.create({ teamId: coreId, name: "draft", title: "Draft", visibility: "private", type: "text", template: "x" })).id;
  otherPromptId = (await admin.prompts.create({ teamId: otherId, name: "greeter", title: "Greeter", visibility: "team", type: "text", template: "Hi" })).id;
  const read = await admin.apiKeys.create({ teamId: coreId, name: "backend" });
  readKey = read.key;
  readKeyId = read.id;

  // Real runtime fetches today: production ×3, staging ×2, version 2 explicitly ×1.
  for (let i = 0; i < 3; i++) await fetchPrompt("support/reply");
  for (let i = 0; i < 2; i++) await fetchPrompt("support/reply?label=staging");
  await fetchPrompt("support/reply?version=2");
  await app.sync.flush();
});

afterAll(async () => {
  await server?.close();
  await app?.close();
  await h?.close();
});

describe("runtime fetches are counted with the label that served them", () => {
  it("one row per version, key, day and label ('' for an explicit version)", async () => {
    const rows = await h.database.db.promptUsage.findMany({ where: { promptId: replyId }, orderBy: [{ version: "asc" }, { label: "asc" }] });
    expect(rows.map((row) => [row.version, row.label, Number(row.count)])).toEqual([[1, "production", 3], [2, "", 1], [2, "staging", 2]]);
  });
});

describe("analytics.prompt", () => {
  it("fetches per day by version, by label and by key; key names only for who manages keys", async () => {
    const today = analyticsDays(7, new Date()).at(-1)!;
    const usage = await admin.analytics.prompt({ promptId: replyId, days: 7 });
    expect(usage.days).toHaveLength(7);
    expect(usage.days.at(-1)).toBe(today);
    expect(usage.total.at(-1)).toBe(6);
    expect(usage.versions.map((v) => [v.version, v.total])).toEqual([[2, 3], [1, 3]]);
    expect(usage.labels.map((l) => [l.label, l.total])).toEqual([[BY_VERSION_LABEL, 1], ["production", 3], ["staging", 2]]);
    expect(usage.keys).toEqual([{ name: "backend", daily: [0, 0, 0, 0, 0, 0, 6], total: 6 }]);

    const seen = await viewer.analytics.prompt({ promptId: replyId, days: 7 });
    expect(seen.keysNamed).toBe(false);
    expect(seen.keys.map((k) => [k.name, k.total])).toEqual([["API key 1", 6]]);
  });

  it("a prompt the caller may not read does not exist for them", async () => {
    await seed(privateId, 1, "production", daysAgo(0), 4);
    expect((await outcome(viewer.analytics.prompt({ promptId: privateId, days: 7 }))).code).toBe("NOT_FOUND");
    expect((await outcome(outsider.analytics.prompt({ promptId: replyId, days: 7 }))).code).toBe("NOT_FOUND");
    expect((await admin.analytics.prompt({ promptId: privateId, days: 7 })).total.at(-1)).toBe(4);
  });
});

describe("analytics.overview", () => {
  it("counts only prompts the caller may read: a private prompt's usage is not counted for others", async () => {
    const mine = await admin.analytics.overview({ organizationId, days: 7 });
    const theirs = await viewer.analytics.overview({ organizationId, days: 7 });
    const fetches = (overview: typeof mine) => Object.fromEntries(overview.prompts.map((p) => [p.name, p.fetches]));
    expect(fetches(mine)).toMatchObject({ "support/reply": 6, draft: 4, greeter: 0 });
    expect(fetches(theirs)).toEqual({ "support/reply": 6 });
    const todayOf = (overview: typeof mine) => Object.fromEntries(overview.labels.map((l) => [l.label, l.daily.at(-1)]));
    expect(todayOf(mine)).toEqual({ [BY_VERSION_LABEL]: 1, production: 7, staging: 2 });
    expect(todayOf(theirs)).toEqual({ [BY_VERSION_LABEL]: 1, production: 3, staging: 2 });
    const reply = theirs.prompts[0]!;
    expect(reply).toMatchObject({ productionVersion: 1, lastFetched: theirs.days.at(-1), bookmarks: 0 });
    expect(reply.daily.at(-1)).toBe(6);
  });

  it("the team filter keeps one team; a team the caller cannot read, or another organization, is refused", async () => {
    await seed(otherPromptId, 1, "production", daysAgo(1), 5);
    const other = await admin.analytics.overview({ organizationId, teamId: otherId, days: 7 });
    expect(other.prompts.map((p) => [p.name, p.fetches, p.daily.at(-2)])).toEqual([["greeter", 5, 5]]);
    const core = await admin.analytics.overview({ organizationId, teamId: coreId, days: 7 });
    expect(core.prompts.map((p) => p.name).sort()).toEqual(["draft", "support/reply"]);
    expect((await outcome(viewer.analytics.overview({ organizationId, teamId: otherId, days: 7 }))).code).toBe("NOT_FOUND");
    expect((await outcome(outsider.analytics.overview({ organizationId, days: 7 }))).code).not.toBe("OK");
  });

  it("a range is whole UTC days ending today: 6 days ago is in 7, 7 days ago only in 30, 30 days ago only in 90", async () => {
    await seed(replyId, 1, "production", daysAgo(6), 10);
    await seed(replyId, 1, "production", daysAgo(7), 100);
    await seed(replyId, 1, "production", daysAgo(29), 1000);
    await seed(replyId, 1, "production", daysAgo(30), 10000);
    await seed(replyId, 1, "production", daysAgo(90), 100000);
    const total = async (days: 7 | 30 | 90) =>
      (await viewer.analytics.overview({ organizationId, days })).prompts.find((p) => p.id === replyId)!.fetches;
    expect(await total(7)).toBe(6 + 10);
    expect(await total(30)).toBe(6 + 10 + 100 + 1000);
    expect(await total(90)).toBe(6 + 10 + 100 + 1000 + 10000);
    const week = await viewer.analytics.prompt({ promptId: replyId, days: 7 });
    expect(week.total[0]).toBe(10);
    expect(week.days[0]).toBe(daysAgo(6).toISOString().slice(0, 10));
  });

  it("versions per week, ratings and bookmarks come from their rows", async () => {
    await viewer.ratings.set({ promptId: replyId, stars: 4 });
    await viewer.bookmarks.add({ promptId: replyId });
    const overview = await viewer.analytics.overview({ organizationId, days: 7 });
    expect(overview.versionsPerWeek.reduce((sum, w) => sum + w.count, 0)).toBe(2);
    expect(overview.ratings).toEqual([1, 2, 3, 4, 5].map((stars) => ({ stars, count: stars === 4 ? 1 : 0 })));
    expect(overview.bookmarks.at(-1)).toEqual({ day: overview.days.at(-1), added: 1, total: 1 });
    expect(overview.prompts[0]).toMatchObject({ bookmarks: 1, ratingCount: 1, ratingAverage: 4 });
  });
});

describe("the daily rollup the overview reads", () => {
  /** prompt_usage summed per prompt, day and label, next to the rollup, for every prompt. */
  const sums = async () => {
    const db = h.database.db;
    const raw = await db.$queryRaw<{ promptId: string; day: Date; label: string; count: bigint }[]>`
      SELECT prompt_id::text AS "promptId", day, label, sum(count)::bigint AS count FROM prompt_usage GROUP BY 1, 2, 3 HAVING sum(count) <> 0 ORDER BY 1, 2, 3`;
    const rollup = await db.$queryRaw<{ promptId: string; day: Date; label: string; count: bigint }[]>`
      SELECT prompt_id::text AS "promptId", day, label, count FROM prompt_usage_daily WHERE count <> 0 ORDER BY 1, 2, 3`;
    return { raw, rollup };
  };

  it("follows every insert, flush increment and deletion of usage rows, in the same statement", async () => {
    const before = await sums();
    expect(before.rollup).toEqual(before.raw);
    expect(before.rollup.length).toBeGreaterThan(0);
    // Another key's usage of the same prompt and day adds to the same rollup row.
    const extra = await admin.apiKeys.create({ teamId: coreId, name: "rollup" });
    await seed(replyId, 1, "production", daysAgo(0), 7, extra.id);
    // A flush's increment of an existing row (as runtime-cache writes it).
    await h.database.db.$executeRaw`
      INSERT INTO prompt_usage (prompt_id, version, api_key_id, day, label, count)
      VALUES (${replyId}::uuid, 1, ${extra.id}::uuid, ${daysAgo(0)}::date, 'production', 5)
      ON CONFLICT (prompt_id, version, api_key_id, day, label) DO UPDATE SET count = prompt_usage.count + excluded.count`;
    const after = await sums();
    expect(after.rollup).toEqual(after.raw);
    const today = (rows: typeof after.raw) =>
      Number(rows.find((row) => row.promptId === replyId && row.label === "production" && row.day.getTime() === daysAgo(0).getTime())?.count ?? 0);
    expect(today(after.rollup) - today(before.rollup)).toBe(12);
    // A usage row deleted (its key's rows go with the key) takes its count away.
    await h.database.db.promptUsage.deleteMany({ where: { apiKeyId: extra.id } });
    expect((await sums()).rollup).toEqual(before.rollup);
  });
});
