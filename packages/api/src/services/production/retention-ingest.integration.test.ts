// A generation that started before its organization's retention is accepted and not kept: housekeeping
// deletes such rows and keeps their part of the rollups, so one sent again after that (an SDK retrying,
// a backfill) must not be counted a second time. One still stored merges as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import type { KeyCaller } from "../access/visibility.ts";
import { pruneExpired } from "../platform/housekeeping.ts";
import { productionIngested } from "../platform/metrics.ts";
import { acceptProduction, ingestProduction, ingestSettled, type GenerationPatch } from "./ingest.ts";

const DAY = 24 * 60 * 60_000;

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };
let organizationId: string;
let key: KeyCaller;
let prompt: { id: string; name: string };

const db = () => h.database.db;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
const event = (observationId: string, fields: Partial<GenerationPatch> = {}): GenerationPatch => ({
  observationId, source: "otel", promptName: prompt.name, version: 1, seenAt: new Date(), ...fields,
});
const setRetention = (days: number) => db().organization.update({ where: { id: organizationId }, data: { generationRetentionDays: days } });
/** Nothing of the organization pruned yet: a test after the first one's prune starts afresh (a raised retention keeps no window housekeeping pruned open again). */
const nothingPruned = () => db().organization.update({ where: { id: organizationId }, data: { generationsPrunedBefore: null } });
const stored = async (observationId: string) =>
  (await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM generations WHERE team_id = ${team.id}::uuid AND observation_id = ${observationId}`)[0]!.n;
const rolledUp = async () =>
  (await db().$queryRaw<{ n: number }[]>`SELECT coalesce(sum(generations), 0)::int AS n FROM generation_rollups WHERE prompt_id = ${prompt.id}::uuid`)[0]!.n;
const dailyRolledUp = async () =>
  (await db().$queryRaw<{ n: number }[]>`SELECT coalesce(sum(generations), 0)::int AS n FROM generation_rollups_daily WHERE prompt_id = ${prompt.id}::uuid`)[0]!.n;
const otelDropped = async () =>
  (await productionIngested.get()).values.find((value) => value.labels["source"] === "otel" && value.labels["result"] === "dropped")?.value ?? 0;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
  organizationId = (await db().team.findUniqueOrThrow({ where: { id: team.id }, select: { organizationId: true } })).organizationId;
  key = await world.ingestKey(team.id);
});
afterAll(() => h.close());

describe("a generation started before its organization's retention", () => {
  it("sent again after housekeeping deleted it is not counted twice", async () => {
    prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    await setRetention(30);
    const sent = () => ingestProduction(db(), key, team.id, { generations: [event("resent", { startedAt: daysAgo(20), inputTokens: 10, outputTokens: 5 })], scores: [] });
    expect((await sent()).generations).toBe(1);
    expect(await rolledUp()).toBe(1);

    // The organization now keeps 7 days: housekeeping deletes the row, its part of the rollups stays.
    await setRetention(7);
    await pruneExpired(db(), new Date());
    expect(await stored("resent")).toBe(0);
    expect(await rolledUp()).toBe(1);

    const again = await sent();
    expect(await rolledUp()).toBe(1);
    expect(await dailyRolledUp()).toBe(1);
    expect(again.generations).toBe(0);
    expect(await stored("resent")).toBe(0);
  });

  it("is accepted and dropped (counted as dropped), a score naming it kept unlinked; one within the retention is kept", async () => {
    prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    await nothingPruned();
    await setRetention(30);
    const droppedBefore = await otelDropped();
    await acceptProduction(db(), key, { generations: [event("ancient", { startedAt: daysAgo(31) }), event("recent", { startedAt: daysAgo(29) })], scores: [] }, { source: "otel", dropped: 0 });
    await ingestSettled(db());
    expect(await db().$queryRaw`SELECT id FROM ingest_pending WHERE team_id = ${team.id}::uuid`).toEqual([]);
    expect(await stored("ancient")).toBe(0);
    expect(await stored("recent")).toBe(1);
    expect(await rolledUp()).toBe(1);
    expect(await otelDropped()).toBe(droppedBefore + 1);

    // As a score naming a generation not stored: kept, unlinked.
    const result = await ingestProduction(db(), key, team.id, {
      generations: [],
      scores: [{ observationId: "ancient", name: "quality", dataType: "numeric", value: 1, stringValue: null, source: "api", apiKeyId: key.apiKey.id }],
    });
    expect(result.scores).toMatchObject([{ linked: false, inserted: true }]);
  });

  it("still stored (housekeeping has not reached it) merges as before", async () => {
    prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    await nothingPruned();
    await setRetention(30);
    await ingestProduction(db(), key, team.id, { generations: [event("late-update", { startedAt: daysAgo(20) })], scores: [] });
    await setRetention(7);
    await ingestProduction(db(), key, team.id, { generations: [event("late-update", { startedAt: daysAgo(20), model: "gpt-4o-mini" })], scores: [] });
    expect(await db().$queryRaw`SELECT model FROM generations WHERE team_id = ${team.id}::uuid AND observation_id = 'late-update'`).toEqual([{ model: "gpt-4o-mini" }]);
    expect(await rolledUp()).toBe(1);
  });
});
